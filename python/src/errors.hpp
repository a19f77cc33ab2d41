// webrank::Error -> Python exceptions by kind (the classes live in webrank/_errors.py).
#pragma once

#include <pybind11/pybind11.h>

namespace webrank::python {

// Registers the translator: a webrank::Error becomes the exception class of its kind
// (InvalidArgumentError, ..., with `kind` and `field` attributes), std::bad_alloc MemoryError.
void register_errors(pybind11::module_& m);

}  // namespace webrank::python
