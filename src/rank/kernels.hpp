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
// A batch of W vectors computed together (batch.cpp) stores each page's W values side by side (a
// row): the term of a link is then a Row<W>, the W contributions of its source, and link_sum()
// adds rows the way it adds numbers, each vector's sum in the same order as a single vector's.
//
// Sums are accumulated in double whatever the precision of the vectors: float accumulation over
// long backlink lists loses accuracy that a tolerance of 1e-6 notices (docs/performance.md).
// Results are deterministic for a given thread count and lane count; the lane count changes the
// order of the additions, so each solver keeps the one its accuracy tests were written for.
#pragma once

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "util/fresh_memory.hpp"
#include "util/parallel.hpp"
#include "webrank/util/graph.hpp"

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

// W sums carried together, one per vector of a batch, in GCC vector types of up to four doubles:
// written as plain arrays, the same loops were vectorized or not depending on what else the
// compiler inlined around them (slower when not: docs/performance.md). Element j is at(j).
template <typename T, int N>
struct VectorOf;  // GCC's vector of N values of T (attributes cannot name a template's types)
template <>
struct VectorOf<double, 1> {
  typedef double type __attribute__((vector_size(8)));
};
template <>
struct VectorOf<double, 2> {
  typedef double type __attribute__((vector_size(16)));
};
template <>
struct VectorOf<double, 4> {
  typedef double type __attribute__((vector_size(32)));
};
template <>
struct VectorOf<float, 1> {
  typedef float type __attribute__((vector_size(4)));
};
template <>
struct VectorOf<float, 2> {
  typedef float type __attribute__((vector_size(8)));
};
template <>
struct VectorOf<float, 4> {
  typedef float type __attribute__((vector_size(16)));
};

template <int W>
struct Row {
  static_assert(W == 1 || W == 2 || W % 4 == 0);
  static constexpr int kLane = W < 4 ? W : 4;  // doubles per vector
  using Lane = typename VectorOf<double, kLane>::type;
  Lane v[W / kLane];

  [[gnu::always_inline]] double& at(int j) { return reinterpret_cast<double*>(v)[j]; }
  [[gnu::always_inline]] double at(int j) const { return v[j / kLane][j % kLane]; }
  [[gnu::always_inline]] Row& operator+=(const Row& o) {
    for (int i = 0; i < W / kLane; ++i) v[i] += o.v[i];
    return *this;
  }
  [[gnu::always_inline]] friend Row operator+(Row a, const Row& b) { return a += b; }

  // The W values at x, widened to double.
  template <typename Real>
  [[gnu::always_inline]] static Row load(const Real* x) {
    using RealLane = typename VectorOf<Real, kLane>::type;
    Row r;
    for (int i = 0; i < W / kLane; ++i) {
      RealLane c;
      __builtin_memcpy(&c, x + i * kLane, sizeof c);
      r.v[i] = __builtin_convertvector(c, Lane);
    }
    return r;
  }
  // Rounds the values to Real, stores them at x, and returns what was stored (widened).
  template <typename Real>
  [[gnu::always_inline]] Row store(Real* x) const {
    using RealLane = typename VectorOf<Real, kLane>::type;
    Row r;
    for (int i = 0; i < W / kLane; ++i) {
      const RealLane c = __builtin_convertvector(v[i], RealLane);
      __builtin_memcpy(x + i * kLane, &c, sizeof c);
      r.v[i] = __builtin_convertvector(c, Lane);
    }
    return r;
  }
};

// A row of W values is one or more cache lines read at random: a row term asks for the row of
// backlink e + kAhead's source while it reads e's (`links`: the backlink arrays' length, so that
// the look-ahead stays inside them).
template <int W, typename Real>
[[gnu::always_inline]] inline void prefetch_row(const PageId* sources, std::uint64_t links,
                                                std::uint64_t e, const Real* rows) {
  constexpr std::uint64_t kAhead = 16;
  if (e + kAhead >= links) return;
  const Real* ahead = rows + static_cast<std::size_t>(sources[e + kAhead]) * W;
  for (std::size_t b = 0; b < W * sizeof(Real); b += kCacheLine) {
    __builtin_prefetch(reinterpret_cast<const char*>(ahead) + b);
  }
}

// The term of backlink e in a batch of W vectors stored row by row (`rank` holds W values per
// page): the row w(e)·R(source(e), ·)·inv(source(e)). The contributions are formed as the links
// are read, rounded to Real as a single vector's are, instead of being stored: a row of W
// contributions would cost as much to write every iteration as the ranks themselves.
template <int W, typename Real, bool Weighted>
struct RowContribution {
  const PageId* sources;
  const double* weights;
  const Real* rank;
  const Real* inv;
  std::uint64_t links;  // of the backlink arrays: prefetches stay inside them

