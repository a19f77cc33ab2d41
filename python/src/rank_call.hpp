// webrank._core.rank(graph, **options): PageRank of a web held in memory (webrank.Graph), with
// the options `rank` declares (webrank/app/ranking.hpp), the solve without the GIL and stoppable
// with Ctrl-C, the result a NumPy array (no copy) and a dict.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "webrank/rank/rank.hpp"

namespace webrank::python {

// Options by keyword, with the library's names: damping, tol, max_iter, dangling, method,
// precision, sweep, block_pages, threads; source (E), start and dangling_weights as arrays of
// one value per page (None: the default); callback(iteration, delta) after every iteration.
// Returns (ranks, info): the ranks as a float64 array, info the result's JSON form as a dict.
// A run that did not converge is returned as such (info["converged"] is False).
pybind11::tuple rank_graph(const GraphView& graph, const pybind11::kwargs& options);

}  // namespace webrank::python
