// webrank._core.Database (a link database opened from Python, its arrays shown without copying)
// and the functions that make one: build, crawl.
#pragma once

#include <pybind11/pybind11.h>

namespace webrank {
class Database;
}

namespace webrank::python {

void bind_database(pybind11::module_& m);

// The webrank::Database inside a Python webrank.Database object.
const Database& database_of(const pybind11::object& self);

}  // namespace webrank::python
