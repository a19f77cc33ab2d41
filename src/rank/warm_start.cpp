// Warm starts (RankOptions::warm_start): a stored vector as the start, mapped by label when it
// belongs to another database, and the iterations a cold start took, for the report.
#include "rank/warm_start.hpp"

#include <nlohmann/json.hpp>

#include "webrank/store/rank_store.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

// The cold iterations `meta` (a stored vector's metadata) records for the problem `o` states, or
// 0 when it was computed differently or its own count is unknown.
int cold_iterations(const nlohmann::json& meta, const RankOptions& o) {
  const std::string dangling = o.dangling_weights.empty() ? to_string(o.dangling) : "custom";
  const bool same = meta.value("damping", -1.0) == o.damping && meta.value("tol", -1.0) == o.tol &&
                    meta.value("dangling", "") == dangling &&
                    meta.value("method", "") == to_string(o.method) &&
                    meta.value("precision", "") == to_string(o.precision) &&
                    meta.value("personalized", false) == !o.source.empty() &&
                    meta.value("source_pages", std::uint64_t{0}) == o.source.size();
  if (!same) return 0;
  if (meta.contains("warm_start")) {
    const auto& w = meta["warm_start"];
    return w.contains("cold_iterations") && w["cold_iterations"].is_number_integer()
               ? w["cold_iterations"].get<int>()
               : 0;
  }
  return meta.value("converged", false) ? meta.value("iterations", 0) : 0;
}

}  // namespace

WarmStart prepare_warm_start(const Database& db, RankOptions& o) {
  WarmStart w;
  if (o.warm_start.empty()) return w;
  if (!o.start.empty())
    fail_option("warm_start", "starts from a stored vector; it cannot be combined with ",
                option_ref("start"));
  const PageId n = db.num_pages();
  std::vector<double> values(n, 1.0 / n);
  nlohmann::json meta;
  if (o.warm_start_db.empty()) {
    const StoredRanks s = load_ranks(db, o.warm_start);
    values = s.values;
    meta = nlohmann::json::parse(s.metadata_json, nullptr, false);
    w.pages = n;
    if (meta.is_object() && meta.contains("stale"))
      w.pages = n - meta["stale"].value("pages_added", PageId{0});
  } else {
    // Another database (a full rebuild, another crawl): by label.
    const Database other = Database::open(o.warm_start_db);
    const StoredRanks s = load_ranks(other, o.warm_start);
    meta = nlohmann::json::parse(s.metadata_json, nullptr, false);
    for (PageId v = 0; v < other.num_pages(); ++v) {
      if (const auto u = db.find(other.label(v))) {
        values[*u] = s.values[v];
        ++w.pages;
      }
    }
  }
  if (w.pages == 0) fail_option("warm_start", "'", o.warm_start, "' has no page of this web");
  o.start.clear();
  o.start.reserve(n);
  for (PageId u = 0; u < n; ++u) o.start.emplace_back(u, values[u]);
  w.from = o.warm_start_db.empty() ? o.warm_start : o.warm_start_db.string() + ":" + o.warm_start;
  w.cold_iterations = meta.is_object() ? cold_iterations(meta, o) : 0;
  return w;
}

void record_warm_start(const WarmStart& w, RankResult& r) {
  r.warm_start = w.from;
  r.warm_start_pages = w.pages;
  r.cold_iterations = w.cold_iterations;
}

}  // namespace webrank
