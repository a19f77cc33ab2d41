// Gauss–Seidel one strongly connected component at a time, in topological order (PRPACK's
// `sccgs` method; igraph calls PRPACK's `sgs`, one Gauss–Seidel over all pages with out-links;
// Langville & Meyer 2006 for the dangling part).
//
// When dangling rank goes along E (D = E) the system R = (1 − d)E + d·M·R + d·(δᵀR)·E has the
// form R = c·E + d·M·R for a scalar c, so R is proportional to the solution y of
//     y = E + d·M·y,    R = y / ‖y‖₁   (and R = (1 − d)·y when dangling rank leaks).
// Dangling pages need no special treatment in y: they simply pass nothing on. And y's system is
// block-triangular: a page's value depends only on its own component and earlier ones. So each
// component is solved once, with final inputs: a page alone in its component (most pages of a
// web: everything outside the large cycles) in one exact step, a larger component by sweeps
// until its change is below its share of --tol. Work drops from (iterations × links) to about
// (iterations × links inside the large components + the other links once).
//
// Shares: component C stops at an L1 change (in y) of tol·(|C|/n + (1 − d)·mass(C))/(2·ρ),
// where ρ bounds R's change per unit of y's: 1 − d when dangling rank leaks (R = (1 − d)·y), 1
// otherwise (R = y/‖y‖₁ and ‖y‖₁ ≥ ‖E‖₁ = 1). The shares add up to at most tol in R, as
// (1 − d)·‖y‖₁ ≤ 1. deltas[k] reports the k-th sweep's change summed over the components still
// sweeping, in R's units; final_delta the last change of every component summed (what --tol
// bounds); iterations is the sweep count of the slowest component. The deltas reach on_iteration
// when the solve is done; on_progress says when the component search starts, then reports pages
// solved and the sweeps of large components while it runs.
//
// A batch of vectors that differ only in E (gauss_seidel_by_component_batch, for
// webrank/rank/batch.hpp) shares the components and the links: each page holds a row of W values,
// one per vector, and a component's sweep reads a backlink's row once for all of them. Each
// vector stops sweeping a component (its values frozen) at its own share, so it goes through
// the sweeps and extrapolations of its separate run.
//
// Threads: a large component is swept by all threads; smaller ones are solved side by side,
// one per thread, a level of the component graph at a time (components of one level never link
// to each other; crawls have about 20 levels, most of their cycles in the first three).
#include <omp.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <limits>
#include <span>
#include <type_traits>
#include <utility>

#include "algo/strong_components.hpp"
#include "rank/convergence.hpp"
#include "rank/extrapolation.hpp"
#include "rank/kernels.hpp"
#include "rank/solver.hpp"
#include "util/fresh_memory.hpp"

