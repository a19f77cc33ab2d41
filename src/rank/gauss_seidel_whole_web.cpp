// Gauss–Seidel over the whole web at once: the fallback for the problems
// gauss_seidel_by_component.cpp cannot split (dangling rank sent along weights other than E, or
// d = 1).
//
// Gauss–Seidel sweeps of the standard formulation (docs/ranking.md): each page's new rank is
// computed from the newest ranks of its backlinks, so information crosses the web within one sweep
// and about half as many sweeps reach the same L1 change as Jacobi power iteration. The linear
// system
//     R = (1 − d)·E + d·M·R + d·(δᵀR)·D
// has one solution, which sums to 1, so the sweeps converge to the power method's vector. The
// dangling term δᵀR is taken from the start of each sweep (Jacobi in that rank-one term only).
// Unlike power iteration, plain sweeps do not conserve ΣR, and an error in the total mass only
// decays as d per sweep (measured: the asymptotic rate becomes exactly d); so each sweep is
// rescaled to the mass the solution has (1), which removes that mode. Not done for `leak`.
// Self-links are the diagonal of the system and are solved for, not read: R(u) is set to
// (everything else)/(1 − d·w(u,u)/W(u)); reading the page's own old value instead would leave a
// mode that decays only as d (a page whose only link is to itself).
//
// With several threads each thread sweeps a contiguous range of pages in place; a thread may
// read a neighbour range's value from this sweep or the last (asynchronous relaxation, which
// converges for PageRank: Kollias, Gallopoulos & Szyld 2006). Values are exchanged through
// relaxed atomics, so the result is deterministic with one thread and agrees to the tolerance
// with more.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <utility>

#include "rank/convergence.hpp"
#include "rank/kernels.hpp"
#include "rank/solver.hpp"

namespace webrank {
namespace {

template <typename Real, bool Weighted>
RankResult sweep(const Problem& p, const RankOptions& o) {
  auto tracker = ConvergenceTracker::for_precision<Real>(o);  // times the whole solve
  const GraphView& g = *p.graph;
  const std::int64_t n = g.num_pages;
  const double d = p.damping;
  const FreshVector<double> inv_strength = kernels::inverse_out_strength(g);
  std::vector<double> diagonal(n, 1.0);  // 1 − d·(share of u's out-weight on its self-link)
  for (std::int64_t u = 0; u < n; ++u) {
    const auto targets = g.out.neighbors(static_cast<PageId>(u));
    const auto it = std::lower_bound(targets.begin(), targets.end(), static_cast<PageId>(u));
    if (it != targets.end() && *it == u) {
      const double w = Weighted ? g.out.weights[g.out.offsets[u] + (it - targets.begin())] : 1.0;
      diagonal[u] = 1 - d * w * inv_strength[u];
    }
  }
  std::vector<Real> rank(n), contrib(n), previous(n);
  for (std::int64_t u = 0; u < n; ++u) {
    rank[u] = static_cast<Real>(p.start[u]);
    contrib[u] = static_cast<Real>(rank[u] * inv_strength[u]);
  }
  const std::uint64_t* offsets = g.in.offsets.data();
  const PageId* sources = g.in.ids.data();
  const kernels::Contribution<Real, Weighted, kernels::Access::kRelaxedAtomic> incoming{
      sources, g.in.weights.data(), contrib.data()};

  for (int it = 1; it <= o.max_iter; ++it) {
    double dangling = 0;
#pragma omp parallel for schedule(static) reduction(+ : dangling) if (n >= kMinParallelPages)
    for (std::int64_t v = 0; v < n; ++v) {
      if (inv_strength[v] == 0) dangling += rank[v];
    }
    const double dangling_share = p.leak ? 0.0 : d * dangling;
    std::copy(rank.begin(), rank.end(), previous.begin());
    double mass = 0;
#pragma omp parallel for schedule(static) reduction(+ : mass) if (n >= kMinParallelPages)
    for (std::int64_t u = 0; u < n; ++u) {
      // The diagonal (a self-link) is solved for below, not read: its term is 0.
      const double sum = kernels::link_sum(offsets[u], offsets[u + 1], [&](std::uint64_t e) {
        return sources[e] == u ? 0.0 : incoming(e);
      });
      const Real value = static_cast<Real>(
          ((1 - d) * p.source[u] + d * sum + dangling_share * p.dangling[u]) / diagonal[u]);
      mass += value;
      rank[u] = value;
      kernels::store<kernels::Access::kRelaxedAtomic>(contrib.data(), static_cast<PageId>(u),
                                                      static_cast<Real>(value * inv_strength[u]));
    }
    const double scale = p.leak || !(mass > 0) ? 1.0 : 1.0 / mass;
    double delta = 0;
#pragma omp parallel for schedule(static) reduction(+ : delta) if (n >= kMinParallelPages)
    for (std::int64_t u = 0; u < n; ++u) {
      rank[u] = static_cast<Real>(rank[u] * scale);
      contrib[u] = static_cast<Real>(rank[u] * inv_strength[u]);
      delta += std::abs(static_cast<double>(rank[u]) - static_cast<double>(previous[u]));
    }
    if (tracker.record(it, delta)) break;
  }
  // A Gauss–Seidel change bounds the error like a Jacobi one only loosely; LAW's bound is
  // reported as for power iteration (the tests check the distance empirically).
  return tracker.finish(std::move(rank), d, !p.leak);
}

}  // namespace

RankResult gauss_seidel_whole_web(const Problem& p, const RankOptions& o) {
  return with_solver_types(o.precision, p.graph->weighted(), [&](auto real, auto weighted) {
    return sweep<decltype(real), decltype(weighted)::value>(p, o);
  });
}

}  // namespace webrank
