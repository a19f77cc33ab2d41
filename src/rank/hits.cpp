// HITS by the power method (webrank/rank/hits.hpp): two pull passes per iteration with the kernels
// of rank/kernels.hpp, authorities along the backlinks, hubs along the forward links.
#include "webrank/rank/hits.hpp"

#include <chrono>
#include <cmath>
#include <ctime>

#include "rank/convergence.hpp"
#include "rank/kernels.hpp"
#include "webrank/rank/rank_json.hpp"
#include "webrank/store/rank_store.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

// next(u) = Σ over u's list in `adj` of w·from(v), then scaled to sum 1; returns ‖next − prev‖₁
// where prev is next's old content. Throws when everything is 0 (no links).
template <bool Weighted>
double step(const Adjacency& adj, PageId n, const std::vector<double>& from,
            std::vector<double>& next) {
  const kernels::Contribution<double, Weighted> term{adj.ids.data(), adj.weights.data(),
                                                     from.data()};
  FreshVector<double> sums(n);
  const double total = kernels::pull_pass(adj, n, term, [&](PageId u, double s) {
    sums[u] = s;
    return s;
  });
  if (!(total > 0)) {
    fail(ErrorKind::kInvalidArgument,
         "HITS needs links with a positive weight: this web has none (no hub, no authority)");
  }
  double change = 0;
#pragma omp parallel for schedule(static) reduction(+ : change) if (n >= kMinParallelPages)
  for (std::int64_t u = 0; u < static_cast<std::int64_t>(n); ++u) {
    const double x = sums[u] / total;
    change += std::abs(x - next[u]);
    next[u] = x;
  }
  return change;
}

template <bool Weighted>
HitsResult power_method(const GraphView& g, const HitsOptions& o) {
  const PageId n = g.num_pages;
  RankOptions tracking;  // the bookkeeping of the PageRank solvers: deltas, progress, stop
  tracking.tol = o.tol;
  tracking.max_iter = o.max_iter;
  tracking.on_iteration = o.on_iteration;
  tracking.stop = o.stop;
  auto tracker = ConvergenceTracker::for_precision<double>(tracking);
  HitsResult r;
  std::vector<double> hubs(n, 1.0 / n), authorities(n, 0.0);
  // The first authority step starts from 0, not from a previous vector: its change is not a
  // change of the iteration, so the first delta counts the hubs' change only.
  step<Weighted>(g.in, n, hubs, authorities);
  double delta = step<Weighted>(g.out, n, authorities, hubs);
  for (int it = 1;; ++it) {
    if (it > 1)
      delta =
          step<Weighted>(g.in, n, hubs, authorities) + step<Weighted>(g.out, n, authorities, hubs);
    if (tracker.record(it, delta) || it >= o.max_iter) break;
  }
  RankResult t = tracker.finish(std::vector<double>{}, 0, true);
  static_cast<Convergence&>(r) = std::move(t);
  r.error_bound = NAN;  // not LAW's: HITS has no damping
  r.authorities = std::move(authorities);
  r.hubs = std::move(hubs);
  return r;
}

}  // namespace

HitsResult compute_hits(const GraphView& g, const HitsOptions& o) {
  if (g.num_pages == 0) fail(ErrorKind::kInvalidArgument, "cannot rank an empty web (no pages)");
  if (!(o.tol > 0) || !std::isfinite(o.tol))
    fail_option("tol", "must be a finite number > 0, got ", o.tol);
  if (o.max_iter < 1) fail_option("max_iter", "must be at least 1, got ", o.max_iter);
  if (o.threads < 0) fail_option("threads", "must be >= 0, got ", o.threads);
  const ThreadCount threads(o.threads);
  return g.weighted() ? power_method<true>(g, o) : power_method<false>(g, o);
}

void save_hits(const Database& db, const std::string& name, const HitsResult& r,
               const HitsOptions& o) {
  check_rank_name(name + ".authority");
  for (const bool authority : {true, false}) {
    VectorRecord v;
    v.algorithm = "hits";
    v.kind = authority ? "authority" : "hub";
    v.method = "hits";
    v.tol = o.tol;
    v.max_iter = o.max_iter;
    static_cast<Convergence&>(v) = r;
    v.normalized = true;
    v.sum = 1.0;
    v.created = static_cast<std::int64_t>(std::time(nullptr));
    write_rank_vector(db, name + (authority ? ".authority" : ".hub"),
                      authority ? r.authorities : r.hubs, Precision::kDouble, std::move(v));
  }
}

}  // namespace webrank
