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
#include "webrank/app/ranking.hpp"
#include "webrank/util/error.hpp"

namespace py = pybind11;

namespace webrank::python {
namespace {

std::string type_name(const py::handle& v) {
  return py::str(py::type::of(v).attr("__name__"));
}

[[noreturn]] void wrong_type(const std::string& what, const py::handle& v) {
  throw Error(ErrorKind::kInvalidType,
              cat("cannot take a ", type_name(v),
                  " (numbers, strings, booleans, lists and dicts of them, NumPy arrays)"),
              what);
}

// The UTF-8 of a str; a lone surrogate (os.fsdecode's stand-in for a byte that is not UTF-8) is
// refused, not passed on as text that is none.
std::string utf8(const py::handle& v, const std::string& what) {
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(v.ptr(), &size);
  if (!data) {
    PyErr_Clear();
    throw Error(ErrorKind::kInvalidArgument, "holds a lone surrogate: not text", what);
  }
  return std::string(data, static_cast<std::size_t>(size));
}

nlohmann::json array_json(const py::array& a, const std::string& what) {
  const char kind = a.dtype().kind();
  if (a.ndim() != 1) fail_option(what, "must be a one-dimensional array");
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
  } else if (kind == 'U' || kind == 'O') {
    for (auto item : a) out.push_back(to_json(item, what));
  } else {
    wrong_type(what, a);
  }
  return out;
}

// The `threads` keyword (threads of this call, 0 = all): an int, else Error kInvalidType (a
// string) or kInvalidArgument (a float, a bool), field "threads", as declared options are
// refused.
int threads_argument(const py::handle& v) {
  if (py::isinstance<py::int_>(v) && !py::isinstance<py::bool_>(v)) {
    long long n = 0;
    try {
      n = v.cast<long long>();
    } catch (const py::cast_error&) {
      n = -1;
    }
    if (n < 0 || n > std::numeric_limits<int>::max())
      throw Error(ErrorKind::kInvalidArgument,
                  cat("must be >= 0 (0 = all), got ", std::string(py::repr(v))), "threads");
    return static_cast<int>(n);
  }
  const bool number = py::isinstance<py::float_>(v) || py::isinstance<py::bool_>(v);
  throw Error(
      number ? ErrorKind::kInvalidArgument : ErrorKind::kInvalidType,
      cat("must be a whole number (0 = all), got ", type_name(v), " ", std::string(py::repr(v))),
      "threads");
}

// The keyword arguments of a call as the library takes them: the options as a JSON object (None
// is not given: the declared default) and the call's threads.
struct CallArguments {
  nlohmann::json options = nlohmann::json::object();
  int threads = 0;
};

CallArguments call_arguments(const py::dict& kwargs) {
  CallArguments out;
  for (auto [key, value] : kwargs) {
    const std::string k = utf8(key, "keyword");
    if (value.is_none()) continue;
    if (k == "threads") {
      out.threads = threads_argument(value);
      continue;
    }
    out.options[k] = to_json(value, k);
  }
  return out;
}

// What reports a solve's iterations to `callback(iteration, delta)` through `job` (empty for
// None). Both by reference: the library copies the function on its threads, which must not touch
// a Python object's count of references without the GIL.
std::function<void(const IterationInfo&)> iteration_callback(Interruptible& job,
                                                             const py::object& callback) {
  if (callback.is_none()) return {};
  return [&job, &callback](const IterationInfo& i) {
    job.call_python([&] { callback(i.iteration, i.delta); });
  };
}

// A float64 array that owns `values`: no copy.
py::array_t<double> owned_array(std::vector<double>&& values) {
  auto* owned = new std::vector<double>(std::move(values));
  py::capsule owner(owned, [](void* p) { delete static_cast<std::vector<double>*>(p); });
  return py::array_t<double>(owned->size(), owned->data(), owner);
}

}  // namespace

