// Interactive personalized PageRank (`webrank ppr`): one rank source's top pages by forward push
// (Andersen, Chung & Lang 2006), in milliseconds instead of a full computation.
//
// The vector approximated is compute_rank()'s with this rank source E, damping d and dangling
// rank sent along E (the default; the paper's personalized ranking, NetworkX's and igraph's
// `personalization`/`reset`). Push keeps an estimate p and a residual r >= 0 with
//     π = p + G·r,   G = (1 − d)·(I − d·M_E)⁻¹  (column-stochastic; M_E: M with dangling columns E)
// starting from p = 0, r = E. Pushing page u moves (1 − d)·r(u) into p(u) and d·r(u) along its
// out-links (a dangling page's along E). Hence, exactly:
//   - every page is underestimated: p(u) <= π(u) <= p(u) + r(u) + d·(Σr − r(u));
//   - ‖π − p‖₁ = Σr, the error bound reported.
// Pages push while r(u) > eps·max(1, out-degree(u)) (the usual threshold, which bounds the work
// by about 1/((1 − d)·eps) link visits). Pushes are taken from a queue while few pages are
// active; once many are (about one page in 16), the remaining work is done by sweeps over all
// pages in id order, pushing in place (Gauss–Seidel-like), which read the links sequentially.
//
// Threads: one call runs on the calling thread; any number of calls may run at once on one graph.
#pragma once

#include <cstdint>
#include <stop_token>
#include <string>
#include <vector>

#include "webrank/rank/rank.hpp"
#include "webrank/store/database.hpp"
#include "webrank/util/graph.hpp"

namespace webrank {

struct PushOptions {
  double damping = 0.85;
  double eps = 1e-7;     // push threshold per out-link (above)
  std::size_t k = 20;    // how many top pages personalized_top() returns
  std::stop_token stop;  // checked every few thousand pushes: Error(kCancelled)
};

struct PushResult {
  std::vector<std::pair<PageId, double>> estimate;  // p: every page with p > 0, by page id
  std::vector<std::pair<PageId, double>> residual;  // r: every page with r > 0, by page id
  double residual_sum = 0;                          // Σr = ‖π − p‖₁ exactly
  std::uint64_t pushes = 0, links_visited = 0;
  PageId pages_touched = 0;  // pages that got any estimate or residual
  int sweeps = 0;            // full sweeps after the queue phase (0: the queue sufficed)
  double seconds = 0;
};

// Throws Error(kInvalidArgument) for a damping outside [0, 1), eps <= 0, or a bad source (see
// Distribution: weights >= 0, finite, not all zero, pages in range).
PushResult personalized_push(const GraphView& graph, const PageWeights& source,
                             const PushOptions& options);

struct PprEntry {
  PageId page = kNoPage;
  double lower = 0, upper = 0;  // π(page) is in [lower, upper]; lower is the push estimate
};

struct PprTop {
  std::vector<PprEntry> top;  // the k pages of highest estimate, highest first (ties: smaller id)
  // True when the top set is certain: its smallest lower bound is at least the largest upper
  // bound of every other page (so it is the exact top k, up to ties).
  bool certified = false;
  // The largest upper bound outside the top (d·Σr for a page push never reached).
  double outside_upper = 0;
  PushResult push;  // the push's counts, error bound and vectors
};

// personalized_push(), then the top `options.k` pages with their bounds.
PprTop personalized_top(const GraphView& graph, const PageWeights& source,
                        const PushOptions& options);

// Stores the estimate p of `result` in `db` as the rank vector `name` (pages push never reached
// are 0), with metadata `webrank check --ranks` verifies: its residual ‖T(p) − p‖₁ is exactly
// (1 − d)·Σr, held to "tol" = Σr. Throws Error as save_ranks() does.
void save_push_ranks(const Database& db, const std::string& name, const PushResult& result,
                     const PageWeights& source, const PushOptions& options);

}  // namespace webrank
