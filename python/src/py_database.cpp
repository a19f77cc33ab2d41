// webrank._core.Database: a link database opened from Python (an app::Session), its arrays shown
// without copying, and its operations (Database.rank, .search, ...: py_operations.hpp).
#include "py_database.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <memory>
#include <string>
#include <vector>

#include "py_operations.hpp"
#include "webrank/app/app_json.hpp"
#include "webrank/app/operation.hpp"
#include "webrank/ingest/rank_sources.hpp"
#include "webrank/store/database.hpp"
#include "webrank/store/rank_store.hpp"
#include "webrank/store/summary.hpp"
#include "webrank/util/error.hpp"

namespace py = pybind11;

namespace webrank::python {
namespace {

// The open database, and what its operations keep between calls (searchers, views, reports).
struct PyDatabase {
  std::unique_ptr<app::Session> session;
};

// The PyDatabase of `self`, or null when its __init__ never ran (Database.__new__).
PyDatabase* initialized(const py::handle& self) {
  auto* inst = reinterpret_cast<py::detail::instance*>(self.ptr());
  auto vh = inst->get_value_and_holder(py::detail::get_type_info(typeid(PyDatabase)));
  if (!vh || !vh.holder_constructed()) return nullptr;
  return static_cast<PyDatabase*>(vh.value_ptr());
}

// The PyDatabase of `self`, refusing an object that was never initialized or was closed,
// instead of reading memory that holds none.
PyDatabase& unwrap(const py::handle& self) {
  PyDatabase* d = initialized(self);
  if (!d) {
    throw Error(ErrorKind::kInvalidType,
                "webrank.Database: not initialized (open one with webrank.Database(path))");
  }
  if (!d->session) throw Error(ErrorKind::kInvalidArgument, "webrank.Database: closed");
  return *d;
}

std::shared_ptr<const Database> db_of(const py::handle& self) {
  return unwrap(self).session->database();
}

// A read-only NumPy array over memory that `owner` keeps alive: no copy.
template <typename T>
py::array view(std::span<const T> values, const py::object& owner) {
  py::array_t<T> a({static_cast<py::ssize_t>(values.size())}, {static_cast<py::ssize_t>(sizeof(T))},
                   values.data(), owner);
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

// Keeps a database (its mapped files) alive for as long as an array over it exists.
py::object keeper(const std::shared_ptr<const Database>& db) {
  auto* held = new std::shared_ptr<const Database>(db);
  return py::capsule(held,
                     [](void* p) { delete static_cast<std::shared_ptr<const Database>*>(p); });
}

// A property showing one array of the web's CSR (`pick` chooses it) in place.
template <typename Pick>
auto csr(Pick pick) {
  return [pick](const py::object& self) {
    const auto db = db_of(self);
    return view(pick(db->graph()), keeper(db));
  };
}

PageId checked_page(const Database& db, std::int64_t id) {
  if (id < 0 || static_cast<std::uint64_t>(id) >= db.num_pages())
    throw py::index_error(cat("page id ", id, " outside [0, ", db.num_pages(), ")"));
  return static_cast<PageId>(id);
}

py::object ranks_array(const py::object& self, const std::string& name) {
  auto mapped = std::make_unique<MappedRanks>(map_ranks(*db_of(self), name));
  const MappedRanks* raw = mapped.get();
  py::capsule owner(mapped.release(), [](void* p) { delete static_cast<MappedRanks*>(p); });
  if (!raw->floats().empty()) return view(raw->floats(), owner);
  return view(raw->doubles(), owner);
}

}  // namespace

const Database& database_of(const py::object& self) {
  return *db_of(self);
}

void bind_database(py::module_& m) {
  py::class_<PyDatabase>(m, "Database")
      .def(py::init([](const std::filesystem::path& path, bool verify) {
             auto d = std::make_unique<PyDatabase>();
             d->session = std::make_unique<app::Session>(path, app::Session::Options{verify});
             return d;
           }),
           py::arg("path"), py::arg("verify") = false)
      .def_property_readonly("path",
                             [](const py::object& self) { return unwrap(self).session->path(); })
      .def_property_readonly("pages",
                             [](const py::object& self) { return db_of(self)->num_pages(); })
      .def_property_readonly("links",
                             [](const py::object& self) { return db_of(self)->num_links(); })
      .def_property_readonly("weighted",
                             [](const py::object& self) { return db_of(self)->stats().weighted; })
      .def_property_readonly(
          "dangling_pages",
          [](const py::object& self) { return db_of(self)->stats().dangling_pages; })
      .def("__len__", [](const py::object& self) { return db_of(self)->num_pages(); })
      .def("close", [](const py::object& self) { unwrap(self).session.reset(); })
      .def_property_readonly("closed",
                             [](const py::object& self) -> bool {
                               const PyDatabase* d = initialized(self);
                               return !d || !d->session;
                             })
      .def("refresh", [](const py::object& self) { return unwrap(self).session->refresh(); })
      .def("label",
           [](const py::object& self, std::int64_t id) {
             const auto db = db_of(self);
             return std::string(db->label(checked_page(*db, id)));
           })
      .def("labels",
           [](const py::object& self) {
             const auto db = db_of(self);
             py::list out(db->num_pages());
             for (PageId u = 0; u < db->num_pages(); ++u) {
               const std::string_view l = db->label(u);
               out[u] = py::reinterpret_steal<py::object>(
                   PyUnicode_DecodeUTF8(l.data(), static_cast<py::ssize_t>(l.size()), "replace"));
             }
             return out;
           })
      .def("find",
           [](const py::object& self, std::string_view label) -> std::optional<PageId> {
             const auto db = db_of(self);
             if (auto id = db->find(label)) return id;
             return find_page(*db, label);
           })
      .def("title",
           [](const py::object& self, std::int64_t id) {
             const auto db = db_of(self);
             return db->title(checked_page(*db, id));
           })
      .def("out_links",
           [](const py::object& self, std::int64_t id) {
             const auto db = db_of(self);
             return view(db->graph().out.neighbors(checked_page(*db, id)), keeper(db));
           })
      .def("backlinks",
           [](const py::object& self, std::int64_t id) {
             const auto db = db_of(self);
             return view(db->graph().in.neighbors(checked_page(*db, id)), keeper(db));
           })
      .def_property_readonly("out_offsets", csr([](const GraphView& g) { return g.out.offsets; }))
      .def_property_readonly("out_targets", csr([](const GraphView& g) { return g.out.ids; }))
      .def_property_readonly("out_weights", csr([](const GraphView& g) { return g.out.weights; }))
      .def_property_readonly("in_offsets", csr([](const GraphView& g) { return g.in.offsets; }))
      .def_property_readonly("in_sources", csr([](const GraphView& g) { return g.in.ids; }))
      .def("rank_names", [](const py::object& self) { return db_of(self)->rank_names(); })
      .def("ranks", &ranks_array, py::arg("name") = "pagerank")
      .def(
          "rank_info",
          [](const py::object& self, const std::string& name) {
            return to_python(nlohmann::json(load_ranks(*db_of(self), name).record));
          },
          py::arg("name") = "pagerank")
      .def("delete_ranks", [](const py::object& self,
                              const std::string& name) { delete_ranks(*db_of(self), name); })
      .def("verify",
           [](const py::object& self) {
             const auto db = db_of(self);
             py::gil_scoped_release release;
             db->verify();
           })
      .def(
          "_call",
          [](const py::object& self, const std::string& name, const py::dict& kwargs,
             const py::object& callback) {
            return call_operation(name, unwrap(self).session.get(), kwargs, callback);
          },
          py::arg("name"), py::arg("kwargs"), py::arg("callback") = py::none());
}

}  // namespace webrank::python
