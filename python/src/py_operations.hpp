// The operations of the app layer (webrank/app/operation.hpp) from Python: keyword arguments
// converted to the JSON the operation takes, the call run without the GIL and stoppable with
// Ctrl-C, its result back as Python objects. The methods of webrank.Database and the functions
// webrank.build, crawl, ... are made from these (python/webrank/_operations.py), and so is
// webrank.rank(graph), the one call on a web held in memory rather than a database: the same
// arguments, the same run, `rank`'s declarations (app::graph_rank_options).
//
// The package checks every argument by its declaration first (python/webrank/_arguments.py);
// what reaches these functions unchecked anyway is refused with the library's typed errors
// (webrank::Error, raised as webrank.Error subclasses), never pybind11's own.
#pragma once

#include <pybind11/pybind11.h>

#include <nlohmann/json.hpp>

#include "webrank/util/graph.hpp"

namespace webrank::app {
class Session;
}

namespace webrank::python {

// A JSON value for the Python value `v` (None, bool, int, float, str, list, tuple, dict with str
// keys, NumPy arrays and scalars, os.PathLike); Error kInvalidType naming `what` (the keyword)
// for anything else, kInvalidArgument for an int beyond 64 bits or a string that is not text
// (a lone surrogate).
nlohmann::json to_json(const pybind11::handle& v, const std::string& what);

// A Python object for a JSON value (dicts, lists, numbers, strings, None).
pybind11::object to_python(const nlohmann::json& j);

// Adds _operations() (the table, for the package to make its methods and stubs from) and
// _call(name, kwargs, callback) to the module.
void bind_operations(pybind11::module_& m);

// Runs operation `name` on `session` (null for those that need no database) with `kwargs`;
// `callback(iteration, delta)` (None: none) is called after every iteration of a solve. Returns
// (result, arrays, warnings, not_converged, errors): the operation's JSON form as Python objects,
// its computed vectors as {name: float64 array}, and its notices.
pybind11::tuple call_operation(const std::string& name, app::Session* session,
                               const pybind11::dict& kwargs, const pybind11::object& callback);

// PageRank of `graph` with `kwargs` (rank's options that need no database: damping, tol,
// max_iter, dangling, method, precision, sweep, block_pages, threads; source, start and
// dangling_weights as one value per page) and `callback` as call_operation has them. Returns
// (ranks, info): the ranks as a float64 array (no copy), info the result's JSON form; a run that
// did not converge is returned as such (info["converged"] is False).
pybind11::tuple rank_graph(const GraphView& graph, const pybind11::dict& kwargs,
                           const pybind11::object& callback);

}  // namespace webrank::python