nlohmann::json to_json(const py::handle& v, const std::string& what) {
  if (v.is_none()) return nullptr;
  if (py::isinstance<py::bool_>(v)) return v.cast<bool>();
  if (py::isinstance<py::int_>(v)) {
    try {
      if (PyObject_RichCompareBool(v.ptr(), py::int_(0).ptr(), Py_LT) == 1)
        return v.cast<std::int64_t>();
      return v.cast<std::uint64_t>();
    } catch (const py::cast_error&) {
      throw Error(ErrorKind::kInvalidArgument,
                  cat("must be within 64-bit integers, got ", std::string(py::str(v))), what);
    }
  }
  if (py::isinstance<py::float_>(v)) return v.cast<double>();
  if (py::isinstance<py::str>(v)) return utf8(v, what);
  if (py::isinstance<py::array>(v)) return array_json(v.cast<py::array>(), what);
  // NumPy scalars (np.float64(0.85), np.int64(3)) and os.PathLike.
  if (py::hasattr(v, "dtype") && py::hasattr(v, "item")) return to_json(v.attr("item")(), what);
  if (py::hasattr(v, "__fspath__")) {
    const py::object path = v.attr("__fspath__")();
    if (!py::isinstance<py::str>(path)) wrong_type(what, path);
    return utf8(path, what);
  }
  if (py::isinstance<py::dict>(v)) {
    nlohmann::json out = nlohmann::json::object();
    for (auto [key, value] : v.cast<py::dict>()) {
      if (!py::isinstance<py::str>(key))
        throw Error(ErrorKind::kInvalidType, "must have strings (page labels) as keys", what);
      out[utf8(key, what)] = to_json(value, what);
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
    fail(ErrorKind::kInvalidArgument, name, "() needs a database: call it as Database.", name,
         "()");
  const CallArguments args = call_arguments(kwargs);
  app::Run run;
  run.threads = args.threads;
  Interruptible job;
  if (const auto report = iteration_callback(job, callback)) {
    run.on_progress = [report](const app::Progress& p) {
      if (const auto* i = std::get_if<IterationInfo>(&p)) report(*i);
    };
  }
  auto out = std::make_shared<app::Output>();
  job.run([&](std::stop_token stop) {
    run.stop = stop;
    *out = op.run(session, args.options, run);
  });
  py::dict arrays;
  for (auto& [vector, values] : out->arrays)
    arrays[py::str(vector)] = owned_array(std::move(values));
  // Messages name options as keyword arguments are named: the library's own names.
  const auto bare = [](std::string_view f) { return std::string(f); };
  py::list warnings, errors;
  for (const auto& w : out->notices.warnings) warnings.append(with_option_names(w, bare));
  for (const auto& e : out->notices.errors) errors.append(with_option_names(e, bare));
  return py::make_tuple(to_python(out->json), arrays, warnings, out->notices.not_converged, errors);
}

py::tuple rank_graph(const GraphView& graph, const py::dict& kwargs, const py::object& callback) {
  const CallArguments args = call_arguments(kwargs);
  RankOptions o = app::graph_rank_options(args.options, graph.num_pages);
  o.threads = args.threads;
  Interruptible job;
  o.on_iteration = iteration_callback(job, callback);
  auto result = std::make_unique<RankResult>();
  // Always on a worker thread: Ctrl-C stops a solve of any size.
  job.run([&](std::stop_token stop) {
    o.stop = stop;
    *result = compute_rank(graph, o);
  });
  py::object info = to_python(nlohmann::json(*result));
  return py::make_tuple(owned_array(std::move(result->ranks)), info);
}

namespace {

// The specs of `options` that Python offers, as JSON (app_json.hpp: the declarations' form).
nlohmann::json python_specs(const nlohmann::json& options) {
  nlohmann::json specs = nlohmann::json::array();
  for (const nlohmann::json& spec : options) {
    const auto& fronts = spec["fronts"];
    if (std::find(fronts.begin(), fronts.end(), "python") != fronts.end()) specs.push_back(spec);
  }
  return specs;
}

}  // namespace

void bind_operations(py::module_& m) {
  m.def("_operations", [] {
    py::list ops;
    for (const app::Operation& op : app::operations()) {
      nlohmann::json declared = op;
      declared["options"] = python_specs(declared["options"]);
      ops.append(to_python(declared));
    }
    return ops;
  });
  // webrank.rank(graph)'s keywords: rank's that need no database, and the run's.
  m.def("_graph_rank_options", [] {
    nlohmann::json specs = app::graph_rank_option_specs();
    for (const app::OptionSpec& s : app::run_options()) specs.push_back(s);
    return to_python(python_specs(specs));
  });
  m.def(
      "_call",
      [](const std::string& name, const py::dict& kwargs, const py::object& callback) {
        return call_operation(name, nullptr, kwargs, callback);
      },
      py::arg("name"), py::arg("kwargs"), py::arg("callback") = py::none());
}

}  // namespace webrank::python
