// Warm starts (RankOptions::warm_start): a stored vector as the start, mapped by label when it
// belongs to another database, and the iterations a cold start took, for the report.
#include "rank/warm_start.hpp"

#include "webrank/store/rank_store.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

// The cold iterations the record `r` of a stored vector states for the problem `o` states, or 0
// when it was computed differently or its own count is unknown.
int cold_iterations(const VectorRecord& r, const RankOptions& o) {
  const std::string dangling = o.dangling_weights.empty() ? to_string(o.dangling) : "custom";
  const bool same = r.is_pagerank() && r.damping == o.damping && r.tol == o.tol &&
                    r.dangling == dangling && r.method == to_string(o.method) &&
                    r.precision == o.precision && r.personalized == !o.source.empty() &&
                    r.source_pages == o.source.size();
  if (!same) return 0;
  if (r.warm_start) return r.warm_start->cold_iterations.value_or(0);
  return r.converged ? r.iterations : 0;
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
  VectorRecord record;
  if (o.warm_start_db.empty()) {
    StoredRanks s = load_ranks(db, o.warm_start);
    values = std::move(s.values);
    record = std::move(s.record);
    w.pages = n;
    if (record.stale) w.pages = n - static_cast<PageId>(record.stale->pages_added);
  } else {
    // Another database (a full rebuild, another crawl): by label.
    const Database other = Database::open(o.warm_start_db);
    StoredRanks s = load_ranks(other, o.warm_start);
    record = std::move(s.record);
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
  w.cold_iterations = cold_iterations(record, o);
  return w;
}

void record_warm_start(const WarmStart& w, RankResult& r) {
  r.warm_start = w.from;
  r.warm_start_pages = w.pages;
  r.cold_iterations = w.cold_iterations;
}

}  // namespace webrank
