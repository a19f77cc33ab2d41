// webrank._core.Database (a link database opened from Python, its arrays shown without copying)
// and the functions that make one: build, crawl.
#pragma once

#include <pybind11/pybind11.h>

namespace webrank::python {

void bind_database(pybind11::module_& m);

}  // namespace webrank::python
