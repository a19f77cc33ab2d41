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
#include "rank/kernels.hpp"
#include "rank/power_iteration.hpp"
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

  void describe(RankResult& r) const {
    r.summation = blocks_ ? "blocked" : "pull";
    r.block_pages = block_pages_;
    r.blocked_from = blocked_from_;
    r.summation_note = note_;
  }

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

}  // namespace

RankResult power_iteration(const Problem& p, const RankOptions& o) {
  return with_solver_types(o.precision, p.graph->weighted(), [&](auto real, auto weighted) {
    using Real = decltype(real);
    const auto started = std::chrono::steady_clock::now();
    const FreshVector<Real> inv = kernels::inverse_out_strength<Real>(*p.graph);
    BacklinkSums<Real, decltype(weighted)::value> sweep(*p.graph, o);
    return iterate_power<Real>(p, o, inv, sweep, sum_in_one_process, started);
  });
}

}  // namespace webrank
