// The power iteration loop (docs/ranking.md: `power`, `paper`, `extrapolate`, the scaled leak),
// written once for every place it runs: in memory (power_iteration.cpp), out of core with the
// links streamed from disk (out_of_core.cpp), and on several processes, each iterating the pages
// of one part of the web (src/mpi/). What differs between them is handed to it:
//
//  - the local pages: `inv` holds 1/out-strength of each (0 for dangling pages), and the
//    distributions of the Problem (source, dangling, start) are indexed by local page. In one
//    process the local pages are the web; in a distributed run, one part's pages, while the
//    distributions keep their global normalization (a uniform one's value is 1/N of the web).
//  - a Sweep, which sums backlink contributions:
//      template <typename Emit> double operator()(const Real* contrib, Emit&& emit);
//        calls emit(u, Σ over u's backlinks e of w(e)·contrib(source(e))) once for every local
//        page u, from any thread, and returns Σ_u of what emit returned. `contrib` is indexed
//        by local page; a distributed sweep fetches the remote contributions itself.
//      void after_iteration(int it, double previous_delta, double delta);
//      void describe(RankResult&) const;  // records how it summed (summation, blocks)
//  - sum_all(double* values, int count): replaces each value by its sum over the processes in
//    place (nothing to do in one process). Every process calls it the same number of times.
//
// Extrapolation (Method::kExtrapolate) takes dot products over the local pages only: it is for a
// single process (the distributed front end refuses it).
#pragma once

#include <chrono>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "rank/convergence.hpp"
#include "rank/extrapolation.hpp"
#include "rank/kernels.hpp"
#include "rank/solver.hpp"

