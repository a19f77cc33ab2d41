// Power iteration, pull style: every iteration first turns ranks into per-page contributions
// c(v) = R(v)/S(v) (S = out-degree or out-weight), then each page sums the contributions of its
// backlinks. Reading backlinks in CSR order makes the link stream sequential; only c() is read
// at random. One sweep serves both formulations (§1.1 standard, §1.2 the paper's loop) and both
// precisions; they differ only in what is done with each page's sum.
#include <omp.h>

#include <chrono>
#include <cmath>
#include <limits>

#include "rank/solver.hpp"

namespace webrank {
namespace {

// Sums the backlink contributions of every page u and returns Σ_u emit(u, sum(u)).
template <typename Real, bool Weighted, typename Emit>
double pull_sweep(const GraphView& g, const Real* contrib, Emit&& emit) {
  const std::uint64_t* offsets = g.in.offsets.data();
  const PageId* sources = g.in.ids.data();
  const double* weights = g.in.weights.data();
  double total = 0;
#pragma omp parallel for schedule(dynamic, 2048) reduction(+ : total) if (g.num_pages >= kMinParallelPages)
  for (std::int64_t u = 0; u < static_cast<std::int64_t>(g.num_pages); ++u) {
    Real sum = 0;
    for (std::uint64_t e = offsets[u]; e < offsets[u + 1]; ++e) {
      if constexpr (Weighted) {
        sum += static_cast<Real>(weights[e]) * contrib[sources[e]];
      } else {
        sum += contrib[sources[e]];
      }
    }
    total += emit(static_cast<PageId>(u), sum);
  }
  return total;
}

template <typename Real, bool Weighted>
RankResult iterate(const Problem& p, const RankOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const GraphView& g = *p.graph;
  const std::int64_t n = g.num_pages;
  const double d = p.damping;
  std::vector<double> inv_strength = inverse_out_strength(g);
  std::vector<Real> inv(inv_strength.begin(), inv_strength.end());
  std::vector<double>().swap(inv_strength);

  std::vector<Real> rank(n), next(n), contrib(n);
  for (std::int64_t u = 0; u < n; ++u) rank[u] = static_cast<Real>(p.start[u]);

  RankResult r;
  r.precision = sizeof(Real) == 4 ? Precision::kFloat : Precision::kDouble;
  r.normalized = !p.leak;
  // Rounding puts a floor under the L1 change (about 2e-7 in float); once the change has not
  // improved for kStallIterations at that level, further iterations only repeat a limit cycle.
  constexpr int kStallIterations = 20;
  const double rounding_level = std::sqrt(std::numeric_limits<Real>::epsilon());
  double best = INFINITY;
  int since_best = 0;
  for (int it = 1; it <= o.max_iter; ++it) {
    double dangling = 0, norm = 0;
#pragma omp parallel for schedule(static) reduction(+ : dangling, norm) if (n >= kMinParallelPages)
    for (std::int64_t v = 0; v < n; ++v) {
      contrib[v] = rank[v] * inv[v];
      if (inv[v] == 0) dangling += rank[v];
      norm += rank[v];
    }

    double delta = 0;
    if (o.method == Method::kPaper) {
      // R' = d·A·R; the rank lost to teleport and dangling pages, ‖R‖ − ‖R'‖, re-enters along E.
      const double new_norm = pull_sweep<Real, Weighted>(g, contrib.data(), [&](PageId u, Real y) {
        next[u] = static_cast<Real>(d * y);
        return static_cast<double>(next[u]);
      });
      const double lost = norm - new_norm;
#pragma omp parallel for schedule(static) reduction(+ : delta) if (n >= kMinParallelPages)
      for (std::int64_t u = 0; u < n; ++u) {
        next[u] = static_cast<Real>(next[u] + lost * p.source[u]);
        delta += std::abs(static_cast<double>(next[u]) - static_cast<double>(rank[u]));
      }
    } else {
      const double dangling_share = p.leak ? 0.0 : d * dangling;
      delta = pull_sweep<Real, Weighted>(g, contrib.data(), [&](PageId u, Real y) {
        const double value = (1 - d) * p.source[u] + d * y + dangling_share * p.dangling[u];
        next[u] = static_cast<Real>(value);
        return std::abs(static_cast<double>(next[u]) - static_cast<double>(rank[u]));
      });
    }
    rank.swap(next);
    r.iterations = it;
    r.deltas.push_back(delta);
    r.final_delta = delta;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (o.on_iteration) o.on_iteration({it, delta, elapsed});
    if (delta <= o.tol) {
      r.converged = true;
      break;
    }
    if (delta < best) {
      best = delta;
      since_best = 0;
    } else if (++since_best >= kStallIterations && best < rounding_level) {
      r.stalled = true;
      break;
    }
  }
  r.ranks.assign(rank.begin(), rank.end());
  r.error_bound = d < 1 ? d / (1 - d) * r.final_delta : INFINITY;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace

RankResult power_iteration(const Problem& p, const RankOptions& o) {
  const bool weighted = p.graph->weighted();
  if (o.precision == Precision::kFloat) {
    return weighted ? iterate<float, true>(p, o) : iterate<float, false>(p, o);
  }
  return weighted ? iterate<double, true>(p, o) : iterate<double, false>(p, o);
}

}  // namespace webrank
