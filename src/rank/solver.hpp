// Internal interface between the rank dispatcher (rank.cpp) and the solvers: a validated problem
// with its distributions materialized.
#pragma once

#include <optional>
#include <vector>

#include "util/fresh_memory.hpp"
#include "util/parallel.hpp"
#include "webrank/rank/rank.hpp"
#include "webrank/util/graph.hpp"

namespace webrank {

// A probability distribution over pages: uniform (no storage) or dense.
struct Distribution {
  std::vector<double> dense;  // empty = uniform
  double uniform_value = 0;
  double operator[](PageId u) const { return dense.empty() ? uniform_value : dense[u]; }
  bool is_uniform() const { return dense.empty(); }

  static Distribution uniform(PageId n);
  // Normalizes non-negative weights to sum 1 over the n pages, and keeps the pages
  // [first, first + count) (indexed from 0: a distributed run's part of the web). Throws Error
  // mentioning `what` when they are negative, non-finite, refer to pages out of range, or are all
  // zero. Uniform when `weights` is empty.
  static Distribution from_weights(const PageWeights& weights, PageId n, const char* what,
                                   PageId first, PageId count);
  static Distribution from_weights(const PageWeights& weights, PageId n, const char* what) {
    return from_weights(weights, n, what, 0, n);
  }
};

struct Problem {
  const GraphView* graph = nullptr;
  double damping = 0.85;
  Distribution source;    // E
  Distribution dangling;  // D, where dangling rank goes (unused when leak)
  bool leak = false;
  bool dangling_is_source = true;  // D == E: lets the direct solver skip a second solve
  Distribution start;              // R0
  // The graph's strongly connected components in topological order when they are known (auto
  // finds them before it chooses); gauss-seidel by component searches for them otherwise.
  std::optional<ComponentOrder> components;
};

// Throws Error (kInvalidArgument, naming the option) unless the options suit a web of
// `num_pages` pages, weighted or not.
void validate_rank_options(PageId num_pages, bool weighted, const RankOptions& o);
// The problem the options state, over the pages [first, first + count) of a web of `num_pages`
// (all of them in one process; a part's in a distributed run, its distributions normalized
// over the whole web). `graph` may be null where the solver does not read it.
Problem make_problem(const GraphView* graph, PageId num_pages, const RankOptions& o, PageId first,
                     PageId count);

// A solver of the table (solvers.cpp): the vector of problem `p` with options `o`.
using SolveFunction = RankResult (*)(const Problem& p, const RankOptions& o);

RankResult power_iteration(const Problem& p, const RankOptions& o);
RankResult direct_solve(const Problem& p, const RankOptions& o);
// Gauss–Seidel over all pages at once (gauss_seidel_whole_web.cpp), for any problem.
RankResult gauss_seidel_whole_web(const Problem& p, const RankOptions& o);
RankResult rank_removing_dangling(const Problem& p, const RankOptions& o);

// Gauss–Seidel by strongly connected component (gauss_seidel_by_component.cpp): exact for
// problems where dangling rank goes along E or leaks, and d < 1; --method gauss-seidel uses it
// then, and the whole-web sweeps otherwise.
bool gauss_seidel_by_component_applies(const Problem& p);
RankResult gauss_seidel_by_component(const Problem& p, const RankOptions& o);

// --method auto (auto_method.cpp): power iterations, or gauss_seidel_by_component() once their
// rate predicts a long run.
RankResult auto_method(const Problem& p, const RankOptions& o);

// Power iteration (power, paper, extrapolate) with the links streamed from the files `p.graph`
// maps, in blocks released after use, within o.memory_budget bytes of resident memory
// (out_of_core.cpp). p.graph must point into a Database's mapped files.
RankResult rank_out_of_core(const Problem& p, const RankOptions& o);

// Runs the solver of o.method (its row in solvers.cpp), then, if its stopping rule does not bound
// the residual --tol promises, power iterations until it holds (webrank/rank/rank.hpp).
RankResult solve(const Problem& p, const RankOptions& o);

}  // namespace webrank
