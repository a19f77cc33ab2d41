// The operations of the app layer (webrank/app/operation.hpp) from Python: keyword arguments
// converted to the JSON the operation takes, the call run without the GIL and stoppable with
// Ctrl-C, its result back as Python objects. The methods of webrank.Database and the functions
// webrank.build, crawl, ... are made from these (python/webrank/_operations.py).
#pragma once

#include <pybind11/pybind11.h>

#include <nlohmann/json.hpp>

namespace webrank::app {
class Session;
}

namespace webrank::python {

// A JSON value for the Python value `v` (None, bool, int, float, str, list, tuple, dict with str
// keys, NumPy arrays and scalars), or TypeError naming `what` (the keyword) for anything else;
// OverflowError for an int outside 64 bits.
nlohmann::json to_json(const pybind11::handle& v, const std::string& what);

// The `threads` keyword (threads of this call, 0 = all): an int, else Error kInvalidType (a
// string) or kInvalidArgument (a float, a bool), field "threads", as declared options are
// refused.
int threads_argument(const pybind11::handle& v);

// A Python object for a JSON value (dicts, lists, numbers, strings, None).
pybind11::object to_python(const nlohmann::json& j);

// Adds _operations() (the table, for the package to make its methods and stubs from) and
// _call(name, session or None, kwargs, callback) to the module.
void bind_operations(pybind11::module_& m);

// Runs operation `name` on `session` (null for those that need no database) with `kwargs`;
// `callback(iteration, delta)` (None: none) is called after every iteration of a solve. Returns
// (result, arrays, warnings, not_converged, errors): the operation's JSON form as Python objects,
// its computed vectors as {name: float64 array}, and its notices.
pybind11::tuple call_operation(const std::string& name, app::Session* session,
                               const pybind11::dict& kwargs, const pybind11::object& callback);

}  // namespace webrank::python
