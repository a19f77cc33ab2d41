#include "rank_call.hpp"

#include <memory>
#include <string>
#include <utility>

#include "interruptible.hpp"
#include "py_operations.hpp"
#include "webrank/app/app_json.hpp"
#include "webrank/app/ranking.hpp"
#include "webrank/util/error.hpp"

namespace py = pybind11;

namespace webrank::python {

py::tuple rank_graph(const GraphView& graph, const py::kwargs& options) {
  // The options as `rank` declares them (webrank/app/ranking.hpp): one declaration for every
  // front end, arrays of one value per page for the weights.
  nlohmann::json given = nlohmann::json::object();
  py::object callback = py::none();
  int threads = 0;
  for (auto [key, value] : options) {
    const std::string k = py::str(key);
    if (k == "callback") {
      callback = py::reinterpret_borrow<py::object>(value);
      continue;
    }
    if (value.is_none()) continue;
    if (k == "threads") {
      threads = threads_argument(value);
      continue;
    }
    given[k] = to_json(value, k);
  }
  RankOptions o = app::graph_rank_options(given, graph.num_pages);
  o.threads = threads;
  Interruptible run;
  if (!callback.is_none()) {
    o.on_iteration = [&](const IterationInfo& i) {
      run.call_python([&] { callback(i.iteration, i.delta); });
    };
  }
  auto result = std::make_unique<RankResult>();
  // Always on a worker thread: Ctrl-C stops a solve of any size.
  run.run([&](std::stop_token stop) {
    o.stop = stop;
    *result = compute_rank(graph, o);
  });
  py::object info = to_python(nlohmann::json(*result));
  // The array owns the result's vector: no copy.
  auto* values = new std::vector<double>(std::move(result->ranks));
  py::capsule owner(values, [](void* p) { delete static_cast<std::vector<double>*>(p); });
  py::array_t<double> ranks(values->size(), values->data(), owner);
  return py::make_tuple(ranks, info);
}

}  // namespace webrank::python
