// In-memory graphs from Python: NetworkX adjacency dicts, (src, dst[, weight]) arrays, CSR
// matrices; ranked by webrank._core.rank.
#pragma once

#include <pybind11/pybind11.h>

namespace webrank::python {

void bind_graph(pybind11::module_& m);

}  // namespace webrank::python