namespace webrank {

// --dangling leak (R = (1 − d)E + d·M·R: the rank of dangling pages is dropped) is iterated as
// the problem that sends it along E instead, and scaled. Why it is the same answer: the
// conserving fixed point R* = (1 − d)E + d·M·R* + d·(δᵀR*)·E sums to 1, so the factor of E is
// c = (1 − d) + d·δᵀR* (δᵀR* = R*'s dangling mass); R*/c solves y = E + d·M·y, and the leaking
// fixed point is (1 − d)·y = s·R* with s = (1 − d)/c. Why it is faster: the leaking iteration
// converges only as fast as rank drains into dangling pages, the conserving one at the rate of
// the web's second eigenvalue (float to 1e-6 on the Kronecker graph: 53 iterations against 9).
// The change compared with --tol is that of the scaled iterates, bounded by
// s_k·‖R_k − R_{k−1}‖ + |s_k − s_{k−1}|·‖R_{k−1}‖. (With d = 1 there is no such scaling.)
inline double leak_scale(double damping, double dangling_mass) {
  return (1 - damping) / ((1 - damping) + damping * dangling_mass);
}

// Sums in one process: there is nothing to add.
inline void sum_in_one_process(double*, int) {}

// `started`: when the solve began, so that the set-up (inv, the sweep's) counts in its seconds.
template <typename Real, typename Sweep, typename SumAll>
RankResult iterate_power(const Problem& p, const RankOptions& o, const FreshVector<Real>& inv,
                         Sweep& sweep, SumAll&& sum_all,
                         std::chrono::steady_clock::time_point started) {
  auto tracker = ConvergenceTracker::for_precision<Real>(o, started);
  const std::int64_t n = static_cast<std::int64_t>(inv.size());
  const double d = p.damping;
  const bool scaled_leak = p.leak && d < 1;
  const bool leak = p.leak && !scaled_leak;  // the leaking iteration itself
  const Distribution& dangling_to = scaled_leak ? p.source : p.dangling;

  std::vector<Real> rank(n), next(n);  // std::vector: the last rank is moved into the result
  FreshVector<Real> contrib(n);        // written by prepare() before any sweep reads it
  // A scaled leak's start is normalized: the conserving iteration would otherwise first have
  // to drain the excess mass (auto continues from a leaking, hence scaled, vector).
  double start_norm = 1;
  if (scaled_leak) {
    start_norm = 0;
    for (std::int64_t u = 0; u < n; ++u) start_norm += p.start[u];
    sum_all(&start_norm, 1);
  }
  for (std::int64_t u = 0; u < n; ++u) rank[u] = static_cast<Real>(p.start[u] / start_norm);

  // Contributions of `rank`, its dangling mass and its sum: before every sweep, and computed
  // right after the previous one so that a scaled leak knows s_k when it checks convergence.
  // `sums` holds what is added over the processes at once: [0] a change (set by the caller),
  // [1] the dangling mass, [2] the sum.
  double sums[3] = {0, 0, 0};
  auto prepare = [&](double change) {
    const kernels::Masses m = kernels::contributions(rank, inv, contrib.data());
    sums[0] = change;
    sums[1] = m.dangling;
    sums[2] = m.total;
    sum_all(sums, 3);
  };
  prepare(0);
  double dangling = sums[1], norm = sums[2];
  double scale = scaled_leak ? leak_scale(d, dangling) : 1;

  const bool extrapolating = o.method == Method::kExtrapolate;
  double previous_delta = INFINITY;
  std::vector<std::vector<Real>> history(extrapolating ? 4 : 0);  // the iterates before a step
  for (int it = 1; it <= o.max_iter; ++it) {
    double delta = 0;
    if (o.method == Method::kPaper) {
      // R' = d·A·R; the rank lost to teleport and dangling pages, ‖R‖ − ‖R'‖, re-enters along E.
      double new_norm = sweep(contrib.data(), [&](PageId u, double y) {
        next[u] = static_cast<Real>(d * y);
        return static_cast<double>(next[u]);
      });
      sum_all(&new_norm, 1);
      const double lost = norm - new_norm;
#pragma omp parallel for schedule(static) reduction(+ : delta) if (n >= kMinParallelPages)
      for (std::int64_t u = 0; u < n; ++u) {
        next[u] = static_cast<Real>(next[u] + lost * p.source[u]);
        delta += std::abs(static_cast<double>(next[u]) - static_cast<double>(rank[u]));
      }
    } else {
      const double dangling_share = leak ? 0.0 : d * dangling;
      delta = sweep(contrib.data(), [&](PageId u, double y) {
        const double value = (1 - d) * p.source[u] + d * y + dangling_share * dangling_to[u];
        next[u] = static_cast<Real>(value);
        return std::abs(static_cast<double>(next[u]) - static_cast<double>(rank[u]));
      });
    }
    rank.swap(next);
    const double previous_norm = norm;
    prepare(delta);
    delta = sums[0];
    dangling = sums[1];
    norm = sums[2];
    if (scaled_leak) {
      const double previous_scale = scale;
      scale = leak_scale(d, dangling);
      delta = scale * delta + std::abs(scale - previous_scale) * previous_norm;
    }
    if (tracker.record(it, delta)) break;
    sweep.after_iteration(it, previous_delta, delta);
    previous_delta = delta;
    if (extrapolating) {
      const int phase = it % kExtrapolationPeriod;  // keep iterates period-3 .. period
      const int slot = (phase + 3) % kExtrapolationPeriod;
      if (slot < 4) history[slot] = rank;
      if (slot == 3 && it >= 4 && quadratic_extrapolation(history, rank)) {
        prepare(0);
        dangling = sums[1];
        norm = sums[2];
        if (scaled_leak) scale = leak_scale(d, dangling);
      }
    }
  }
  RankResult r = tracker.finish(std::move(rank), d, !p.leak);
  if (scaled_leak) {
    for (double& x : r.ranks) x *= scale;
  }
  // The paper's loop is homogeneous (P(c·R) = c·P(R)): it keeps ‖R‖₁ = 1 only in exact
  // arithmetic, and rounding lets the sum drift (1.7e-12 over a run on 200,000 pages). On a
  // vector of sum 1 its step is the standard one, T(R) = P(R), so divided by its sum the last
  // iterate has the residual ‖T(R) − R‖₁ its change bounds, as --tol promises.
  if (o.method == Method::kPaper && norm > 0) {
    for (double& x : r.ranks) x /= norm;
  }
  sweep.describe(r);
  return r;
}

}  // namespace webrank
