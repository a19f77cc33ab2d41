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
// Threads: a large component is swept by all threads; smaller ones are solved side by side,
// one per thread, a level of the component graph at a time (components of one level never link
// to each other; crawls have about 20 levels, most of their cycles in the first three).
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <span>
#include <type_traits>

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

struct SweepTotals {
  double kept = 0, change = 0, d00 = 0, d01 = 0, d02 = 0, d11 = 0, d12 = 0, d22 = 0;
  SweepTotals& operator+=(const SweepTotals& o) {
    kept += o.kept;
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

// One component's system in local numbering, solved for the self-links: x = a + b·Σ_links w·c,
// where c = x·inv is what the component's pages pass to each other.
template <typename Real, bool Weighted>
struct LocalSystem {
  // Fresh vectors: set_up_cycle writes every element in loops split among the threads, which
  // then share the page faults of a large component's first set-up.
  FreshVector<double> a, b;
  // Page i's internal backlinks are sources[begin[i], end[i]): the set-up writes them where the
  // page's backlinks would start if all were internal (begin[i + 1] − begin[i] of them), so that
  // one pass places them; the rest of that room is left unused.
  FreshVector<std::uint64_t> begin, end;
  FreshVector<PageId> sources;  // local numbers of in-component backlinks
  FreshVector<double> weights;  // Weighted only
  FreshVector<Real> x, c, inv, previous;
  // Σ keep·x = target at the solution (keep = 1 − d·share of the page's out-weight that stays in
  // the component, target = Σ of what enters from outside): each sweep is rescaled to it, which
  // removes the mode in which the component's total rank is off (it decays only slowly).
  FreshVector<double> keep;
  double target = 0;
  // The last two sweeps' changes per page (Δ1, Δ2; the sweep's own is Δ0), the dot products of
  // Δ0..Δ2 from the last sweep, and how many of Δ1, Δ2 are real (0 after an extrapolation).
  FreshVector<double> step1, step2;
  double d00 = 0, d01 = 0, d02 = 0, d11 = 0, d12 = 0, d22 = 0;
  int history = 0;
  Chunks link_chunks;  // of a sweep, balanced by internal links (set up with the links)

  // Σ w·c over page i's backlinks, with four partial sums (components are small enough to stay
  // in cache, where the chain of dependent additions bounds a single sum). With other threads
  // sweeping, c is read through relaxed atomics; alone, plainly.
  template <bool Concurrent>
  double backlink_sum(std::int64_t i, const Real* cv) const {
    constexpr auto kAccess = Concurrent ? kernels::Access::kRelaxedAtomic : kernels::Access::kPlain;
    const kernels::Contribution<Real, Weighted, kAccess> term{sources.data(), weights.data(), cv};
    return kernels::link_sum<4>(begin[i], end[i], term);
  }

  // One in-place sweep; returns its L1 change. Several threads sweep asynchronously (each reads
  // the others' newest values through relaxed atomics), as the global Gauss–Seidel does.
  double sweep() {
    const std::int64_t k = static_cast<std::int64_t>(x.size());
    const SweepTotals kept = over_chunks<SweepTotals>(
        k, link_chunks, [&](std::int64_t first, std::int64_t last, auto concurrent) {
          const double *pa = a.data(), *pb = b.data(), *pkeep = keep.data();
          const Real* pinv = inv.data();
          Real *px = x.data(), *pc = c.data(), *pprevious = previous.data();
          SweepTotals t;
          for (std::int64_t i = first; i < last; ++i) {
            const Real value =
                static_cast<Real>(pa[i] + pb[i] * backlink_sum<concurrent.value>(i, pc));
            t.kept += pkeep[i] * value;
            pprevious[i] = px[i];
            px[i] = value;
            constexpr auto kAccess =
                concurrent.value ? kernels::Access::kRelaxedAtomic : kernels::Access::kPlain;
            kernels::store<kAccess>(pc, static_cast<PageId>(i), static_cast<Real>(value * pinv[i]));
          }
          return t;
        });
    const double scale = kept.kept > 0 ? target / kept.kept : 1.0;
    const SweepTotals t =
        over_pages<SweepTotals>(k, [&](std::int64_t first, std::int64_t last, auto) {
          SweepTotals t;
          for (std::int64_t i = first; i < last; ++i) {
            x[i] = static_cast<Real>(x[i] * scale);
            c[i] = static_cast<Real>(x[i] * inv[i]);
            const double delta = static_cast<double>(x[i]) - static_cast<double>(previous[i]);
            const double s1 = step1[i], s2 = step2[i];
            t.change += std::abs(delta);
            t.d00 += delta * delta;
            t.d01 += delta * s1;
            t.d02 += delta * s2;
            t.d11 += s1 * s1;
            t.d12 += s1 * s2;
            t.d22 += s2 * s2;
            step2[i] = s1;
            step1[i] = delta;
          }
          return t;
        });
    d00 = t.d00, d01 = t.d01, d02 = t.d02, d11 = t.d11, d12 = t.d12, d22 = t.d22;
    history = std::min(history + 1, 3);
    return t.change;
  }

  // Jumps towards the limit by the minimal polynomial of the last changes
  // (extrapolation.hpp), when it fits them; returns whether it did.
  bool extrapolate() {
    if (history < 3) return false;
    const std::optional<MpeStep> step = mpe_step({d00, d01, d02, d11, d12, d22});
    if (!step) return false;
    const double f0 = step->f0, f1 = step->f1;
    over_pages<SweepTotals>(static_cast<std::int64_t>(x.size()),
                            [&](std::int64_t first, std::int64_t last, auto) {
                              for (std::int64_t i = first; i < last; ++i) {
                                x[i] = static_cast<Real>(x[i] - f0 * step1[i] - f1 * step2[i]);
                                c[i] = static_cast<Real>(x[i] * inv[i]);
                              }
                              return SweepTotals{};
                            });
    history = 0;
    return true;
  }
};

// What one thread needs to solve components on its own: a local system to set up, and its
// share of the solve's bookkeeping (added up when the solve is done).
template <typename Real, bool Weighted>
struct Worker {
  LocalSystem<Real, Weighted> s;
  std::vector<double> deltas{0.0};  // y units, per sweep index
  double final_changes = 0;         // y units: the last change of every cycle
  bool converged = true, some_stalled = false;
};

// The whole solve: components by level, each set to its final values before the next level.
template <typename Real, bool Weighted>
class ComponentSolver {
 public:
  ComponentSolver(const Problem& p, const RankOptions& o)
      : p_(p),
        o_(o),
        g_(*p.graph),
        n_(g_.num_pages),
        d_(p.damping),
        r_per_y_(p.leak ? 1 - p.damping : 1.0),
        tracker_(ConvergenceTracker::for_precision<Real>(o)) {  // times the whole solve
    const auto allocate = [&] {
      inv_ = kernels::inverse_out_strength(g_);
      y_.resize(n_);
      contrib_.resize(n_);
      local_.assign(n_, kOutside);
    };
    if (p.components) {
      comps_ = *p.components;  // found by auto: no search
      allocate();
      lap("allocation");
    } else {
      if (o_.on_progress) {
        o_.on_progress({.pages = n_, .seconds = tracker_.elapsed(), .searching = true});
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

  RankResult solve() {
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
    RankResult r = result();
    lap("result");
    r.phases = std::move(phases_);
    return r;
  }

 private:
  // A page's number inside the component being set up, kOutside for every other page: one
  // random read tells whether a backlink is internal and where it goes.
  static constexpr PageId kOutside = std::numeric_limits<PageId>::max();

  double weight(std::uint64_t e) const { return Weighted ? g_.in.weights[e] : 1.0; }
  double start(PageId u) const { return p_.start[u] / (1 - d_); }  // = R/(1 − d) when leaking

  // Page u's backlinks by where they come from: u itself (the self-link's weight) and solved
  // pages (what they send, summed). For a page alone in its component that is all of them.
  struct Received {
    double self = 0, outside = 0;
  };
  Received received(PageId u) const {
    Received r;
    for (std::uint64_t e = g_.in.offsets[u]; e < g_.in.offsets[u + 1]; ++e) {
      const PageId v = g_.in.ids[e];
      if (v == u) {
        r.self += weight(e);
      } else {
        r.outside += weight(e) * contrib_[v];
      }
    }
    return r;
  }
  // 1 − d·(share of u's out-weight on its self-link): the self-link is solved for.
  double diagonal(PageId u, const Received& r) const { return 1 - d_ * r.self * inv_[u]; }

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
      Worker<Real, Weighted>& w = workers_[omp_get_thread_num()];
#pragma omp for schedule(dynamic, 8)
      for (std::int64_t i = 0; i < k; ++i) solve_component(w, small[i]);
    }
    lap("small components");
  }

  // Component c, by worker w (with all threads when it is large).
  void solve_component(Worker<Real, Weighted>& w, std::uint32_t c) {
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
                          y_[pages[i]] = w.s.x[i];
                          contrib_[pages[i]] = w.s.c[i];
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
  double solve_single(PageId u) {
    const Received r = received(u);
    y_[u] = static_cast<Real>((p_.source[u] + d_ * r.outside) / diagonal(u, r));
    contrib_[u] = static_cast<Real>(y_[u] * inv_[u]);
    return std::abs(static_cast<double>(y_[u]) - start(u));
  }

  // Components [first, last), single pages none of which links to another.
  void solve_singles(std::size_t first, std::size_t last) {
    const auto k = static_cast<std::int64_t>(last - first);
    const PageId* pages = comps_.pages.data() + comps_.begin[first];  // one page each
    const Chunks chunks = chunks_by_work(k, [&](std::int64_t i) { return g_.in.degree(pages[i]); });
    workers_[0].deltas[0] +=
        over_chunks<Sum>(k, chunks, [&](std::int64_t from, std::int64_t to, auto) {
          Sum change;
          for (std::int64_t i = from; i < to; ++i) {
            change.value += solve_single(pages[i]);
          }
          return change;
        }).value;
    solved_ += static_cast<std::uint64_t>(k);
    if (solved_ - reported_ >= kReportEveryPages) report(1, 0, 0);
  }

  // A cycle's local system: what the earlier components send, gathered once, and the internal
  // links in local numbers, in one pass over the pages' backlinks (split among the threads for a
  // large component); each thread adds the links it places to its own copy of keep (out-weights
  // that stay inside), summed at the end.
  void set_up_cycle(LocalSystem<Real, Weighted>& s, const PageId* pages, std::uint64_t k) {
    const auto K = static_cast<std::int64_t>(k);
    over_pages<Sum>(K, [&](std::int64_t first, std::int64_t last, auto) {
      for (std::int64_t i = first; i < last; ++i) local_[pages[i]] = static_cast<PageId>(i);
      return Sum{};
    });
    for (auto* v : {&s.a, &s.b, &s.keep, &s.step1, &s.step2}) v->resize(k);
    for (auto* v : {&s.x, &s.c, &s.inv, &s.previous}) v->resize(k);
    s.begin.resize(k + 1);
    s.end.resize(k);
    s.history = 0;
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
    s.target = over_chunks<Sum>(
                   K, by_backlinks,
                   [&](std::int64_t first, std::int64_t last, auto concurrent) {
                     const int t = concurrent.value ? omp_get_thread_num() : 0;
                     double* keep = t == 0 ? s.keep.data() : keep_part_.data() + (t - 1) * k;
                     Sum inflow;
                     for (std::int64_t i = first; i < last; ++i) {
                       const PageId u = pages[i];
                       std::uint64_t at = s.begin[i];
                       double self = 0, outside = 0;
                       for (std::uint64_t e = g_.in.offsets[u]; e < g_.in.offsets[u + 1]; ++e) {
                         const PageId v = g_.in.ids[e];
                         const PageId j = local_[v];
                         if (v == u) {
                           self += weight(e);
                         } else if (j == kOutside) {
                           outside += weight(e) * contrib_[v];
                         } else {
                           s.sources[at] = j;
                           if (Weighted) s.weights[at] = weight(e);
                           ++at;
                           keep[j] += weight(e);
                         }
                       }
                       s.end[i] = at;
                       keep[i] += self;
                       const double diag = 1 - d_ * self * inv_[u];
                       s.a[i] = (p_.source[u] + d_ * outside) / diag;
                       s.b[i] = d_ / diag;
                       inflow.value += p_.source[u] + d_ * outside;
                       s.inv[i] = static_cast<Real>(inv_[u]);
                       s.x[i] = static_cast<Real>(start(u));
                       s.c[i] = static_cast<Real>(s.x[i] * s.inv[i]);
                       s.step1[i] = s.step2[i] = 0;
                     }
                     return inflow;
                   })
                   .value;
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

  // Sweeps the cycle set up until its change is below its share of --tol (or it stalls at the
  // rounding level, or reaches --max-iter).
  void sweep_cycle(Worker<Real, Weighted>& w, std::uint64_t k) {
    LocalSystem<Real, Weighted>& s = w.s;
    double share = 0, wanted = 0;
    auto stall = StallDetector::for_precision<Real>();
    for (int sweep = 1;; ++sweep) {
      const double change = s.sweep();
      if (w.deltas.size() < static_cast<std::size_t>(sweep)) w.deltas.push_back(0);
      w.deltas[sweep - 1] += change;
      if (sweep == 1) {
        double mass = 0;
        for (Real v : s.x) mass += v;
        wanted = o_.tol * (static_cast<double>(k) / n_ + (1 - d_) * mass) / 2 / r_per_y_;
        // A small component's share can be below what the precision resolves (float: a change
        // of one unit in the last place of each value); it stops there, and the result counts as
        // converged if all the components' last changes still add up to --tol.
        share = std::max(wanted, 4 * std::numeric_limits<Real>::epsilon() * mass);
      }
      if (k >= kReportEveryPages) report(k, sweep, change);
      // Not inside a parallel region, even one of a single thread (omp_in_parallel() is false
      // there), which an exception may not leave.
      if (omp_get_level() == 0) throw_if_stopped(o_);
      if (change <= share) {
        w.final_changes += change;
        w.some_stalled |= change > wanted;
        return;
      }
      s.extrapolate();
      if (stall.stalled(change)) {
        w.final_changes += change;  // at the rounding level, as above
        w.some_stalled = true;
        return;
      }
      if (sweep == o_.max_iter) {
        w.final_changes += change;
        w.converged = false;
        return;
      }
    }
  }

  // Adds the time since the last lap to phase `name` (large components' set-up and sweeps are
  // timed each; small ones, solved side by side, together).
  void lap(const char* name) {
    const double now = tracker_.elapsed();
    auto it = std::find_if(phases_.begin(), phases_.end(),
                           [&](const auto& p) { return p.first == name; });
    if (it == phases_.end()) it = phases_.insert(phases_.end(), {name, 0.0});
    it->second += now - last_lap_;
    last_lap_ = now;
  }

  void report(std::uint64_t component_pages, int sweep, double change) {
    if (!o_.on_progress) return;
    o_.on_progress({solved_, n_, component_pages, sweep, change, tracker_.elapsed()});
    reported_ = solved_;
  }

  // R from y; the sweeps' changes in R's units.
  RankResult result() {
    std::vector<double> deltas;
    double final_changes = 0;
    bool converged = true, some_stalled = false;
    for (const Worker<Real, Weighted>& w : workers_) {
      if (deltas.size() < w.deltas.size()) deltas.resize(w.deltas.size(), 0.0);
      for (std::size_t i = 0; i < w.deltas.size(); ++i) deltas[i] += w.deltas[i];
      final_changes += w.final_changes;
      converged &= w.converged;
      some_stalled |= w.some_stalled;
    }
    double norm = 0;
    for (double v : y_) norm += v;
    const double scale = p_.leak ? 1 - d_ : 1 / norm;
    // y becomes the result in place: a fresh vector of n doubles costs more in page faults than
    // scaling it.
    std::vector<double> ranks = std::move(y_);
    const auto n = static_cast<std::int64_t>(n_);
#pragma omp parallel for schedule(static) if (n >= kMinParallelPages)
    for (std::int64_t u = 0; u < n; ++u) ranks[u] *= scale;
    for (std::size_t i = 0; i < deltas.size(); ++i) {
      tracker_.record(static_cast<int>(i + 1), deltas[i] * scale);
    }
    // The change that convergence is judged on: the last sweep of every cycle (a page alone in
    // its component is exact), not deltas.back(), which holds only the slowest cycles'.
    tracker_.set_final_delta(final_changes * scale);
    RankResult r = tracker_.finish(std::move(ranks), d_, !p_.leak);
    const bool stalled = some_stalled && r.final_delta > o_.tol;
    r.converged = converged && !stalled;
    r.stalled = stalled;
    r.components = comps_.count();
    for (std::size_t c = 0; c < comps_.count(); ++c) {
      r.largest_component = std::max(r.largest_component, comps_.size(c));
    }
    return r;
  }

  const Problem& p_;
  const RankOptions& o_;
  const GraphView& g_;
  const PageId n_;
  const double d_;
  const double r_per_y_;  // ρ above: a change of 1 in y changes R by at most this
  ConvergenceTracker tracker_;
  StrongComponents searched_;  // when the components were not given
  ComponentOrder comps_;
  FreshVector<double> inv_;
  // y (values rounded to Real, held in double so that y becomes the result without a copy), and
  // y/S(u): what a page's links carry.
  std::vector<double> y_;
  std::vector<Real> contrib_;
  std::vector<PageId> local_;
  std::vector<Worker<Real, Weighted>> workers_;  // one per thread
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
    return ComponentSolver<decltype(real), decltype(weighted)::value>(p, o).solve();
  });
}

}  // namespace webrank
