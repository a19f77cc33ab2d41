// Harmonic centrality (Boldi and Vigna, "Axioms for centrality", 2014): the measure open search
// engines such as Stract use beside PageRank. For a page x,
//
//   H(x) = Σ_{y ≠ x} 1 / d(y, x)
//
// over the pages y that reach x, d(y, x) being the number of links on a shortest path from y to
// x (distances *to* x: a page is central when many pages reach it in few clicks). This is what
// NetworkX's harmonic_centrality computes on a directed graph. Link weights are ignored.
//
// Computed by HyperBall (Boldi and Vigna, "In-core computation of geometric centralities with
// HyperBall", 2013): every page keeps a counter of the ball B_t(x) = {y : d(y, x) <= t}, grown
// one step per iteration by the union of the counters of its backlinks,
//   B_t(x) = B_{t-1}(x) ∪ ⋃_{y→x} B_{t-1}(y),
// and H(x) = Σ_t (|B_t(x)| − |B_{t−1}(x)|) / t, until no ball grows (the web's radius). The
// counters are HyperLogLog counters of 2^log2m one-byte registers (relative standard error
// about 1.04/sqrt(2^log2m) per ball: 9% at the default 128 registers), or, on small webs,
// exact sets (bitsets of N bits per page, 2·N²/8 bytes in all), which give H exactly.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <stop_token>
#include <vector>

#include "webrank/util/graph.hpp"

#include "webrank/util/named.hpp"

namespace webrank {

enum class BallCounters {
  kAuto,         // exact up to exact_max_pages pages, HyperLogLog above
  kExact,        // bitsets: exact H, N²/4 bytes
  kHyperLogLog,  // 2^log2m registers per page, two copies: 2^(log2m+1) bytes per page
};

// "auto", "exact", "hyperloglog" (webrank/util/named.hpp).
std::span<const Named<BallCounters>> names(BallCounters);

struct HarmonicProgress {
  int distance = 0;                 // t of the iteration just done
  std::uint64_t pages_changed = 0;  // pages whose ball grew
  double seconds = 0;
};

struct HarmonicOptions {
  BallCounters counters = BallCounters::kAuto;
  int log2m = 7;                          // HyperLogLog registers per page: 2^log2m, in [4, 16]
  std::uint64_t exact_max_pages = 16384;  // kAuto's limit for exact counters (64 MiB)
  std::uint64_t seed = 0x5eed;            // of the HyperLogLog hash
  int threads = 0;                        // of this call (0 = OpenMP's default)
  std::function<void(const HarmonicProgress&)> on_progress;  // after every iteration; may be empty
  std::stop_token stop;  // a stop request throws Error(kCancelled) at the next iteration
};

struct HarmonicResult {
  std::vector<double> values;  // H by page id
  bool exact = false;
  int log2m = 0;       // of the HyperLogLog counters (0 when exact)
  int iterations = 0;  // distances explored: the largest finite distance to a page (+1 when the
                       // last iteration found nothing new)
  // The neighbourhood function: Σ_x |B_t(x)| for t = 0, 1, ...: pairs (y, x) with d(y, x) <= t
  // (estimated with HyperLogLog counters).
  std::vector<double> reachable_pairs;
  double seconds = 0;
};

// Throws Error: kInvalidArgument for a bad option (log2m out of range, exact counters asked on
// a web too large for memory: more than 2^20 pages), kCancelled on a stop request.
HarmonicResult harmonic_centrality(const GraphView& graph, const HarmonicOptions& options);

}  // namespace webrank