namespace webrank {
namespace {

// on_progress after this many single pages, and after every sweep of a component this large.
constexpr std::uint64_t kReportEveryPages = 1 << 14;
// Components of a level are solved side by side when they hold this many pages in all: below,
// an OpenMP region costs more than it saves.
constexpr std::uint64_t kMinSidePages = 1 << 11;

// Pieces of a loop over a component's pages [0, k), each about the same work, for the threads
// to take in order as they come free (dynamic): in-degrees are skewed (on R-MAT webs the pages
// with most backlinks have the lowest ids, and an equal split of the pages left one thread with
// most of the links), and an in-place sweep whose pieces run in id order, a few at a time, reads
// nearly as many of this sweep's values as a sweep on one thread, where halves swept side by side
// read the other half's values from the sweep before. Empty when the loop is not worth splitting:
// below kMinParallelPages pages and kMinParallelLinks links, or on one thread (small components,
// most of them, then cost no OpenMP region, which costs about a microsecond even with if(false)).
struct Chunks {
  std::vector<std::int64_t> begin;  // piece p is [begin[p], begin[p + 1])
  bool split() const { return !begin.empty(); }
};
// Each piece holds about 1/kChunksPerThread of a thread's share, and at most kChunkWork
// (pages + links: a few tens of microseconds), so that a thread slowed by another process does
// not hold up the others.
constexpr std::int64_t kChunksPerThread = 16;
constexpr std::int64_t kChunkWork = 1 << 16;
// work(i): the links of page i (its cost beyond a page's own).
template <typename Work>
Chunks chunks_by_work(std::int64_t k, Work&& work) {
  Chunks c;
  const std::int64_t threads = omp_get_max_threads();
  if (threads == 1 || k < 2 || omp_in_parallel()) return c;
  std::int64_t total = k;
  for (std::int64_t i = 0; i < k; ++i) total += static_cast<std::int64_t>(work(i));
  if (k < kMinParallelPages && total - k < kMinParallelLinks) return c;
  const std::int64_t target =
      std::max<std::int64_t>(1024, std::min(kChunkWork, total / (threads * kChunksPerThread)));
  std::int64_t filled = 0;
  c.begin.push_back(0);
  for (std::int64_t i = 0; i < k; ++i) {
    filled += 1 + static_cast<std::int64_t>(work(i));
    if (filled >= target && i + 1 < k) {
      c.begin.push_back(i + 1);
      filled = 0;
    }
  }
  c.begin.push_back(k);
  return c;
}
// Pages alike: pieces of kChunkPages.
constexpr std::int64_t kChunkPages = 1024;
inline Chunks chunks_by_pages(std::int64_t k) {
  Chunks c;
  if (omp_get_max_threads() == 1 || k < kMinParallelPages || omp_in_parallel()) return c;
  for (std::int64_t i = 0; i < k; i += kChunkPages) c.begin.push_back(i);
  c.begin.push_back(k);
  return c;
}

// Runs f(begin, end, concurrent) -> Totals over [0, k): at once when `chunks` is not split, else
// piece by piece on all threads, the pieces' totals added in piece order (the same on any
// schedule). f's third argument says whether other threads run at the same time
// (std::bool_constant).
template <typename Totals, typename F>
Totals over_chunks(std::int64_t k, const Chunks& chunks, F&& f) {
  if (!chunks.split()) return f(std::int64_t(0), k, std::false_type{});
  const auto pieces = static_cast<std::int64_t>(chunks.begin.size()) - 1;
  std::vector<Totals> part(static_cast<std::size_t>(pieces));
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t p = 0; p < pieces; ++p) {
    part[p] = f(chunks.begin[p], chunks.begin[p + 1], std::true_type{});
  }
  Totals total{};
  for (const Totals& x : part) total += x;
  return total;
}
// Over pages whose work is about the same each.
template <typename Totals, typename F>
Totals over_pages(std::int64_t k, F&& f) {
  return over_chunks<Totals>(k, chunks_by_pages(k), std::forward<F>(f));
}

// Per-vector sums of a solve over W vectors at once (W = 1: one vector).
template <int W>
struct Cols {
  double v[W] = {};
  double& operator[](int j) { return v[j]; }
  double operator[](int j) const { return v[j]; }
  Cols& operator+=(const Cols& o) {
    for (int j = 0; j < W; ++j) v[j] += o.v[j];
    return *this;
  }
};

template <int W>
struct SweepTotals {
  Cols<W> change, d00, d01, d02, d11, d12, d22;
  SweepTotals& operator+=(const SweepTotals& o) {
    change += o.change;
    d00 += o.d00;
    d01 += o.d01;
    d02 += o.d02;
    d11 += o.d11;
    d12 += o.d12;
    d22 += o.d22;
    return *this;
  }
};

struct Sum {
  double value = 0;
  Sum& operator+=(const Sum& o) {
    value += o.value;
    return *this;
  }
};

// Vector j's value in a backlink sum: the sum itself for one vector, its lane for a row.
[[gnu::always_inline]] inline double lane(double sum, int) {
  return sum;
}
template <int W>
[[gnu::always_inline]] inline double lane(const kernels::Row<W>& sum, int j) {
  return sum.at(j);
}

// One component's system in local numbering, solved for the self-links: x = a + b·Σ_links w·c,
// where c = x·inv is what the component's pages pass to each other. W vectors share the links:
// each page holds a row of W values of a, x, c (value j of page i at i·W + j), and each vector
// stops sweeping (its values frozen) when its own change is small enough, so that it goes through
// exactly the sweeps, and extrapolations, of its separate solve.
template <typename Real, bool Weighted, int W>
struct LocalSystem {
  // Fresh vectors: set_up_cycle writes every element in loops split among the threads, which
  // then share the page faults of a large component's first set-up.
  FreshVector<double> a, b;  // a: k·W, b: k
  // Page i's internal backlinks are sources[begin[i], end[i]): the set-up writes them where the
  // page's backlinks would start if all were internal (begin[i + 1] − begin[i] of them), so that
  // one pass places them; the rest of that room is left unused.
  FreshVector<std::uint64_t> begin, end;
  FreshVector<PageId> sources;     // local numbers of in-component backlinks
  FreshVector<double> weights;     // Weighted only
  FreshRows<Real> x, c, previous;  // k·W
  FreshVector<Real> inv;           // k
  // Σ keep·x = target at the solution (keep = 1 − d·share of the page's out-weight that stays in
  // the component, target = Σ of what enters from outside): each sweep is rescaled to it, which
  // removes the mode in which the component's total rank is off (it decays only slowly).
  FreshVector<double> keep;
  Cols<W> target;
  // The last two sweeps' changes per value (Δ1, Δ2; the sweep's own is Δ0), the dot products of
  // Δ0..Δ2 from the last sweep, and how many of Δ1, Δ2 are real (0 after an extrapolation).
  FreshVector<double> step1, step2;  // k·W
  ChangeProducts products[W] = {};
  int history[W] = {};
  bool active[W] = {};  // vectors still sweeping
  Chunks link_chunks;   // of a sweep, balanced by internal links (set up with the links)

  bool any_active() const { return std::find(active, active + W, true) != active + W; }

