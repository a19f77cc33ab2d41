#include "py_operations.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "interruptible.hpp"
#include "webrank/app/app_json.hpp"
#include "webrank/app/operation.hpp"
#include "webrank/util/error.hpp"

namespace py = pybind11;

namespace webrank::python {
namespace {

[[noreturn]] void wrong_type(const std::string& what, const py::handle& v) {
  throw py::type_error(cat(what, ": cannot take a ",
                           std::string(py::str(py::type::of(v).attr("__name__"))),
                           " (numbers, strings, booleans, lists and dicts of them, NumPy arrays)"));
}

nlohmann::json array_json(const py::array& a, const std::string& what) {
  const char kind = a.dtype().kind();
  if (a.ndim() != 1) throw py::value_error(cat(what, ": must be a one-dimensional array"));
  nlohmann::json out = nlohmann::json::array();
  if (kind == 'f') {
    const auto d = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(a);
    out.get_ref<nlohmann::json::array_t&>().reserve(d.size());
    for (py::ssize_t i = 0; i < d.size(); ++i) out.push_back(d.data()[i]);
  } else if (kind == 'i' || kind == 'u') {
    const auto d = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(a);
    for (py::ssize_t i = 0; i < d.size(); ++i) out.push_back(d.data()[i]);
  } else if (kind == 'b') {
    for (auto item : a) out.push_back(item.cast<bool>());
  } else if (kind == 'U' || kind == 'O' || kind == 'S') {
    for (auto item : a) out.push_back(to_json(item, what));
  } else {
    wrong_type(what, a);
  }
  return out;
}

}  // namespace

int threads_argument(const py::handle& v) {
  if (py::isinstance<py::int_>(v) && !py::isinstance<py::bool_>(v)) {
    const auto n = v.cast<long long>();
    if (n < 0 || n > std::numeric_limits<int>::max())
      throw Error(ErrorKind::kInvalidArgument, cat("must be >= 0 (0 = all), got ", n), "threads");
    return static_cast<int>(n);
  }
  const bool number = py::isinstance<py::float_>(v) || py::isinstance<py::bool_>(v);
  throw Error(
      number ? ErrorKind::kInvalidArgument : ErrorKind::kInvalidType,
      cat("must be a whole number (0 = all), got ",
          std::string(py::str(py::type::of(v).attr("__name__"))), " ", std::string(py::repr(v))),
      "threads");
}

nlohmann::json to_json(const py::handle& v, const std::string& what) {
  if (v.is_none()) return nullptr;
  if (py::isinstance<py::bool_>(v)) return v.cast<bool>();
  if (py::isinstance<py::int_>(v)) {
    try {
      return v.cast<std::int64_t>();
    } catch (const py::cast_error&) {
      throw py::value_error(
          cat(what, ": ", std::string(py::str(v)), " is outside 64-bit integers"));
    }
  }
  if (py::isinstance<py::float_>(v)) return v.cast<double>();
  if (py::isinstance<py::str>(v)) return v.cast<std::string>();
  if (py::isinstance<py::array>(v)) return array_json(v.cast<py::array>(), what);
  // NumPy scalars (np.float64(0.85), np.int64(3)) and os.PathLike.
  if (py::hasattr(v, "dtype") && py::hasattr(v, "item")) return to_json(v.attr("item")(), what);
  if (py::hasattr(v, "__fspath__")) return v.attr("__fspath__")().cast<std::string>();
  if (py::isinstance<py::dict>(v)) {
    nlohmann::json out = nlohmann::json::object();
    for (auto [key, value] : v.cast<py::dict>()) {
      if (!py::isinstance<py::str>(key))
        throw py::type_error(cat(what, ": dict keys must be strings (page labels)"));
      out[key.cast<std::string>()] = to_json(value, what);
    }
    return out;
  }
  if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
    nlohmann::json out = nlohmann::json::array();
    for (auto item : v) out.push_back(to_json(item, what));
    return out;
  }
  wrong_type(what, v);
}

