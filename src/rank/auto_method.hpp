// The choice of --method auto (auto_method.cpp), apart from the solve so that its rules can be
// tested on their own: what it knows of the web and of the probe's iterations, and the cost model
// that turns them into predicted times (docs/performance.md, "How auto chooses").
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "webrank/rank/rank.hpp"
#include "webrank/util/graph.hpp"

namespace webrank {

// The web as the choice sees it (every count a double: they only enter products).
struct WebShape {
  double pages = 0, links = 0;
  // Components of two pages or more ("cycles"): their pages and those pages' backlinks (on the
  // crawls measured 89-100% of them come from inside, so they stand for the links a sweep reads).
  double cycle_pages = 0, cycle_links = 0, cycles = 0;
  std::size_t closed_components = 0;
  // The share of links joining pages less than 1/16 of the ids apart (at most 2^16; sampled by
  // local_link_share(), algo/strong_components.hpp): 0.5-1 on crawls, 0.13-0.17 on R-MAT webs.
  double local_share = 1;
};

// WebShape of `g` with components `c`.
WebShape web_shape(const GraphView& g, const ComponentOrder& c);

// What the probe's power iterations showed.
struct ProbeOutcome {
  std::vector<double> changes;  // the L1 change of each iteration
  // The change one more iteration makes to the rank the closed components hold, summed over them.
  double closed_change = 0;
};

// The constants of the model: gauss-seidel's work in units of one power iteration at one thread,
// measured on the webs of docs/performance.md ("How auto chooses"). Its set-up and each sweep
// cost, per share of the web's links that lie in cycles, `local` on webs whose links join nearby
// ids (crawls: the values a pass reads are in cache) and `scattered` where they join pages
// anywhere (R-MAT webs); in between, interpolated on the local share from 0.5 to 0.15.
struct CostModel {
  double set_up_local = 3, set_up_scattered = 6;
  double sweep_local = 0.57, sweep_scattered = 0.95;
  // Webs of fewer than cached_pages pages: every pass runs in the caches, where the power
  // iteration's gathers cost least and a sweep's second pass (rescaling, extrapolation's sums)
  // costs most in comparison.
  double cached_pages = 1 << 16;
  double set_up_cached = 1, sweep_cached = 1.1;
  // On scattered webs auto leaves the component search to gauss-seidel: its cost, per share of
  // links in cycles.
  double search_scattered = 2;
  double allocation = 1;  // first touches of gauss-seidel's vectors
  // Threads: t threads run a pass t / (1 + contention·(t − 1)) times faster (Amdahl's law with
  // a serial share), and gauss-seidel needs (1 + stale_sweeps·(t − 1)) times the sweeps (threads
  // read each other's older values). Contentions local and scattered as above, fitted to
  // measurements on a 16-core machine (power 10.8x on a crawl, 13.8x on the Kronecker graph;
  // gauss-seidel 4.2x on the crawl, 1.3x on the Kronecker graph, 8 -> 11 sweeps) and checked at 1
  // and 2 threads here (docs/performance.md, "How auto chooses").
  double power_contention_local = 0.03, power_contention_scattered = 0.01;
  double gs_contention_local = 0.18, gs_contention_scattered = 0.8;
  double gs_stale_sweeps = 0.025;
  // A probe whose last rate of convergence rose by more than this factor over the one before has
  // not reached the web's rate yet: the rise is assumed to go on once more.
  double rising_rate = 1.1;
};

struct ChoiceSettings {
  int threads = 1;  // the threads the solve runs with (at most the processors)
  double tol = 1e-10, damping = 0.85;
  int max_iter = 1000;
  CostModel model;
};

// Before any iteration: gauss-seidel when closed components hold the power iteration back so long
// (`closed_change`: what the first iteration changes of the rank they hold) that gauss-seidel is
// faster even if it needed as many sweeps; nullopt when a probe must tell.
std::optional<MethodChoice> choose_without_probe(const WebShape& web, double closed_change,
                                                 const ChoiceSettings& o);

// The method the model predicts to finish first after the probe, with its reasons.
MethodChoice choose_method(const WebShape& web, const ProbeOutcome& probe, const ChoiceSettings& o);

}  // namespace webrank