  // Σ w·c over page i's backlinks, with four partial sums (components are small enough to stay
  // in cache, where the chain of dependent additions bounds a single sum); a row's lanes in the
  // same order as one vector's, so that a batch's vector is its separate run's to the last bit.
  // With other threads sweeping, c is read through relaxed atomics; alone, plainly.
  template <bool Concurrent>
  auto backlink_sum(std::int64_t i, const Real* cv) const {
    constexpr auto kAccess = Concurrent ? kernels::Access::kRelaxedAtomic : kernels::Access::kPlain;
    if constexpr (W == 1) {
      const kernels::Contribution<Real, Weighted, kAccess> term{sources.data(), weights.data(), cv};
      return kernels::link_sum<4>(begin[i], end[i], term);
    } else {
      const kernels::RowOfContributions<W, Real, Weighted, kAccess> term{
          sources.data(), weights.data(), cv, sources.size()};
      return kernels::link_sum<4>(begin[i], end[i], term);
    }
  }

  // One in-place sweep of the vectors still active; returns each vector's L1 change (0 for the
  // others). Several threads sweep asynchronously (each reads the others' newest values through
  // relaxed atomics), as the global Gauss–Seidel does.
  Cols<W> sweep() {
    const std::int64_t k = static_cast<std::int64_t>(inv.size());
    const Cols<W> kept = over_chunks<Cols<W>>(
        k, link_chunks, [&](std::int64_t first, std::int64_t last, auto concurrent) {
          const double *pa = a.data(), *pb = b.data(), *pkeep = keep.data();
          const Real* pinv = inv.data();
          Real *px = x.data(), *pc = c.data(), *pprevious = previous.data();
          constexpr auto kAccess =
              concurrent.value ? kernels::Access::kRelaxedAtomic : kernels::Access::kPlain;
          Cols<W> t;
          for (std::int64_t i = first; i < last; ++i) {
            const auto sum = backlink_sum<concurrent.value>(i, pc);
            const std::size_t row = static_cast<std::size_t>(i) * W;
            for (int j = 0; j < W; ++j) {
              if (!active[j]) continue;
              pprevious[row + j] = px[row + j];
              const Real value = static_cast<Real>(pa[row + j] + pb[i] * lane(sum, j));
              t[j] += pkeep[i] * value;
              px[row + j] = value;
              kernels::store<kAccess>(pc + row, static_cast<PageId>(j),
                                      static_cast<Real>(value * pinv[i]));
            }
          }
          return t;
        });
    Cols<W> scale;
    for (int j = 0; j < W; ++j) scale[j] = active[j] && kept[j] > 0 ? target[j] / kept[j] : 1.0;
    const SweepTotals<W> t =
        over_pages<SweepTotals<W>>(k, [&](std::int64_t first, std::int64_t last, auto) {
          SweepTotals<W> t;
          for (std::int64_t i = first; i < last; ++i) {
            const std::size_t row = static_cast<std::size_t>(i) * W;
            for (int j = 0; j < W; ++j) {
              if (!active[j]) continue;
              const std::size_t at = row + j;
              x[at] = static_cast<Real>(x[at] * scale[j]);
              c[at] = static_cast<Real>(x[at] * inv[i]);
              const double delta = static_cast<double>(x[at]) - static_cast<double>(previous[at]);
              const double s1 = step1[at], s2 = step2[at];
              t.change[j] += std::abs(delta);
              t.d00[j] += delta * delta;
              t.d01[j] += delta * s1;
              t.d02[j] += delta * s2;
              t.d11[j] += s1 * s1;
              t.d12[j] += s1 * s2;
              t.d22[j] += s2 * s2;
              step2[at] = s1;
              step1[at] = delta;
            }
          }
          return t;
        });
    for (int j = 0; j < W; ++j) {
      if (!active[j]) continue;
      products[j] = {t.d00[j], t.d01[j], t.d02[j], t.d11[j], t.d12[j], t.d22[j]};
      history[j] = std::min(history[j] + 1, 3);
    }
    return t.change;
  }

