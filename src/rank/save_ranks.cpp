// What a stored rank vector records about how it was computed (ranks/NAME.json).
#include <cmath>
#include <ctime>
#include <nlohmann/json.hpp>

#include "store/rank_vectors.hpp"
#include "webrank/rank/push.hpp"
#include "webrank/rank/rank_json.hpp"
#include "webrank/store/rank_store.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

// Rank sources and dangling weights up to this many pages are kept in the metadata, so that
// `webrank check --ranks` can verify the vector (docs/format.md); larger ones are not.
constexpr std::size_t kStoredWeightsMax = 100'000;

nlohmann::json weights_json(const PageWeights& w) {
  std::vector<PageId> pages;
  std::vector<double> weights;
  for (const auto& [page, weight] : w) {
    pages.push_back(page);
    weights.push_back(weight);
  }
  return {{"pages", pages}, {"weights", weights}};
}

// The result's own JSON form, with the options it was computed with.
nlohmann::json describe(const RankOptions& o, const RankResult& r, PageId pages) {
  nlohmann::json j = r;
  j["pages"] = pages;
  j["method"] = to_string(o.method);
  if (o.method == Method::kAuto) j["solved_by"] = to_string(r.method);
  j["damping"] = o.damping;
  j["tol"] = o.tol;
  j["max_iter"] = o.max_iter;
  j["dangling"] = o.dangling_weights.empty() ? to_string(o.dangling) : "custom";
  j["personalized"] = !o.source.empty();
  j["source_pages"] = o.source.size();
  j["custom_start"] = !o.start.empty();
  if (!o.source.empty() && o.source.size() <= kStoredWeightsMax)
    j["source_weights"] = weights_json(o.source);
  if (!o.dangling_weights.empty() && o.dangling_weights.size() <= kStoredWeightsMax)
    j["dangling_weights"] = weights_json(o.dangling_weights);
  if (o.dangling == Dangling::kRemove) {
    j["removal_rounds"] = r.removal_rounds;
    j["removed_pages"] = r.removed_pages;
  }
  j["created"] = static_cast<std::int64_t>(std::time(nullptr));
  return j;
}

}  // namespace

void save_push_ranks(const Database& db, const std::string& name, const PushResult& r,
                     const PageWeights& source, const PushOptions& o) {
  std::vector<double> values(db.num_pages(), 0.0);
  double sum = 0;
  for (const auto& [page, p] : r.estimate) {
    values.at(page) = p;
    sum += p;
  }
  nlohmann::json j;
  j["precision"] = "double";
  j["method"] = "push";
  j["pages"] = db.num_pages();
  j["damping"] = o.damping;
  j["eps"] = o.eps;
  // The verifier holds the residual (1 − d)·Σr to this, and reports Σr as the error bound.
  j["tol"] = r.residual_sum;
  j["error_bound"] = r.residual_sum;
  j["iterations"] = 0;
  j["deltas"] = nlohmann::json::array();
  j["converged"] = true;
  j["stalled"] = false;
  j["final_delta"] = r.residual_sum;
  j["pushes"] = r.pushes;
  j["sweeps"] = r.sweeps;
  j["dangling"] = "source";
  j["personalized"] = true;
  j["source_pages"] = source.size();
  if (source.size() <= kStoredWeightsMax) j["source_weights"] = weights_json(source);
  j["normalized"] = false;
  j["sum"] = sum;
  j["seconds"] = r.seconds;
  j["created"] = static_cast<std::int64_t>(std::time(nullptr));
  write_rank_vector(db, name, values, Precision::kDouble, j);
}

void save_ranks(const Database& db, const std::string& name, const RankResult& r,
                const RankOptions& o) {
  write_rank_vector(db, name, r.ranks, r.precision, describe(o, r, db.num_pages()));
}

}  // namespace webrank
