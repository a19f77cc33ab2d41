// webrank._core: the C++ half of the Python module (docs/python.md). The package webrank
// (python/webrank/) wraps it with NetworkX, SciPy and igraph conversions.
#include <pybind11/pybind11.h>

#include "errors.hpp"
#include "py_database.hpp"
#include "py_graph.hpp"
#include "py_operations.hpp"

PYBIND11_MODULE(_core, m) {
  m.doc() = "webrank's C++ core (use the webrank package, not this module)";
  webrank::python::register_errors(m);
  webrank::python::bind_graph(m);
  webrank::python::bind_database(m);
  webrank::python::bind_operations(m);
}