  // Jumps each active vector towards its limit by the minimal polynomial of its last changes
  // (extrapolation.hpp), when it fits them.
  void extrapolate() {
    MpeStep step[W] = {};
    bool jump[W] = {};
    for (int j = 0; j < W; ++j) {
      if (!active[j] || history[j] < 3) continue;
      const std::optional<MpeStep> s = mpe_step(products[j]);
      if (!s) continue;
      step[j] = *s;
      jump[j] = true;
      history[j] = 0;
    }
    if (std::find(jump, jump + W, true) == jump + W) return;
    over_pages<Sum>(
        static_cast<std::int64_t>(inv.size()), [&](std::int64_t first, std::int64_t last, auto) {
          for (std::int64_t i = first; i < last; ++i) {
            const std::size_t row = static_cast<std::size_t>(i) * W;
            for (int j = 0; j < W; ++j) {
              if (!jump[j]) continue;
              const std::size_t at = row + j;
              x[at] = static_cast<Real>(x[at] - step[j].f0 * step1[at] - step[j].f1 * step2[at]);
              c[at] = static_cast<Real>(x[at] * inv[i]);
            }
          }
          return Sum{};
        });
  }
};

// What one thread needs to solve components on its own: a local system to set up, and its
// share of the solve's bookkeeping (added up when the solve is done), per vector.
template <typename Real, bool Weighted, int W>
struct Worker {
  LocalSystem<Real, Weighted, W> s;
  std::vector<Cols<W>> deltas{Cols<W>{}};  // y units, per sweep index
  int last_sweep[W] = {};                  // the last sweep index each vector went through
  Cols<W> final_changes;                   // y units: the last change of every cycle
  bool unconverged[W] = {}, some_stalled[W] = {};
};

// The whole solve: components by level, each set to its final values before the next level.
// W vectors at once (one row of W values per page, `rows` giving their sources) or, with W = 1
// and no rows, the problem's own vector.
template <typename Real, bool Weighted, int W>
class ComponentSolver {
 public:
  ComponentSolver(const Problem& p, const RankOptions& o, const SourceRows* rows = nullptr)
      : p_(p),
        o_(o),
        g_(*p.graph),
        n_(g_.num_pages),
        d_(p.damping),
        r_per_y_(p.leak ? 1 - p.damping : 1.0),
        rows_(rows),
        vectors_(rows ? static_cast<int>(rows->size()) : 1) {
    for (int j = 0; j < W; ++j) {
      trackers_.push_back(ConvergenceTracker::for_precision<Real>(o));  // times the whole solve
    }
    const auto allocate = [&] {
      inv_ = kernels::inverse_out_strength(g_);
      if constexpr (W == 1) {
        y_.resize(n_);
        contrib_.resize(n_);
      } else {
        // Rows of a batch: W times the memory, faulted in by all threads, in huge pages.
        resize_huge(y_, std::size_t(n_) * W);
        resize_huge(contrib_, std::size_t(n_) * W);
      }
      local_.assign(n_, kOutside);
    };
    if (p.components) {
      comps_ = *p.components;  // found by auto: no search
      allocate();
      lap("allocation");
    } else {
      if (o_.on_progress) {
        o_.on_progress({.pages = n_, .seconds = elapsed(), .searching = true});
      }
      if (searches_from_pivot(g_)) {
        // The pivot's breadth-first searches take every thread.
        allocate();
        searched_ = strong_components(g_, PivotSearch::kAlways);
      } else {
        // The component search is one thread's work; another meanwhile allocates and fills the
        // arrays that do not depend on it (first touches of fresh memory are slow in this VM: on
        // web-NotreDame they took a third as long as the search).
        concurrently([&] { searched_ = strong_components(g_, PivotSearch::kNever); }, allocate);
      }
      comps_ = searched_.view();
      lap("components");
    }
    workers_.resize(omp_get_max_threads());
  }

  // One result per vector (the first `rows->size()`, or the problem's one).
  std::vector<RankResult> solve() {
    // The search puts pages without backlinks first and pages without links last, each alone in
    // its component: within either run no page depends on another, so all threads solve them
    // (58% of web-NotreDame's pages are dangling).
    const auto alone = [&](std::size_t c, std::span<const std::uint64_t> offsets) {
      const PageId u = comps_.pages[comps_.begin[c]];
      return comps_.size(c) == 1 && offsets[u] == offsets[u + 1];
    };
    std::size_t lead = 0, tail = comps_.count();
    while (lead < tail && alone(lead, g_.in.offsets)) ++lead;
    while (tail > lead && alone(tail - 1, g_.out.offsets)) --tail;
    solve_singles(0, lead);
    lap("single pages");
    // The rest by level, in order within a level (stable counting sort).
    std::vector<std::uint32_t> by_level;
    std::vector<std::size_t> level_begin;
    group_by_level(lead, tail, by_level, level_begin);
    for (std::size_t l = 0; l + 1 < level_begin.size(); ++l) {
      const std::uint32_t* first = by_level.data() + level_begin[l];
      const std::uint32_t* last = by_level.data() + level_begin[l + 1];
      if (comps_.level[*first] == ComponentOrder::kInOrder) {
        for (const std::uint32_t* c = first; c != last; ++c) solve_component(workers_[0], *c);
        lap("small components");
      } else {
        solve_level(first, last);
      }
      for (const std::uint32_t* c = first; c != last; ++c) solved_ += comps_.size(*c);
      if (solved_ - reported_ >= kReportEveryPages) report(1, 0, 0);
      throw_if_stopped(o_);
    }
    solve_singles(tail, comps_.count());
    lap("single pages");
    if (reported_ != n_ || n_ == 0) report(1, 0, 0);  // the last pages may have been reported
    std::vector<RankResult> r = results();
    lap("result");
    for (RankResult& one : r) one.phases = phases_;
    return r;
  }

 private:
  // A page's number inside the component being set up, kOutside for every other page: one
  // random read tells whether a backlink is internal and where it goes.
  static constexpr PageId kOutside = std::numeric_limits<PageId>::max();

  double weight(std::uint64_t e) const { return Weighted ? g_.in.weights[e] : 1.0; }
  double start(PageId u) const { return p_.start[u] / (1 - d_); }  // = R/(1 − d) when leaking
  double elapsed() const { return trackers_[0].elapsed(); }
  // E of every vector at page u.
  void source(PageId u, double* e) const {
    if (rows_) {
      rows_->at(u, e);
      for (int j = vectors_; j < W; ++j) e[j] = 0;  // the row's unused places
    } else {
      e[0] = p_.source[u];
    }
  }

