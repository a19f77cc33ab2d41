// Internal interface between the rank dispatcher (rank.cpp) and the solvers: a validated problem
// with its distributions materialized.
#pragma once

#include <cstdint>
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

// The rank sources of a group of at most kBatchWidthMax vectors (webrank/rank/batch.hpp), by page:
// sources are mostly sparse (a page, bookmarks, a topic's pages), so E is kept as a uniform part
// per vector plus a per-page list of (vector, weight) entries, not as k dense vectors.
struct SourceRows {
  std::vector<double> uniform;         // per vector: the value of a uniform E (1/n), else 0
  std::vector<std::uint64_t> offsets;  // n + 1: page u's entries are [offsets[u], offsets[u+1])
  std::vector<std::uint32_t> vector;   // the entry's vector (position in the group)
  std::vector<double> weight;          // E_vector(u), normalized

  // Throws Error (kInvalidArgument) naming the vector's position in the whole batch (`first` is
  // the group's) when a source is not a distribution over the n pages.
  SourceRows(const std::vector<PageWeights>& sources, PageId n, std::size_t first);

  std::size_t size() const { return uniform.size(); }
  // E of every vector of the group at page u, into e[0, size()).
  void at(PageId u, double* e) const {
    for (std::size_t j = 0; j < uniform.size(); ++j) e[j] = uniform[j];
    for (std::uint64_t i = offsets[u]; i < offsets[u + 1]; ++i) e[vector[i]] = weight[i];
  }
};

// Gauss–Seidel by component for a group of vectors at once (one row of values per page, the
// components found once for all of them); p's source is unused, `sources` gives each vector's.
// Applies where gauss_seidel_by_component_applies() would for each vector alone with dangling
// rank sent along its own E (not leaked). Each vector's result is what its separate run returns
// (on one thread the same values; on several, within the tolerance), with batch_size unset.
std::vector<RankResult> gauss_seidel_by_component_batch(const Problem& p, const RankOptions& o,
                                                        const SourceRows& sources);

// --method auto (auto_method.cpp): power iterations, or gauss_seidel_by_component() once their
// rate predicts a long run.
RankResult auto_method(const Problem& p, const RankOptions& o);

// Power iteration (power, paper, extrapolate) with the links streamed from the files `p.graph`
// maps, in blocks released after use, within o.memory_budget bytes of resident memory
// (out_of_core.cpp). p.graph must point into a Database's mapped files.
RankResult rank_out_of_core(const Problem& p, const RankOptions& o);

// `r` (converged by its method's own rule) continued by `finished`, the power iterations that
// started from r's vector until their change met --tol: r's iterations, deltas and phases with
// finished's appended, its first change recorded as r's measured residual, finished's vector and
// convergence.
RankResult continued(RankResult r, RankResult finished);

// Runs the solver of o.method (its row in solvers.cpp), then, if its stopping rule does not bound
// the residual --tol promises, power iterations until it holds (webrank/rank/rank.hpp).
RankResult solve(const Problem& p, const RankOptions& o);

}  // namespace webrank