py::object to_python(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null:
      return py::none();
    case nlohmann::json::value_t::boolean:
      return py::bool_(j.get<bool>());
    case nlohmann::json::value_t::number_integer:
      return py::int_(j.get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned:
      return py::int_(j.get<std::uint64_t>());
    case nlohmann::json::value_t::number_float:
      return py::float_(j.get<double>());
    case nlohmann::json::value_t::string: {
      const auto& s = j.get_ref<const std::string&>();
      // Text from the web may be any bytes: invalid UTF-8 is replaced, as the JSON text does.
      return py::reinterpret_steal<py::object>(
          PyUnicode_DecodeUTF8(s.data(), static_cast<py::ssize_t>(s.size()), "replace"));
    }
    case nlohmann::json::value_t::array: {
      py::list out(j.size());
      for (std::size_t i = 0; i < j.size(); ++i) out[i] = to_python(j[i]);
      return out;
    }
    case nlohmann::json::value_t::object: {
      py::dict out;
      for (const auto& [key, value] : j.items()) out[py::str(key)] = to_python(value);
      return out;
    }
    default:
      return py::none();
  }
}

py::tuple call_operation(const std::string& name, app::Session* session, const py::dict& kwargs,
                         const py::object& callback) {
  const app::Operation& op = app::find_operation(name);
  if (op.access != app::Access::kNone && !session)
    throw py::type_error(cat(name, "() needs a database: call it as Database.", name, "()"));
  nlohmann::json options = nlohmann::json::object();
  app::Run run;
  for (auto [key, value] : kwargs) {
    const std::string k = py::str(key);
    if (value.is_none()) continue;  // not given: the declared default
    if (k == "threads") {
      run.threads = threads_argument(value);
      continue;
    }
    options[k] = to_json(value, k);
  }
  Interruptible job;
  if (!callback.is_none()) {
    run.on_progress = [&](const app::Progress& p) {
      if (const auto* i = std::get_if<IterationInfo>(&p))
        job.call_python([&] { callback(i->iteration, i->delta); });
    };
  }
  auto out = std::make_shared<app::Output>();
  job.run([&](std::stop_token stop) {
    run.stop = stop;
    *out = op.run(session, options, run);
  });
  py::dict arrays;
  for (auto& [vector, values] : out->arrays) {
    // The array owns the vector: no copy.
    auto* owned = new std::vector<double>(std::move(values));
    py::capsule owner(owned, [](void* p) { delete static_cast<std::vector<double>*>(p); });
    arrays[py::str(vector)] = py::array_t<double>(owned->size(), owned->data(), owner);
  }
  // Messages name options as keyword arguments are named: the library's own names.
  const auto bare = [](std::string_view f) { return std::string(f); };
  py::list warnings, errors;
  for (const auto& w : out->notices.warnings) warnings.append(with_option_names(w, bare));
  for (const auto& e : out->notices.errors) errors.append(with_option_names(e, bare));
  return py::make_tuple(to_python(out->json), arrays, warnings, out->notices.not_converged, errors);
}

void bind_operations(py::module_& m) {
  m.def("_operations", [] {
    py::list ops;
    for (const app::Operation& op : app::operations()) {
      nlohmann::json declared = op;  // app_json.hpp: the declarations' JSON form
      nlohmann::json specs = nlohmann::json::array();
      for (const nlohmann::json& spec : declared["options"]) {
        const auto& fronts = spec["fronts"];
        if (std::find(fronts.begin(), fronts.end(), "python") != fronts.end())
          specs.push_back(spec);
      }
      declared["options"] = std::move(specs);
      ops.append(to_python(declared));
    }
    return ops;
  });
  m.def(
      "_call",
      [](const std::string& name, const py::dict& kwargs, const py::object& callback) {
        return call_operation(name, nullptr, kwargs, callback);
      },
      py::arg("name"), py::arg("kwargs"), py::arg("callback") = py::none());
}

}  // namespace webrank::python