  // Page u's backlinks by where they come from: u itself (the self-link's weight) and solved
  // pages (what they send, summed per vector). For a page alone in its component that is all.
  struct Received {
    double self = 0;
    Cols<W> outside;
  };
  Received received(PageId u) const {
    Received r;
    for (std::uint64_t e = g_.in.offsets[u]; e < g_.in.offsets[u + 1]; ++e) {
      const PageId v = g_.in.ids[e];
      if (v == u) {
        r.self += weight(e);
      } else {
        for (int j = 0; j < W; ++j) r.outside[j] += weight(e) * contrib_[std::size_t(v) * W + j];
      }
    }
    return r;
  }
  // 1 − d·(share of u's out-weight on its self-link): the self-link is solved for.
  double diagonal(PageId u, double self) const { return 1 - d_ * self * inv_[u]; }

  // Components [lead, tail) grouped by level, in order within each: by_level[level_begin[l] ..
  // level_begin[l + 1]) are the l-th nonempty level's (kInOrder last).
  void group_by_level(std::size_t lead, std::size_t tail, std::vector<std::uint32_t>& by_level,
                      std::vector<std::size_t>& level_begin) const {
    std::uint32_t top = 0;  // the key of kInOrder: one above the deepest level
    for (std::size_t c = lead; c < tail; ++c) {
      if (comps_.level[c] != ComponentOrder::kInOrder) top = std::max(top, comps_.level[c] + 1);
    }
    const auto key = [&](std::size_t c) { return std::min(comps_.level[c], top); };
    std::vector<std::size_t> count(std::size_t{top} + 2, 0);
    for (std::size_t c = lead; c < tail; ++c) ++count[key(c) + 1];
    for (std::size_t l = 0; l + 1 < count.size(); ++l) count[l + 1] += count[l];
    level_begin.push_back(0);
    for (std::size_t l = 1; l < count.size(); ++l) {
      if (count[l] > level_begin.back()) level_begin.push_back(count[l]);
    }
    by_level.resize(tail - lead);
    for (std::size_t c = lead; c < tail; ++c)
      by_level[count[key(c)]++] = static_cast<std::uint32_t>(c);
  }

  // The components of one level: large ones one at a time with all threads, the others side by
  // side, one per thread (dynamic chunks: their sizes vary from 1 page to thousands).
  void solve_level(const std::uint32_t* first, const std::uint32_t* last) {
    std::vector<std::uint32_t> small;
    std::uint64_t small_pages = 0;
    for (const std::uint32_t* c = first; c != last; ++c) {
      if (large(*c)) {
        lap("small components");
        solve_component(workers_[0], *c);
      } else {
        small.push_back(*c);
        small_pages += comps_.size(*c);
      }
    }
    const auto k = static_cast<std::int64_t>(small.size());
#pragma omp parallel if (workers_.size() > 1 && small_pages >= kMinSidePages)
    {
      Worker<Real, Weighted, W>& w = workers_[omp_get_thread_num()];
#pragma omp for schedule(dynamic, 8)
      for (std::int64_t i = 0; i < k; ++i) solve_component(w, small[i]);
    }
    lap("small components");
  }

  // Component c, by worker w (with all threads when it is large).
  void solve_component(Worker<Real, Weighted, W>& w, std::uint32_t c) {
    const PageId* pages = comps_.pages.data() + comps_.begin[c];
    const std::uint64_t k = comps_.size(c);
    if (k == 1) {
      w.deltas[0] += solve_single(pages[0]);
    } else {
      const bool timed = large(c);
      set_up_cycle(w.s, pages, k);
      if (timed) lap("set-up");
      sweep_cycle(w, k);
      over_pages<Sum>(static_cast<std::int64_t>(k),
                      [&](std::int64_t first, std::int64_t last, auto) {
                        for (std::int64_t i = first; i < last; ++i) {
                          for (int j = 0; j < W; ++j) {
                            y_[std::size_t(pages[i]) * W + j] = w.s.x[std::size_t(i) * W + j];
                            contrib_[std::size_t(pages[i]) * W + j] = w.s.c[std::size_t(i) * W + j];
                          }
                          local_[pages[i]] = kOutside;
                        }
                        return Sum{};
                      });
      if (timed) lap("sweeps");
    }
  }

  // Whether component c is solved by all threads (its set-up and sweeps split among them) rather
  // than side by side with others: by its pages or by its backlinks, whichever is the more work
  // (a crawl's densest component can hold most links in few pages).
  bool large(std::uint32_t c) const {
    const std::uint64_t k = comps_.size(c);
    if (static_cast<std::int64_t>(k) >= kMinParallelPages) return true;
    std::uint64_t links = 0;
    for (const PageId u : comps_.pages.subspan(comps_.begin[c], k)) links += g_.in.degree(u);
    return static_cast<std::int64_t>(links) >= kMinParallelLinks;
  }

  // A page alone in its component is exact in one step: every backlink but a self-link comes
  // from a solved component. Returns the change from the start vector.
  Cols<W> solve_single(PageId u) {
    const Received r = received(u);
    double e[W];
    source(u, e);
    const double diag = diagonal(u, r.self);
    Cols<W> change;
    for (int j = 0; j < W; ++j) {
      const std::size_t at = std::size_t(u) * W + j;
      y_[at] = static_cast<Real>((e[j] + d_ * r.outside[j]) / diag);
      contrib_[at] = static_cast<Real>(y_[at] * inv_[u]);
      change[j] = std::abs(static_cast<double>(y_[at]) - start(u));
    }
    return change;
  }

