// What a stored rank vector records about how it was computed (ranks/NAME.json).
#include <cmath>
#include <ctime>
#include <nlohmann/json.hpp>

#include "store/rank_vectors.hpp"
#include "webrank/error.hpp"
#include "webrank/rank_store.hpp"

namespace webrank {
namespace {

nlohmann::json describe(const RankOptions& o, const RankResult& r, PageId pages) {
  nlohmann::json j;
  j["pages"] = pages;
  j["precision"] = to_string(r.precision);
  j["method"] = to_string(o.method);
  if (o.method == Method::kAuto) j["solved_by"] = to_string(r.method);
  if (!r.sweep.empty()) j["sweep"] = r.sweep;
  if (r.block_pages != 0) j["block_pages"] = r.block_pages;
  if (r.blocked_from != 0) j["blocked_from_iteration"] = r.blocked_from;
  if (!r.sweep_note.empty()) j["sweep_note"] = r.sweep_note;
  if (r.components != 0) {
    j["components"] = r.components;
    j["largest_component_pages"] = r.largest_component;
  }
  j["damping"] = o.damping;
  j["tol"] = o.tol;
  j["max_iter"] = o.max_iter;
  j["dangling"] = o.dangling_weights.empty() ? to_string(o.dangling) : "custom";
  j["personalized"] = !o.source.empty();
  j["source_pages"] = o.source.size();
  j["custom_start"] = !o.start.empty();
  j["iterations"] = r.iterations;
  j["converged"] = r.converged;
  j["stalled"] = r.stalled;
  j["final_delta"] = r.final_delta;
  j["error_bound"] =
      std::isfinite(r.error_bound) ? nlohmann::json(r.error_bound) : nlohmann::json(nullptr);
  j["deltas"] = r.deltas;
  j["normalized"] = r.normalized;
  if (o.dangling == Dangling::kRemove) {
    j["removal_rounds"] = r.removal_rounds;
    j["removed_pages"] = r.removed_pages;
  }
  double sum = 0;
  for (double x : r.ranks) sum += x;
  j["sum"] = sum;
  j["seconds"] = r.seconds;
  j["created"] = static_cast<std::int64_t>(std::time(nullptr));
  return j;
}

}  // namespace

void save_ranks(const Database& db, const std::string& name, const RankResult& r,
                const RankOptions& o) {
  write_rank_vector(db, name, r.ranks, r.precision, describe(o, r, db.num_pages()));
}

}  // namespace webrank
