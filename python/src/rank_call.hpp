// One ranking call from Python, shared by webrank._core.rank (in-memory graphs) and
// Database.rank: keyword options -> RankOptions, the solve without the GIL, the result as a
// NumPy array (no copy) and a dict.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <functional>

#include <nlohmann/json.hpp>

#include "webrank/rank/rank.hpp"

namespace webrank::python {

// Options by keyword, with the library's names: damping, tol, max_iter, dangling ("source",
// "uniform", "leak", "remove"), method ("power", "paper", "direct", "gauss-seidel",
// "extrapolate", "auto"), precision ("double", "float"), threads, summation, and three dense
// float64 arrays of one value per page (None = the default): source (E), start, dangling_weights.
// `callback(iteration, delta)` is called after every iteration of an iterative solver. Unknown
// keywords raise TypeError.
//
// Solves over `graph` and returns (ranks, info): the ranks as a float64 array owning the result's
// vector, info the result's JSON form as a dict. `after` (may be empty) runs on the result while
// the GIL is still released (Database.rank stores it there). A run that did not converge is
// returned as such (info["converged"] is False).
pybind11::tuple rank_graph(const GraphView& graph, const pybind11::kwargs& options,
                           const std::function<void(const RankResult&, const RankOptions&)>& after);

// Links above which a solve runs on a worker thread, interruptible with Ctrl-C
// (below it the thread would cost more than the solve).
inline constexpr std::uint64_t kBackgroundLinks = 200000;

// A Python object for a JSON value (dicts, lists, numbers, strings, None).
pybind11::object to_python(const nlohmann::json& j);

}  // namespace webrank::python