  // Components [first, last), single pages none of which links to another.
  void solve_singles(std::size_t first, std::size_t last) {
    const auto k = static_cast<std::int64_t>(last - first);
    const PageId* pages = comps_.pages.data() + comps_.begin[first];  // one page each
    const Chunks chunks = chunks_by_work(k, [&](std::int64_t i) { return g_.in.degree(pages[i]); });
    workers_[0].deltas[0] +=
        over_chunks<Cols<W>>(k, chunks, [&](std::int64_t from, std::int64_t to, auto) {
          Cols<W> change;
          for (std::int64_t i = from; i < to; ++i) change += solve_single(pages[i]);
          return change;
        });
    solved_ += static_cast<std::uint64_t>(k);
    if (solved_ - reported_ >= kReportEveryPages) report(1, 0, 0);
  }

  // A cycle's local system: what the earlier components send, gathered once, and the internal
  // links in local numbers, in one pass over the pages' backlinks (split among the threads for a
  // large component); each thread adds the links it places to its own copy of keep (out-weights
  // that stay inside), summed at the end.
  void set_up_cycle(LocalSystem<Real, Weighted, W>& s, const PageId* pages, std::uint64_t k) {
    const auto K = static_cast<std::int64_t>(k);
    over_pages<Sum>(K, [&](std::int64_t first, std::int64_t last, auto) {
      for (std::int64_t i = first; i < last; ++i) local_[pages[i]] = static_cast<PageId>(i);
      return Sum{};
    });
    // A batch's rows of a large component can be W times larger than a vector that fits in the
    // caches: faulted in by all threads, in huge pages, when they grow.
    const auto rows = [&](auto& v) {
      if constexpr (W == 1) {
        v.resize(k);
      } else {
        resize_huge(v, k * W);
      }
    };
    for (auto* v : {&s.a, &s.step1, &s.step2}) rows(*v);
    for (auto* v : {&s.b, &s.keep}) v->resize(k);
    for (auto* v : {&s.x, &s.c, &s.previous}) rows(*v);
    s.inv.resize(k);
    s.begin.resize(k + 1);
    s.end.resize(k);
    for (int j = 0; j < W; ++j) {
      s.history[j] = 0;
      s.active[j] = j < vectors_;
    }
    s.begin[0] = 0;
    for (std::uint64_t i = 0; i < k; ++i) s.begin[i + 1] = s.begin[i] + g_.in.degree(pages[i]);
    s.sources.resize(s.begin[k]);
    s.weights.resize(Weighted ? s.begin[k] : 0);
    const Chunks by_backlinks =
        chunks_by_work(K, [&](std::int64_t i) { return s.begin[i + 1] - s.begin[i]; });
    const int threads = by_backlinks.split() ? omp_get_max_threads() : 1;
    if (threads > 1) {
      keep_part_.resize(static_cast<std::size_t>(threads - 1) * k);
      over_pages<Sum>(K, [&](std::int64_t first, std::int64_t last, auto) {
        for (int t = 1; t < threads; ++t) {
          std::fill(keep_part_.data() + (t - 1) * k + first, keep_part_.data() + (t - 1) * k + last,
                    0.0);
        }
        return Sum{};
      });
    }
    over_pages<Sum>(K, [&](std::int64_t first, std::int64_t last, auto) {
      std::fill(s.keep.data() + first, s.keep.data() + last, 0.0);
      return Sum{};
    });
    s.target = over_chunks<Cols<W>>(
        K, by_backlinks, [&](std::int64_t first, std::int64_t last, auto concurrent) {
          const int t = concurrent.value ? omp_get_thread_num() : 0;
          double* keep = t == 0 ? s.keep.data() : keep_part_.data() + (t - 1) * k;
          Cols<W> inflow;
          for (std::int64_t i = first; i < last; ++i) {
            const PageId u = pages[i];
            std::uint64_t at = s.begin[i];
            double self = 0;
            Cols<W> outside;
            for (std::uint64_t e = g_.in.offsets[u]; e < g_.in.offsets[u + 1]; ++e) {
              const PageId v = g_.in.ids[e];
              const PageId j = local_[v];
              if (v == u) {
                self += weight(e);
              } else if (j == kOutside) {
                for (int col = 0; col < W; ++col)
                  outside[col] += weight(e) * contrib_[std::size_t(v) * W + col];
              } else {
                s.sources[at] = j;
                if (Weighted) s.weights[at] = weight(e);
                ++at;
                keep[j] += weight(e);
              }
            }
            s.end[i] = at;
            keep[i] += self;
            const double diag = diagonal(u, self);
            double source_of[W];
            source(u, source_of);
            s.b[i] = d_ / diag;
            s.inv[i] = static_cast<Real>(inv_[u]);
            for (int col = 0; col < W; ++col) {
              const std::size_t place = std::size_t(i) * W + col;
              s.a[place] = (source_of[col] + d_ * outside[col]) / diag;
              inflow[col] += source_of[col] + d_ * outside[col];
              s.x[place] = static_cast<Real>(start(u));
              s.c[place] = static_cast<Real>(s.x[place] * s.inv[i]);
              s.step1[place] = s.step2[place] = 0;
            }
          }
          return inflow;
        });
    over_pages<Sum>(K, [&](std::int64_t first, std::int64_t last, auto) {
      for (std::int64_t i = first; i < last; ++i) {
        double kept = s.keep[i];
        for (int t = 1; t < threads; ++t) kept += keep_part_[(t - 1) * k + i];
        s.keep[i] = 1 - d_ * kept * inv_[pages[i]];
      }
      return Sum{};
    });
    s.link_chunks = chunks_by_work(K, [&](std::int64_t i) { return s.end[i] - s.begin[i]; });
  }

