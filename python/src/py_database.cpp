#include "py_database.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "enums.hpp"
#include "interruptible.hpp"
#include "rank_call.hpp"
#include "webrank/crawl/crawl.hpp"
#include "webrank/ingest/build.hpp"
#include "webrank/json.hpp"
#include "webrank/rank/presentation.hpp"
#include "webrank/rank/rank.hpp"
#include "webrank/search/links.hpp"
#include "webrank/search/search.hpp"
#include "webrank/store/database.hpp"
#include "webrank/store/rank_store.hpp"
#include "webrank/store/summary.hpp"
#include "webrank/util/error.hpp"

namespace py = pybind11;

namespace webrank::python {
namespace {

// The open database and the searchers opened on it (by rank vector name).
struct PyDatabase {
  Database db;
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<Searcher>> searchers;
};

PyDatabase& unwrap(const py::object& self) {
  return self.cast<PyDatabase&>();
}

// A read-only NumPy array over memory that `owner` keeps alive: no copy.
template <typename T>
py::array view(std::span<const T> values, const py::object& owner) {
  py::array_t<T> a({static_cast<py::ssize_t>(values.size())}, {static_cast<py::ssize_t>(sizeof(T))},
                   values.data(), owner);
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

// A property showing one array of the web's CSR (`pick` chooses it) in place.
template <typename Pick>
auto csr(Pick pick) {
  return [pick](const py::object& self) { return view(pick(unwrap(self).db.graph()), self); };
}

PageId checked_page(const PyDatabase& d, std::int64_t id) {
  if (id < 0 || static_cast<std::uint64_t>(id) >= d.db.num_pages())
    throw py::index_error(cat("page id ", id, " outside [0, ", d.db.num_pages(), ")"));
  return static_cast<PageId>(id);
}

py::object ranks_array(const py::object& self, const std::string& name) {
  PyDatabase& d = unwrap(self);
  auto mapped = std::make_unique<MappedRanks>(map_ranks(d.db, name));
  const MappedRanks* raw = mapped.get();
  py::capsule owner(mapped.release(), [](void* p) { delete static_cast<MappedRanks*>(p); });
  if (!raw->floats().empty()) return view(raw->floats(), owner);
  return view(raw->doubles(), owner);
}

py::tuple rank(const py::object& self, const std::string& name, bool save, py::kwargs options) {
  PyDatabase& d = unwrap(self);
  if (save) check_rank_name(name);
  return rank_graph(d.db.graph(), options, [&](const RankResult& r, const RankOptions& o) {
    if (save) save_ranks(d.db, name, r, o);
  });
}

Searcher& searcher(PyDatabase& d, const std::string& ranks, bool named) {
  std::lock_guard lock(d.mutex);
  auto& s = d.searchers[ranks + (named ? "!" : "")];
  if (!s) {
    s = std::make_unique<Searcher>(Searcher::open(d.db.path(), {ranks, named}));
  } else {
    s->reopen();
  }
  return *s;
}

py::object search(const py::object& self, const std::string& query, std::size_t k,
                  const std::string& mode, const std::optional<std::string>& ranks,
                  std::size_t offset, bool snippets, double rank_weight) {
  PyDatabase& d = unwrap(self);
  SearchOptions o;
  o.k = k;
  o.offset = offset;
  o.snippets = snippets;
  o.rank_weight = rank_weight;
  o.mode = parse_enum("mode", mode, {SearchMode::kTitle, SearchMode::kText, SearchMode::kFull});
  Searcher& s = searcher(d, ranks.value_or("pagerank"), ranks.has_value());
  SearchResults r;
  {
    py::gil_scoped_release release;
    r = s.search(query, o);
  }
  return to_python(nlohmann::json(r));
}

// Runs work(o) on a worker thread, stoppable by Ctrl-C through o.stop; its report as a dict.
template <typename Options, typename Work>
py::object run_to_json(Options& o, Work work) {
  decltype(work(o)) report;
  Interruptible run;
  run.run([&](std::stop_token stop) {
    o.stop = stop;
    report = work(o);
  });
  return to_python(nlohmann::json(report));
}

std::vector<std::string> strings(const py::object& value) {
  if (py::isinstance<py::str>(value) || py::isinstance<py::bytes>(value))
    return {value.cast<std::string>()};
  std::vector<std::string> out;
  for (auto item : value) out.push_back(py::str(item));
  return out;
}

py::object build(const py::object& inputs, const std::string& output, bool weighted,
                 const std::string& format, const std::string& pages, const std::string& labels,
                 const std::string& order, std::uint64_t memory_budget, bool force, int threads) {
  BuildOptions o;
  o.inputs = strings(inputs);
  o.output = output;
  o.weighted = weighted;
  o.format = format;
  o.pages_file = pages;
  o.labels_file = labels;
  o.memory_budget = memory_budget;
  o.force = force;
  o.threads = threads;
  o.order = parse_enum("order", order, {PageOrder::kInput, PageOrder::kDegree, PageOrder::kUrl});
  return run_to_json(o, [](const BuildOptions& x) { return build_database(x); });
}

py::object crawl(const py::object& seeds, const std::string& output, std::uint64_t max_pages,
                 int max_depth, double delay, const py::object& prefixes, bool robots, bool resume,
                 bool force) {
  CrawlOptions o;
  o.seeds = strings(seeds);
  o.output = output;
  o.max_pages = max_pages;
  o.frontier.max_depth = max_depth;
  o.frontier.delay = delay;
  if (!prefixes.is_none()) o.frontier.prefixes = strings(prefixes);
  o.robots = robots;
  o.resume = resume;
  o.force = force;
  return run_to_json(o, [](const CrawlOptions& x) { return crawl_web(x); });
}

}  // namespace

const Database& database_of(const py::object& self) {
  return unwrap(self).db;
}

void bind_database(py::module_& m) {
  py::class_<PyDatabase>(m, "Database")
      .def(py::init([](const std::filesystem::path& path, bool verify) {
             return std::unique_ptr<PyDatabase>(
                 new PyDatabase{Database::open(path, {.verify = verify}), {}, {}});
           }),
           py::arg("path"), py::arg("verify") = false)
      .def_property_readonly("path", [](PyDatabase& d) { return d.db.path(); })
      .def_property_readonly("pages", [](PyDatabase& d) { return d.db.num_pages(); })
      .def_property_readonly("links", [](PyDatabase& d) { return d.db.num_links(); })
      .def_property_readonly("weighted", [](PyDatabase& d) { return d.db.stats().weighted; })
      .def_property_readonly("dangling_pages",
                             [](PyDatabase& d) { return d.db.stats().dangling_pages; })
      .def("__len__", [](PyDatabase& d) { return d.db.num_pages(); })
      .def("label", [](PyDatabase& d,
                       std::int64_t id) { return std::string(d.db.label(checked_page(d, id))); })
      .def("labels",
           [](PyDatabase& d) {
             py::list out(d.db.num_pages());
             for (PageId u = 0; u < d.db.num_pages(); ++u) {
               const std::string_view l = d.db.label(u);
               out[u] = py::str(l.data(), l.size());
             }
             return out;
           })
      .def("find",
           [](PyDatabase& d, std::string_view label) -> std::optional<PageId> {
             if (auto id = d.db.find(label)) return id;
             return find_page(d.db, label);
           })
      .def("title", [](PyDatabase& d, std::int64_t id) { return d.db.title(checked_page(d, id)); })
      .def("out_links",
           [](const py::object& self, std::int64_t id) {
             PyDatabase& d = unwrap(self);
             return view(d.db.graph().out.neighbors(checked_page(d, id)), self);
           })
      .def("backlinks",
           [](const py::object& self, std::int64_t id) {
             PyDatabase& d = unwrap(self);
             return view(d.db.graph().in.neighbors(checked_page(d, id)), self);
           })
      .def_property_readonly("out_offsets", csr([](const GraphView& g) { return g.out.offsets; }))
      .def_property_readonly("out_targets", csr([](const GraphView& g) { return g.out.ids; }))
      .def_property_readonly("out_weights", csr([](const GraphView& g) { return g.out.weights; }))
      .def_property_readonly("in_offsets", csr([](const GraphView& g) { return g.in.offsets; }))
      .def_property_readonly("in_sources", csr([](const GraphView& g) { return g.in.ids; }))
      .def("rank_names", [](PyDatabase& d) { return d.db.rank_names(); })
      .def("ranks", &ranks_array, py::arg("name") = "pagerank")
      .def(
          "rank_info",
          [](PyDatabase& d, const std::string& name) {
            return to_python(nlohmann::json(summarize_ranks(d.db, name)));
          },
          py::arg("name") = "pagerank")
      .def("delete_ranks", [](PyDatabase& d, const std::string& name) { delete_ranks(d.db, name); })
      .def("_rank", &rank, py::arg("name"), py::arg("save"))
      .def(
          "top",
          [](PyDatabase& d, std::size_t k, const std::string& name) {
            const StoredRanks r = load_ranks(d.db, name);
            return to_python(nlohmann::json(top_ranked_pages(d.db, r.values, k)));
          },
          py::arg("k") = 10, py::arg("name") = "pagerank")
      .def("page",
           [](PyDatabase& d, std::int64_t id) {
             return to_python(nlohmann::json(describe_page(d.db, checked_page(d, id))));
           })
      .def("info", [](PyDatabase& d) { return to_python(nlohmann::json(summarize(d.db))); })
      .def("verify",
           [](PyDatabase& d) {
             py::gil_scoped_release release;
             d.db.verify();
           })
      .def(
          "build_index",
          [](PyDatabase& d, int threads) {
            IndexOptions o;
            o.threads = threads;
            return run_to_json(o,
                               [&](const IndexOptions& x) { return build_search_index(d.db, x); });
          },
          py::arg("threads") = 0)
      .def("_search", &search, py::arg("query"), py::arg("k"), py::arg("mode"), py::arg("ranks"),
           py::arg("offset"), py::arg("snippets"), py::arg("rank_weight"));
  m.def("_build", &build, py::arg("inputs"), py::arg("output"), py::arg("weighted"),
        py::arg("format"), py::arg("pages"), py::arg("labels"), py::arg("order"),
        py::arg("memory_budget"), py::arg("force"), py::arg("threads"));
  m.def("_crawl", &crawl, py::arg("seeds"), py::arg("output"), py::arg("max_pages"),
        py::arg("max_depth"), py::arg("delay"), py::arg("prefixes"), py::arg("robots"),
        py::arg("resume"), py::arg("force"));
}

}  // namespace webrank::python
