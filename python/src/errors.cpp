#include "errors.hpp"

#include "webrank/util/error.hpp"

namespace py = pybind11;

namespace webrank::python {
namespace {

const char* class_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kInvalidArgument:
      return "InvalidArgumentError";
    case ErrorKind::kInvalidType:
      return "InvalidTypeError";
    case ErrorKind::kInvalidInput:
      return "InvalidInputError";
    case ErrorKind::kNotFound:
      return "NotFoundError";
    case ErrorKind::kExists:
      return "ExistsError";
    case ErrorKind::kCorrupt:
      return "CorruptError";
    case ErrorKind::kIo:
      return "IoError";
    case ErrorKind::kCancelled:
      return "CancelledError";
    case ErrorKind::kConflict:
      return "ConflictError";
    case ErrorKind::kInternal:
      return "InternalError";
  }
  return "Error";
}

}  // namespace

void register_errors(py::module_&) {
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      // Options are named as keyword arguments are: the library's own names.
      const std::string message = e.message([](std::string_view f) { return std::string(f); });
      py::object cls = py::module_::import("webrank._errors").attr(class_name(e.kind()));
      py::object error = cls(message);
      error.attr("kind") = to_string(e.kind());
      error.attr("field") = e.field().empty() ? py::none() : py::object(py::str(e.field()));
      PyErr_SetObject(cls.ptr(), error.ptr());
    }
  });
}

}  // namespace webrank::python
