#include "rank_call.hpp"

#include <memory>
#include <string>
#include <utility>

#include "enums.hpp"
#include "interruptible.hpp"
#include "webrank/json.hpp"
#include "webrank/util/error.hpp"

namespace py = pybind11;

namespace webrank::python {
namespace {

// A dense array of one non-negative weight per page -> the sparse weights the solver takes.
PageWeights page_weights(const std::string& field, const py::handle& value, PageId pages) {
  auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(value);
  if (!a || a.ndim() != 1 || static_cast<std::uint64_t>(a.shape(0)) != pages)
    fail_option(field, "must be an array of ", pages, " numbers (one per page)");
  PageWeights w;
  const double* x = a.data();
  for (PageId u = 0; u < pages; ++u) {
    if (!(x[u] >= 0) || !std::isfinite(x[u]))
      fail_option(field, "must hold finite numbers >= 0, got ", x[u], " at ", u);
    if (x[u] != 0) w.emplace_back(u, x[u]);
  }
  return w;
}

}  // namespace

py::object to_python(const nlohmann::json& j) {
  return py::module_::import("json").attr("loads")(webrank::json_text(j, -1));
}

py::tuple rank_graph(const GraphView& graph, const py::kwargs& options,
                     const std::function<void(const RankResult&, const RankOptions&)>& after) {
  RankOptions o;
  py::object callback = py::none();
  for (auto [key, value] : options) {
    const std::string k = py::str(key);
    if (value.is_none() && k != "callback") continue;
    if (k == "damping") {
      o.damping = value.cast<double>();
    } else if (k == "tol") {
      o.tol = value.cast<double>();
    } else if (k == "max_iter") {
      o.max_iter = value.cast<int>();
    } else if (k == "threads") {
      o.threads = value.cast<int>();
    } else if (k == "dangling") {
      o.dangling =
          parse_enum(k, value.cast<std::string>(),
                     {Dangling::kSource, Dangling::kUniform, Dangling::kLeak, Dangling::kRemove});
    } else if (k == "method") {
      o.method = parse_enum(k, value.cast<std::string>(),
                            {Method::kPower, Method::kPaper, Method::kDirect, Method::kGaussSeidel,
                             Method::kExtrapolate, Method::kAuto});
    } else if (k == "precision") {
      o.precision =
          parse_enum(k, value.cast<std::string>(), {Precision::kDouble, Precision::kFloat});
    } else if (k == "summation") {
      o.summation = parse_enum(k, value.cast<std::string>(),
                               {Summation::kAuto, Summation::kPull, Summation::kBlocked});
    } else if (k == "source") {
      o.source = page_weights(k, value, graph.num_pages);
    } else if (k == "start") {
      o.start = page_weights(k, value, graph.num_pages);
    } else if (k == "dangling_weights") {
      o.dangling_weights = page_weights(k, value, graph.num_pages);
    } else if (k == "callback") {
      callback = py::reinterpret_borrow<py::object>(value);
    } else {
      throw py::type_error("rank() got an unexpected keyword argument '" + k + "'");
    }
  }
  Interruptible run;
  if (!callback.is_none()) {
    o.on_iteration = [&](const IterationInfo& i) {
      run.call_python([&] { callback(i.iteration, i.delta); });
    };
  }
  auto result = std::make_unique<RankResult>();
  run.run(
      [&](std::stop_token stop) {
        o.stop = stop;
        *result = compute_rank(graph, o);
        if (after) after(*result, o);
      },
      graph.num_links > kBackgroundLinks);
  py::object info = to_python(nlohmann::json(*result));
  // The array owns the result's vector: no copy.
  auto* values = new std::vector<double>(std::move(result->ranks));
  py::capsule owner(values, [](void* p) { delete static_cast<std::vector<double>*>(p); });
  py::array_t<double> ranks(values->size(), values->data(), owner);
  return py::make_tuple(ranks, info);
}

}  // namespace webrank::python
