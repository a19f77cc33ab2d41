// The kernels every solver is built from, so that a new solver (batched, personalized by push,
// distributed, out of core) reuses them instead of copying a loop.
//
// One shape sums a page's backlinks: Σ over its backlinks e of term(e), where a term is usually
// the link's share of what its source passes on, w(e)·c(source(e)) (w = 1 on unweighted webs,
// c = R(v)/S(v) the source's contribution). link_sum() is that loop, with 1, 2 or 4 independent
// partial sums; Contribution is the usual term, reading c plainly or, when other threads write c
// during the same sweep (Gauss–Seidel in place), through relaxed atomics. pull_pass() runs the
// loop for every page in parallel and hands each page's sum to the solver.
//
// Sums are accumulated in double whatever the precision of the vectors: float accumulation over
// long backlink lists loses accuracy that a tolerance of 1e-6 notices (docs/performance.md).
// Results are deterministic for a given thread count and lane count; the lane count changes the
// order of the additions, so each solver keeps the one its accuracy tests were written for.
#pragma once

#include <omp.h>

#include <atomic>
#include <cstdint>
#include <utility>

#include "util/fresh_memory.hpp"
#include "util/parallel.hpp"
#include "webrank/graph.hpp"

namespace webrank::kernels {

// How a term reads a contribution: plainly, or through relaxed atomics because other threads
// write the vector during the sweep. (GCC reloads every pointer around an atomic access: a kernel
// that runs alone should read plainly.)
enum class Access { kPlain, kRelaxedAtomic };

template <Access A, typename Real>
[[gnu::always_inline]] inline Real load(const Real* values, PageId i) {
  if constexpr (A == Access::kRelaxedAtomic) {
    return std::atomic_ref<Real>(const_cast<Real&>(values[i])).load(std::memory_order_relaxed);
  } else {
    return values[i];
  }
}

template <Access A, typename Real>
[[gnu::always_inline]] inline void store(Real* values, PageId i, Real value) {
  if constexpr (A == Access::kRelaxedAtomic) {
    std::atomic_ref<Real>(values[i]).store(value, std::memory_order_relaxed);
  } else {
    values[i] = value;
  }
}

// The term of backlink e: w(e)·c(source(e)), or c(source(e)) on an unweighted web. `sources` and
// `weights` are the backlink arrays (weights unused when !Weighted); `contrib` is indexed by the
// sources' ids.
template <typename Real, bool Weighted, Access A = Access::kPlain>
struct Contribution {
  const PageId* sources;
  const double* weights;
  const Real* contrib;

  [[gnu::always_inline]] double operator()(std::uint64_t e) const {
    const Real c = load<A>(contrib, sources[e]);
    if constexpr (Weighted) {
      return weights[e] * c;
    } else {
      return static_cast<double>(c);
    }
  }
};

// Σ term(e) for e in [begin, end). With Lanes > 1 the terms are spread over that many partial
// sums (e, e+1, ... in turn; the tail into the first), added pairwise at the end: on short lists
// held in cache the chain of dependent additions, not the loads, bounds a single sum. The partial
// sums are named variables, not an array indexed in a loop: GCC 12 kept such an array on the
// stack, and the store-to-load round trip made Gauss-Seidel by component 40% slower on cnr-2000;
// and it must be inlined into the solver's loop, which GCC did not do on its own.
template <int Lanes = 1, typename Term>
[[gnu::always_inline]] inline double link_sum(std::uint64_t begin, std::uint64_t end,
                                              const Term& term) {
  static_assert(Lanes == 1 || Lanes == 2 || Lanes == 4);
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  std::uint64_t e = begin;
  if constexpr (Lanes == 2) {
    for (; e + 2 <= end; e += 2) {
      s0 += term(e);
      s1 += term(e + 1);
    }
  } else if constexpr (Lanes == 4) {
    for (; e + 4 <= end; e += 4) {
      s0 += term(e);
      s1 += term(e + 1);
      s2 += term(e + 2);
      s3 += term(e + 3);
    }
  }
  for (; e < end; ++e) s0 += term(e);
  if constexpr (Lanes == 1) return s0;
  if constexpr (Lanes == 2) return s0 + s1;
  return (s0 + s1) + (s2 + s3);
}

// For every page u in [begin, end), in parallel: emit(u, Σ over u's backlinks of term(e));
// returns Σ_u emit(...). Dynamic scheduling: in-degrees vary by orders of magnitude between pages.
template <typename Term, typename Emit>
double pull_pass(const Adjacency& in, PageId begin, PageId end, const Term& term, Emit&& emit) {
  const std::uint64_t* offsets = in.offsets.data();
  double total = 0;
#pragma omp parallel for schedule(dynamic, 2048) reduction(+ : total) if (end - begin >= kMinParallelPages)
  for (std::int64_t u = begin; u < static_cast<std::int64_t>(end); ++u) {
    total += emit(static_cast<PageId>(u), link_sum(offsets[u], offsets[u + 1], term));
  }
  return total;
}
template <typename Term, typename Emit>
double pull_pass(const Adjacency& in, PageId num_pages, const Term& term, Emit&& emit) {
  return pull_pass(in, 0, num_pages, term, std::forward<Emit>(emit));
}

// 1/(out-degree) or 1/(out-weight) of every page; 0 for dangling pages. Real = float rounds the
// double quotient. Every element is written by the threads of one parallel loop, into fresh
// memory, so they share its page faults (util/fresh_memory.hpp).
// inverse_strength() is the value for one page of out-strength s (out-degree or out-weight), for
// solvers that get s from elsewhere (a part of a distributed web); fill_inverse_out_strength()
// fills the pages in [begin, end) only (an out-of-core pass that releases each range of the
// forward links once read).
// out_strength() is page v's out-degree, or out-weight on a weighted web.
inline double out_strength(const GraphView& g, PageId v) {
  if (!g.weighted()) return static_cast<double>(g.out.degree(v));
  double s = 0;
  for (double w : g.out.neighbor_weights(v)) s += w;
  return s;
}
template <typename Real>
Real inverse_strength(double s) {
  return static_cast<Real>(s > 0 ? 1.0 / s : 0.0);
}
template <typename Real>
void fill_inverse_out_strength(const GraphView& g, PageId begin, PageId end, Real* inv) {
#pragma omp parallel for schedule(static) if (end - begin >= kMinParallelPages)
  for (std::int64_t v = begin; v < static_cast<std::int64_t>(end); ++v) {
    inv[v] = inverse_strength<Real>(out_strength(g, static_cast<PageId>(v)));
  }
}
template <typename Real = double>
FreshVector<Real> inverse_out_strength(const GraphView& g) {
  FreshVector<Real> inv(g.num_pages);
  fill_inverse_out_strength(g, 0, g.num_pages, inv.data());
  return inv;
}

// What a power iteration needs of a rank vector before a sweep: each page's contribution
// c = R·inv, the rank held by dangling pages (inv = 0) and the vector's sum, in one pass.
struct Masses {
  double dangling = 0, total = 0;
};
template <typename Real, typename Ranks>
Masses contributions(const Ranks& rank, const FreshVector<Real>& inv, Real* contrib) {
  const std::int64_t n = static_cast<std::int64_t>(inv.size());
  double dangling = 0, total = 0;
#pragma omp parallel for schedule(static) reduction(+ : dangling, total) if (n >= kMinParallelPages)
  for (std::int64_t v = 0; v < n; ++v) {
    contrib[v] = rank[v] * inv[v];
    if (inv[v] == 0) dangling += rank[v];
    total += rank[v];
  }
  return {dangling, total};
}

}  // namespace webrank::kernels
