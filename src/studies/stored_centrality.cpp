// Harmonic centrality stored beside the rank vectors (webrank/algo/centrality.hpp).
#include <ctime>

#include "webrank/store/rank_store.hpp"
#include "webrank/studies/stored_centrality.hpp"
#include "webrank/util/error.hpp"

namespace webrank {

void save_harmonic(const Database& db, const std::string& name, const HarmonicResult& r) {
  check_rank_name(name);
  if (r.values.size() != db.num_pages()) {
    fail(ErrorKind::kInvalidArgument, "harmonic centrality of ", r.values.size(),
         " pages cannot be stored in a database of ", db.num_pages());
  }
  VectorRecord v;
  v.algorithm = "harmonic";
  v.kind = r.exact ? "exact" : "hyperloglog";
  v.method = "hyperball";
  if (!r.exact) v.log2m = r.log2m;
  v.iterations = r.iterations;
  v.converged = true;
  v.normalized = false;
  v.reachable_pairs = r.reachable_pairs;
  v.seconds = r.seconds;
  v.created = static_cast<std::int64_t>(std::time(nullptr));
  write_rank_vector(db, name, r.values, Precision::kDouble, std::move(v));
}

}  // namespace webrank