  // Sweeps the cycle set up until each vector's change is below its share of --tol (or it stalls
  // at the rounding level, or reaches --max-iter).
  void sweep_cycle(Worker<Real, Weighted, W>& w, std::uint64_t k) {
    LocalSystem<Real, Weighted, W>& s = w.s;
    Cols<W> share, wanted;
    // One per vector, on the stack: a crawl has thousands of cycles, each swept here.
    const auto stall_detectors = []<std::size_t... J>(std::index_sequence<J...>) {
      return std::array<StallDetector, W>{((void)J, StallDetector::for_precision<Real>())...};
    };
    std::array<StallDetector, W> stall = stall_detectors(std::make_index_sequence<W>());
    for (int sweep = 1;; ++sweep) {
      const Cols<W> change = s.sweep();
      if (w.deltas.size() < static_cast<std::size_t>(sweep)) w.deltas.emplace_back();
      double largest = 0;
      for (int j = 0; j < W; ++j) {
        if (!s.active[j]) continue;
        w.deltas[sweep - 1][j] += change[j];
        w.last_sweep[j] = std::max(w.last_sweep[j], sweep);
        largest = std::max(largest, change[j]);
      }
      if (sweep == 1) {
        Cols<W> mass;
        for (std::uint64_t i = 0; i < k; ++i) {
          for (int j = 0; j < W; ++j) mass[j] += s.x[i * W + j];
        }
        for (int j = 0; j < W; ++j) {
          wanted[j] = o_.tol * (static_cast<double>(k) / n_ + (1 - d_) * mass[j]) / 2 / r_per_y_;
          // A small component's share can be below what the precision resolves (float: a change
          // of one unit in the last place of each value); it stops there, and the result counts
          // as converged if all the components' last changes still add up to --tol.
          share[j] = std::max(wanted[j], 4 * std::numeric_limits<Real>::epsilon() * mass[j]);
        }
      }
      if (k >= kReportEveryPages) report(k, sweep, largest);
      // Not inside a parallel region, even one of a single thread (omp_in_parallel() is false
      // there), which an exception may not leave.
      if (omp_get_level() == 0) throw_if_stopped(o_);
      const auto stop = [&](int j, bool stalled) {
        w.final_changes[j] += change[j];
        w.some_stalled[j] |= stalled;
        s.active[j] = false;
      };
      for (int j = 0; j < W; ++j) {
        if (s.active[j] && change[j] <= share[j]) stop(j, change[j] > wanted[j]);
      }
      if (!s.any_active()) return;
      s.extrapolate();
      for (int j = 0; j < W; ++j) {
        // at the rounding level, as above
        if (s.active[j] && stall[j].stalled(change[j])) stop(j, true);
      }
      if (!s.any_active()) return;
      if (sweep == o_.max_iter) {
        for (int j = 0; j < W; ++j) {
          if (!s.active[j]) continue;
          w.unconverged[j] = true;
          stop(j, false);
        }
        return;
      }
    }
  }

  // Adds the time since the last lap to phase `name` (large components' set-up and sweeps are
  // timed each; small ones, solved side by side, together).
  void lap(const char* name) {
    const double now = elapsed();
    auto it = std::find_if(phases_.begin(), phases_.end(),
                           [&](const auto& p) { return p.first == name; });
    if (it == phases_.end()) it = phases_.insert(phases_.end(), {name, 0.0});
    it->second += now - last_lap_;
    last_lap_ = now;
  }

  void report(std::uint64_t component_pages, int sweep, double change) {
    if (!o_.on_progress) return;
    o_.on_progress({solved_, n_, component_pages, sweep, change, elapsed()});
    reported_ = solved_;
  }

