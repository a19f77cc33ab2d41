// Harmonic centrality stored beside the rank vectors (webrank/algo/centrality.hpp).
#include <ctime>

#include "store/rank_vectors.hpp"
#include "webrank/studies/stored_centrality.hpp"
#include "webrank/util/error.hpp"

namespace webrank {

void save_harmonic(const Database& db, const std::string& name, const HarmonicResult& r) {
  check_rank_name(name);
  if (r.values.size() != db.num_pages()) {
    fail(ErrorKind::kInvalidArgument, "harmonic centrality of ", r.values.size(),
         " pages cannot be stored in a database of ", db.num_pages());
  }
  nlohmann::json j;
  j["algorithm"] = "harmonic";
  j["kind"] = r.exact ? "exact" : "hyperloglog";
  j["method"] = "hyperball";
  if (!r.exact) j["log2m"] = r.log2m;
  j["precision"] = "double";
  j["pages"] = db.num_pages();
  j["iterations"] = r.iterations;
  j["converged"] = true;
  j["reachable_pairs"] = r.reachable_pairs;
  j["seconds"] = r.seconds;
  j["created"] = static_cast<std::int64_t>(std::time(nullptr));
  write_rank_vector(db, name, r.values, Precision::kDouble, std::move(j));
}

}  // namespace webrank
