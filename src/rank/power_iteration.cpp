// Power iteration: every iteration first turns ranks into per-page contributions
// c(v) = R(v)/S(v) (S = out-degree or out-weight), then each page sums the contributions of its
// backlinks. Two sweeps do the summing with the same result: the pull sweep reads backlinks in
// CSR order (sequential) and c() at random; once c() outgrows the caches, propagation blocking
// (propagation_blocks.hpp) turns those random reads into streams. One sweep serves both
// formulations (the standard one and the paper's loop of §2.6) and both precisions; they differ
// only in what is done with each page's sum.
#include <omp.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <utility>

#include "rank/convergence.hpp"
#include "rank/extrapolation.hpp"
#include "rank/kernels.hpp"
#include "rank/propagation_blocks.hpp"
#include "rank/solver.hpp"

namespace webrank {
namespace {

// Summation::kAuto. Blocking pays only where the pull sweep's random reads miss the caches, which
// takes both size and poor locality: below this size of contribution vector the reads mostly
// hit the L3, and on a host-clustered web in crawl order most backlinks are near their page while
// R-MAT's are not (docs/performance.md). Its set-up costs a few pull iterations. So auto starts
// with the pull sweep, switches once the convergence rate predicts kIterationsToRepaySetup more
// iterations, times the second blocked sweep (the first also faults in its buffer) against the last
// pull sweep, and goes back to pull for good if blocking is not faster. The sums are the same
// either way; only time is at stake.
constexpr std::size_t kBlockedSweepBytes = std::size_t(8) << 20;
constexpr double kIterationsToRepaySetup = 20;

// Sums backlink contributions with the sweep the options ask for.
template <typename Real, bool Weighted>
class BacklinkSums {
 public:
  BacklinkSums(const GraphView& g, const RankOptions& o) : g_(g), o_(o) {
    if (Weighted || o.summation == Summation::kPull) return;
    if (o.summation == Summation::kBlocked) {
      use_blocks(1);
      return;
    }
    may_block_ =
        std::size_t(g.num_pages) * sizeof(Real) >= kBlockedSweepBytes && BlockLayout::supports(g);
  }

  // Summation::kAuto: after iteration `it` (changes `delta` now, `previous` before), switches to
  // the blocked sweep when at least kIterationsToRepaySetup more iterations are predicted, and back
  // when it turns out slower.
  void after_iteration(int it, double previous, double delta) {
    if (trial_ && blocked_sweeps_ == 2) {
      trial_ = false;
      if (last_blocked_seconds_ >= last_pull_seconds_) {
        char text[160];
        std::snprintf(text, sizeof text,
                      "blocked sweep tried at iterations %d-%d: %.1f ms against %.1f ms pulled; "
                      "back to pull",
                      blocked_from_, it, 1e3 * last_blocked_seconds_, 1e3 * last_pull_seconds_);
        note_ = text;
        blocks_.reset();
        layout_.reset();
        blocked_from_ = 0;
        block_pages_ = 0;
      }
    }
    if (!may_block_ || it < 3) return;  // the first changes say little about the rate
    if (iterations_left(previous, delta, o_.tol) >= kIterationsToRepaySetup) {
      use_blocks(it + 1);
      trial_ = true;
    }
  }

  const char* name() const { return blocks_ ? "blocked" : "pull"; }
  std::uint32_t block_pages() const { return block_pages_; }
  int blocked_from() const { return blocked_from_; }
  const std::string& note() const { return note_; }

