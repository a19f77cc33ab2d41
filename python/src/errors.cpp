#include "errors.hpp"

#include <filesystem>
#include <new>
#include <string>

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

// Raises the webrank.Error subclass of `kind` with `message` about option `field` ("": none).
void raise(ErrorKind kind, const std::string& message, const std::string& field) {
  py::object cls = py::module_::import("webrank._errors").attr(class_name(kind));
  // Messages quote files and labels, which may be any bytes: what is not UTF-8 is replaced.
  py::object error = cls(py::reinterpret_steal<py::object>(
      PyUnicode_DecodeUTF8(message.data(), static_cast<py::ssize_t>(message.size()), "replace")));
  error.attr("kind") = to_string(kind);
  error.attr("field") = field.empty() ? py::none() : py::object(py::str(field));
  PyErr_SetObject(cls.ptr(), error.ptr());
}

}  // namespace

void register_errors(py::module_&) {
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      // Options are named as keyword arguments are: the library's own names.
      raise(e.kind(), e.message([](std::string_view f) { return std::string(f); }), e.field());
    } catch (const py::cast_error& e) {
      // An argument the package did not check reached a member typed in C++.
      raise(ErrorKind::kInvalidType, e.what(), "");
    } catch (const py::error_already_set&) {
      throw;  // a Python exception (a callback's, KeyboardInterrupt): itself
    } catch (const py::builtin_exception&) {
      throw;  // raised on purpose as a built-in exception (IndexError)
    } catch (const std::bad_alloc&) {
      throw;  // MemoryError
    } catch (const std::filesystem::filesystem_error& e) {
      raise(ErrorKind::kIo, e.what(), "");
    } catch (const std::exception& e) {
      // Every failure of the library is an Error: anything else is a bug.
      raise(ErrorKind::kInternal, e.what(), "");
    }
  });
}

}  // namespace webrank::python