  [[gnu::always_inline]] Row<W> operator()(std::uint64_t e) const {
    prefetch_row<W>(sources, links, e, rank);
    using Lane = typename Row<W>::Lane;
    constexpr int kLane = Row<W>::kLane;
    using RealLane = typename VectorOf<Real, kLane>::type;
    const PageId v = sources[e];
    const Real* x = rank + static_cast<std::size_t>(v) * W;
    const Real scale = inv[v];
    Row<W> r;
    for (int i = 0; i < W / kLane; ++i) {
      RealLane c;
      __builtin_memcpy(&c, x + i * kLane, sizeof c);
      c *= scale;  // rounded to Real, as a single vector's contribution
      const Lane wide = __builtin_convertvector(c, Lane);
      if constexpr (Weighted) {
        r.v[i] = weights[e] * wide;
      } else {
        r.v[i] = wide;
      }
    }
    return r;
  }
};

// The term of backlink e when W vectors' contributions are stored row by row (`contrib` holds W
// values per page, Gauss–Seidel over a batch): the row w(e)·c(source(e), ·), widened to double.
// Through relaxed atomics the row is read value by value: other threads write it in the sweep.
template <int W, typename Real, bool Weighted, Access A = Access::kPlain>
struct RowOfContributions {
  const PageId* sources;
  const double* weights;
  const Real* contrib;
  std::uint64_t links;  // of the backlink arrays: prefetches stay inside them

  [[gnu::always_inline]] Row<W> operator()(std::uint64_t e) const {
    prefetch_row<W>(sources, links, e, contrib);
    const Real* x = contrib + static_cast<std::size_t>(sources[e]) * W;
    Row<W> r;
    if constexpr (A == Access::kPlain) {
      r = Row<W>::load(x);
    } else {
      for (int j = 0; j < W; ++j) r.at(j) = static_cast<double>(load<A>(x, static_cast<PageId>(j)));
    }
    if constexpr (Weighted) {
      for (int i = 0; i < W / Row<W>::kLane; ++i) r.v[i] *= weights[e];
    }
    return r;
  }
};

// Σ term(e) for e in [begin, end): a double, or a Row<W> for a batch. With Lanes > 1 the terms are
// spread over that many partial sums (e, e+1, ... in turn; the tail into the first), added
// pairwise at the end: on short lists held in cache the chain of dependent additions, not the
// loads, bounds a single sum. The partial sums are named variables, not an array indexed in a
// loop: GCC 12 kept such an array on the stack, and the store-to-load round trip slowed
// Gauss-Seidel by component (measured in docs/performance.md); and it must be inlined into the
// solver's loop, which GCC did not do on its own.
template <int Lanes = 1, typename Term>
[[gnu::always_inline]] inline auto link_sum(std::uint64_t begin, std::uint64_t end,
                                            const Term& term) {
  static_assert(Lanes == 1 || Lanes == 2 || Lanes == 4);
  using Sum = decltype(term(begin));
  Sum s0{}, s1{}, s2{}, s3{};
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
  if constexpr (Lanes == 4) return (s0 + s1) + (s2 + s3);
}

// For every page u in [begin, end), in parallel: emit(u, Σ over u's backlinks of term(e)); returns
// Σ_u emit(...), emit returning a double or any type with += (a batch returns its per-vector
// changes). Dynamic scheduling of chunks of kPullChunk pages: in-degrees vary by orders of
// magnitude between pages. Each chunk is summed in page order and the chunks' sums in chunk order,
// so the total is the same on any number of threads.
inline constexpr PageId kPullChunk = 2048;
template <typename Term, typename Emit>
auto pull_pass(const Adjacency& in, PageId begin, PageId end, const Term& term, Emit&& emit) {
  const std::uint64_t* offsets = in.offsets.data();
  using Total = decltype(emit(PageId{0}, link_sum(0, 0, term)));
  const std::int64_t chunks =
      (static_cast<std::int64_t>(end - begin) + kPullChunk - 1) / kPullChunk;
  std::vector<Total> partial(static_cast<std::size_t>(chunks));
#pragma omp parallel for schedule(dynamic, 1) if (end - begin >= kMinParallelPages)
  for (std::int64_t c = 0; c < chunks; ++c) {
    Total sum{};
    const PageId lo = static_cast<PageId>(begin + c * kPullChunk);
    const PageId hi =
        static_cast<PageId>(std::min<std::int64_t>(end, lo + std::int64_t{kPullChunk}));
    for (PageId u = lo; u < hi; ++u) {
      sum += emit(u, link_sum(offsets[u], offsets[u + 1], term));
    }
    partial[static_cast<std::size_t>(c)] = sum;
  }
  Total total{};
  for (const Total& s : partial) total += s;
  return total;
}
template <typename Term, typename Emit>
auto pull_pass(const Adjacency& in, PageId num_pages, const Term& term, Emit&& emit) {
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