  template <typename Emit>
  double operator()(const Real* contrib, Emit&& emit) {
    const auto start = std::chrono::steady_clock::now();
    double total;
    if (blocks_) {
      total = blocks_->sweep(contrib, emit);
      ++blocked_sweeps_;
    } else {
      const kernels::Contribution<Real, Weighted> term{g_.in.ids.data(), g_.in.weights.data(),
                                                       contrib};
      total = kernels::pull_pass(g_.in, g_.num_pages, term, emit);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    (blocks_ ? last_blocked_seconds_ : last_pull_seconds_) = seconds;
    return total;
  }

 private:
  void use_blocks(int from_iteration) {
    may_block_ = false;
    block_pages_ = o_.block_pages ? o_.block_pages : BlockLayout::kDefaultBlockPages;
    // Chunks per thread > 1 so that a thread slowed by another process does not hold up the rest.
    layout_ = std::make_unique<BlockLayout>(g_, block_pages_, 4 * omp_get_max_threads());
    blocks_ = std::make_unique<PropagationBlocks<Real>>(*layout_);
    blocked_from_ = from_iteration;
  }

  const GraphView& g_;
  const RankOptions& o_;
  bool may_block_ = false;
  bool trial_ = false;  // auto has just switched to blocked and is timing it
  int blocked_from_ = 0;
  int blocked_sweeps_ = 0;
  double last_pull_seconds_ = 0, last_blocked_seconds_ = 0;
  std::uint32_t block_pages_ = 0;
  std::string note_;
  std::unique_ptr<BlockLayout> layout_;
  std::unique_ptr<PropagationBlocks<Real>> blocks_;
};

// --dangling leak (R = (1 − d)E + d·M·R: the rank of dangling pages is dropped) is iterated as
// the problem that sends it along E instead, and scaled. Why it is the same answer: the
// conserving fixed point R* = (1 − d)E + d·M·R* + d·(δᵀR*)·E sums to 1, so the factor of E is
// c = (1 − d) + d·δᵀR* (δᵀR* = R*'s dangling mass); R*/c solves y = E + d·M·y, and the leaking
// fixed point is (1 − d)·y = s·R* with s = (1 − d)/c. Why it is faster: the leaking iteration
// converges only as fast as rank drains into dangling pages, the conserving one at the rate of
// the web's second eigenvalue (float to 1e-6 on the Kronecker graph: 53 iterations against 9).
// The change compared with --tol is that of the scaled iterates, bounded by
// s_k·‖R_k − R_{k−1}‖ + |s_k − s_{k−1}|·‖R_{k−1}‖. (With d = 1 there is no such scaling.)
double leak_scale(double damping, double dangling_mass) {
  return (1 - damping) / ((1 - damping) + damping * dangling_mass);
}

template <typename Real, bool Weighted>
RankResult iterate(const Problem& p, const RankOptions& o) {
  auto tracker = ConvergenceTracker::for_precision<Real>(o);  // times the whole solve
  const GraphView& g = *p.graph;
  const std::int64_t n = g.num_pages;
  const double d = p.damping;
  const bool scaled_leak = p.leak && d < 1;
  const bool leak = p.leak && !scaled_leak;  // the leaking iteration itself
  const Distribution& dangling_to = scaled_leak ? p.source : p.dangling;
  const FreshVector<Real> inv = kernels::inverse_out_strength<Real>(g);

  BacklinkSums<Real, Weighted> sweep(g, o);
  std::vector<Real> rank(n), next(n);  // std::vector: the last rank is moved into the result
  FreshVector<Real> contrib(n);        // written by prepare() before any sweep reads it
  // A scaled leak's start is normalized: the conserving iteration would otherwise first have
  // to drain the excess mass (auto continues from a leaking, hence scaled, vector).
  double start_norm = 1;
  if (scaled_leak) {
    start_norm = 0;
    for (std::int64_t u = 0; u < n; ++u) start_norm += p.start[u];
  }
  for (std::int64_t u = 0; u < n; ++u) rank[u] = static_cast<Real>(p.start[u] / start_norm);

  // Contributions of `rank`, its dangling mass and its sum: before every sweep, and computed
  // right after the previous one so that a scaled leak knows s_k when it checks convergence.
  double dangling = 0, norm = 0;
  auto prepare = [&] {
    const kernels::Masses m = kernels::contributions(rank, inv, contrib.data());
    dangling = m.dangling;
    norm = m.total;
  };
  prepare();
  double scale = scaled_leak ? leak_scale(d, dangling) : 1;

  const bool extrapolating = o.method == Method::kExtrapolate;
  double previous_delta = INFINITY;
  std::vector<std::vector<Real>> history(extrapolating ? 4 : 0);  // the iterates before a step
  for (int it = 1; it <= o.max_iter; ++it) {
    double delta = 0;
    if (o.method == Method::kPaper) {
      // R' = d·A·R; the rank lost to teleport and dangling pages, ‖R‖ − ‖R'‖, re-enters along E.
      const double new_norm = sweep(contrib.data(), [&](PageId u, double y) {
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
      const double dangling_share = leak ? 0.0 : d * dangling;
      delta = sweep(contrib.data(), [&](PageId u, double y) {
        const double value = (1 - d) * p.source[u] + d * y + dangling_share * dangling_to[u];
        next[u] = static_cast<Real>(value);
        return std::abs(static_cast<double>(next[u]) - static_cast<double>(rank[u]));
      });
    }
    rank.swap(next);
    const double previous_norm = norm;
    prepare();
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
        prepare();
        if (scaled_leak) scale = leak_scale(d, dangling);
      }
    }
  }
  RankResult r = tracker.finish(std::move(rank), d, !p.leak);
  if (scaled_leak) {
    for (double& x : r.ranks) x *= scale;
  }
  r.summation = sweep.name();
  r.block_pages = sweep.block_pages();
  r.blocked_from = sweep.blocked_from();
  r.summation_note = sweep.note();
  return r;
}

}  // namespace

RankResult power_iteration(const Problem& p, const RankOptions& o) {
  return with_solver_types(o.precision, p.graph->weighted(), [&](auto real, auto weighted) {
    return iterate<decltype(real), decltype(weighted)::value>(p, o);
  });
}

}  // namespace webrank