  // Each vector's R from its y (R = y/‖y‖₁, or (1 − d)·y when leaking); the sweeps' changes in
  // R's units.
  std::vector<RankResult> results() {
    const auto n = static_cast<std::int64_t>(n_);
    Cols<W> norm, scale;
    for (std::int64_t u = 0; u < n; ++u) {
      for (int j = 0; j < W; ++j) norm[j] += y_[std::size_t(u) * W + j];
    }
    for (int j = 0; j < W; ++j) scale[j] = p_.leak ? 1 - d_ : 1 / norm[j];
    std::vector<std::vector<double>> ranks(vectors_);
    if constexpr (W == 1) {
      // y becomes the result in place: a fresh vector of n doubles costs more in page faults than
      // scaling it.
      ranks[0] = std::move(y_);
#pragma omp parallel for schedule(static) if (n >= kMinParallelPages)
      for (std::int64_t u = 0; u < n; ++u) ranks[0][u] *= scale[0];
    } else {
      // Each thread faults in its own vectors.
#pragma omp parallel for schedule(dynamic, 1) if (n >= kMinParallelPages)
      for (int j = 0; j < vectors_; ++j) resize_huge(ranks[j], n_);
#pragma omp parallel for schedule(static) if (n >= kMinParallelPages)
      for (std::int64_t u = 0; u < n; ++u) {
        for (int j = 0; j < vectors_; ++j) ranks[j][u] = y_[std::size_t(u) * W + j] * scale[j];
      }
    }
    std::uint64_t largest = 0;
    for (std::size_t c = 0; c < comps_.count(); ++c) largest = std::max(largest, comps_.size(c));
    std::vector<RankResult> out;
    for (int j = 0; j < vectors_; ++j) {
      int sweeps = 1;
      for (const Worker<Real, Weighted, W>& w : workers_)
        sweeps = std::max(sweeps, w.last_sweep[j]);
      std::vector<double> deltas(static_cast<std::size_t>(sweeps), 0.0);
      double final_changes = 0;
      bool converged = true, some_stalled = false;
      for (const Worker<Real, Weighted, W>& w : workers_) {
        for (std::size_t i = 0; i < deltas.size() && i < w.deltas.size(); ++i) {
          deltas[i] += w.deltas[i][j];
        }
        final_changes += w.final_changes[j];
        converged &= !w.unconverged[j];
        some_stalled |= w.some_stalled[j];
      }
      ConvergenceTracker& tracker = trackers_[j];
      for (std::size_t i = 0; i < deltas.size(); ++i) {
        tracker.record(static_cast<int>(i + 1), deltas[i] * scale[j]);
      }
      // The change that convergence is judged on: the last sweep of every cycle (a page alone
      // in its component is exact), not deltas.back(), which holds only the slowest cycles'.
      tracker.set_final_delta(final_changes * scale[j]);
      RankResult r = tracker.finish(std::move(ranks[j]), d_, !p_.leak);
      const bool stalled = some_stalled && r.final_delta > o_.tol;
      r.converged = converged && !stalled;
      r.stalled = stalled;
      r.method = Method::kGaussSeidel;
      r.components = comps_.count();
      r.largest_component = largest;
      out.push_back(std::move(r));
    }
    return out;
  }

  const Problem& p_;
  const RankOptions& o_;
  const GraphView& g_;
  const PageId n_;
  const double d_;
  const double r_per_y_;  // ρ above: a change of 1 in y changes R by at most this
  const SourceRows* rows_;
  const int vectors_;                         // of the W places in a row, those in use
  std::vector<ConvergenceTracker> trackers_;  // one per place in a row
  StrongComponents searched_;                 // when the components were not given
  ComponentOrder comps_;
  FreshVector<double> inv_;
  // y (values rounded to Real, held in double so that y becomes the result without a copy), and
  // y/S(u): what a page's links carry. W values per page; a batch's arrays are not zeroed (every
  // value is written before it is read: each page is solved once, in topological order).
  std::conditional_t<W == 1, std::vector<double>, FreshVector<double>> y_;
  std::conditional_t<W == 1, std::vector<Real>, FreshRows<Real>> contrib_;
  std::vector<PageId> local_;
  std::vector<Worker<Real, Weighted, W>> workers_;  // one per thread
  FreshVector<double> keep_part_;  // threads 1.. of set_up_cycle's keep sums (large cycles)
  std::uint64_t solved_ = 0, reported_ = 0;
  std::vector<std::pair<std::string, double>> phases_;
  double last_lap_ = 0;
};

}  // namespace

bool gauss_seidel_by_component_applies(const Problem& p) {
  return p.damping < 1 && (p.leak || p.dangling_is_source);
}

RankResult gauss_seidel_by_component(const Problem& p, const RankOptions& o) {
  return with_solver_types(o.precision, p.graph->weighted(), [&](auto real, auto weighted) {
    return std::move(
        ComponentSolver<decltype(real), decltype(weighted)::value, 1>(p, o).solve().front());
  });
}

std::vector<RankResult> gauss_seidel_by_component_batch(const Problem& p, const RankOptions& o,
                                                        const SourceRows& sources) {
  return with_solver_types(o.precision, p.graph->weighted(), [&](auto real, auto weighted) {
    using Real = decltype(real);
    constexpr bool kWeighted = decltype(weighted)::value;
    // Rows of 1, 4, 8 or 16 values (a row of 16 doubles is two cache lines); the places of a
    // row beyond the vectors are never swept.
    const std::size_t k = sources.size();
    if (k <= 1) return ComponentSolver<Real, kWeighted, 1>(p, o, &sources).solve();
    if (k <= 4) return ComponentSolver<Real, kWeighted, 4>(p, o, &sources).solve();
    if (k <= 8) return ComponentSolver<Real, kWeighted, 8>(p, o, &sources).solve();
    if (k > 16) fail_option("batch", "at most 16 vectors sweep together, not ", k);
    return ComponentSolver<Real, kWeighted, 16>(p, o, &sources).solve();
  });
}

}  // namespace webrank
