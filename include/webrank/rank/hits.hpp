// HITS, hubs and authorities (Kleinberg 1999, "Authoritative sources in a hyperlinked
// environment"): the other link analysis every textbook pairs with PageRank. A page is a good
// authority when good hubs link to it, a good hub when it links to good authorities:
//
//   a(u) = Σ_{v→u} w(v,u)·h(v)      h(u) = Σ_{u→v} w(u,v)·a(v)
//
// a is the principal eigenvector of AᵀA and h of AAᵀ (A the link matrix, w = 1 on unweighted
// webs). Computed by the power method from h = uniform, each vector normalized to sum 1 after each
// step (NetworkX's normalization; igraph scales the largest to 1), until the L1 change of a plus
// that of h is <= tol. With a unique largest singular value of A this is the vector NetworkX and
// igraph compute; when it is repeated (several disconnected parts with the same one) the limit
// depends on the start vector, and webrank's is the one from the uniform start (Kleinberg's
// all-ones start). docs/ranking.md has the conventions.
//
// Stored as two rank vectors, NAME.authority and NAME.hub (NAME = "hits" by default), whose
// metadata says "algorithm": "hits" and "kind": "authority" or "hub" (docs/format.md): top,
// page, compare-ranks and export read them like any other vector.
#pragma once

#include <functional>
#include <stop_token>
#include <string>
#include <vector>

#include "webrank/rank/rank.hpp"
#include "webrank/store/database.hpp"
#include "webrank/util/graph.hpp"

namespace webrank {

struct HitsOptions {
  double tol = 1e-10;  // on ‖Δa‖₁ + ‖Δh‖₁
  int max_iter = 1000;
  int threads = 0;  // threads of this call (0 = OpenMP's default)
  // Called on the calling thread after every iteration (may be empty).
  std::function<void(const IterationInfo&)> on_iteration;
  // A stop request makes compute_hits throw Error(kCancelled) at its next iteration.
  std::stop_token stop;
};

// The Convergence part's changes are ‖Δa‖₁ + ‖Δh‖₁ per iteration; no error bound is known.
struct HitsResult : Convergence {
  std::vector<double> authorities, hubs;  // by page id, each summing to 1
};

// Throws Error: kInvalidArgument for a bad option or a web without links (no hub, no authority).
HitsResult compute_hits(const GraphView& graph, const HitsOptions& options);

// Stores `result` as NAME.authority and NAME.hub (each atomically, as save_ranks does). Throws
// Error: kInvalidArgument for a bad name, kIo when a file cannot be written.
void save_hits(const Database& db, const std::string& name, const HitsResult& result,
               const HitsOptions& options);

}  // namespace webrank
