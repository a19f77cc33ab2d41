// Many rank vectors in one pass (`webrank rank --batch`, topics, TrustRank beside PageRank).
//
// k vectors that differ only in their rank source E are computed together: every page holds a
// row of k values, and one sweep over the backlinks serves all k (a link's source row is read
// once instead of k times from k vectors). Two solvers, as for one vector:
//  - gauss-seidel (auto's choice wherever dangling rank follows each vector's own E, the
//    default): Gauss–Seidel by strongly connected component, the components found once for the
//    batch; each vector stops sweeping a component at its own share of tol, then power
//    iterations run until its residual meets tol, so it goes through what its separate
//    gauss-seidel run does (one thread, double: the same values; the tests hold any run within
//    1e-13 in L1 of its separate run);
//  - power (with dangling rank spread uniformly or by custom weights, or asked for): each vector
//    stops at its own iteration, when its own L1 change is <= tol, exactly as a separate power
//    iteration would, to the rounding of the dangling-rank sums; vectors still iterating are
//    packed into narrower rows as others finish.
//
// Threads: one call uses options.rank.threads threads; calls on other threads are independent.
#pragma once

#include <functional>
#include <vector>

#include "webrank/rank/rank.hpp"
#include "webrank/util/graph.hpp"

namespace webrank {

// Vectors computed in one sweep at most; a larger batch is run as consecutive groups of this many.
// (16 measured fastest per vector on cnr-2000, docs/personalization.md; a row is 128 bytes.)
inline constexpr std::size_t kBatchWidthMax = 16;

struct BatchProgress {
  int iteration = 0;         // of the group being computed, 1-based
  int vectors = 0;           // in the whole batch
  int done = 0;              // stopped so far (converged, stalled or at max_iter)
  double largest_delta = 0;  // the largest L1 change among the vectors still iterating
  double seconds = 0;        // since the batch started
};

struct BatchOptions {
  // Shared by every vector: damping, tol, max_iter, dangling (source, uniform; not leak or
  // remove), dangling_weights, start, precision, threads and stop. `source` must be empty (each
  // vector has its own); `method` auto, gauss-seidel or power (gauss-seidel where dangling rank
  // does not follow E means power); `summation` and `on_iteration` are not used; `on_progress`
  // reports gauss-seidel's component search and sweeps of large components.
  RankOptions rank;
  // Called on the calling thread after every power iteration (may be empty).
  std::function<void(const BatchProgress&)> on_iteration;
};

// One result per entry of `sources` (an empty PageWeights = uniform E), in the same order, each
// with its own iterations, deltas and convergence flags, the method that ran (kGaussSeidel or
// kPower) and batch_size = k.
// Throws Error (kInvalidArgument) for bad options or sources, naming the vector's position, and
// Error(kCancelled) on a stop request.
std::vector<RankResult> compute_rank_batch(const GraphView& graph,
                                           const std::vector<PageWeights>& sources,
                                           const BatchOptions& options);

}  // namespace webrank
