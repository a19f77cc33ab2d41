// What a stored rank vector records about how it was computed (ranks/NAME.json).
#include <cmath>
#include <ctime>
#include <nlohmann/json.hpp>

#include "store/rank_vectors.hpp"
#include "webrank/error.hpp"
#include "webrank/json.hpp"
#include "webrank/rank_store.hpp"

namespace webrank {
namespace {

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
  if (o.dangling == Dangling::kRemove) {
    j["removal_rounds"] = r.removal_rounds;
    j["removed_pages"] = r.removed_pages;
  }
  j["created"] = static_cast<std::int64_t>(std::time(nullptr));
  return j;
}

}  // namespace

void save_ranks(const Database& db, const std::string& name, const RankResult& r,
                const RankOptions& o) {
  write_rank_vector(db, name, r.ranks, r.precision, describe(o, r, db.num_pages()));
}

}  // namespace webrank
