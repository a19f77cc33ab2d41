// Issue 17's functions on a Database from Python: TrustRank and spam mass, seed candidates, the
// spam-farm report, personalized vectors in one batch (webrank/spam/spam.hpp,
// webrank/rank/batch.hpp).
#pragma once

#include <pybind11/pybind11.h>

namespace webrank::python {

// Adds the methods to the Database class bound by bind_database.
void bind_spam(pybind11::module_& m);

}  // namespace webrank::python
