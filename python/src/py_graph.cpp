#include "py_graph.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "py_operations.hpp"
#include "webrank/util/error.hpp"
#include "webrank/util/graph.hpp"
#include "webrank/writer/owned_graph.hpp"

namespace py = pybind11;

namespace webrank::python {
namespace {

using Links = std::vector<OwnedGraph::Link>;

// A web held in memory. Identical links are merged with their weights added; a graph whose
// links all weigh 1 is stored unweighted (the solvers' faster kernels, the same ranks).
class Graph {
 public:
  Graph(PageId pages, const Links& links, bool weighted) : graph_(pages, links, weighted) {}
  const GraphView& view() const { return graph_.view(); }

 private:
  OwnedGraph graph_;
};

void check_weight(double w, const char* where) {
  if (!(w >= 0) || !std::isfinite(w))
    fail_option("weight", "must be a finite number >= 0, got ", w, " (", where, ")");
}

PageId checked_pages(std::uint64_t n) {
  if (n >= kNoPage) fail_option("pages", "at most ", kNoPage - 1, " pages, got ", n);
  return static_cast<PageId>(n);
}

// The graph's contents are read here, not checked by the package first (a Python loop over every
// edge would cost more than the solve): what is wrong in them is refused with the library's
// typed errors all the same, naming the argument, `G`, or the `weight` attribute.
[[noreturn]] void malformed_graph(const std::string& what) {
  PyErr_Clear();
  throw Error(ErrorKind::kInvalidType, cat("must be a NetworkX graph: ", what), "G");
}

// The weight of one edge's attribute dict: attr[weight] if present, else 1 (NetworkX's rule).
double edge_weight(PyObject* attr, PyObject* key) {
  if (!PyDict_Check(attr)) malformed_graph("an edge attribute mapping that is not a dict");
  if (key == nullptr) return 1;
  PyObject* w = PyDict_GetItemWithError(attr, key);
  if (w == nullptr) {
    if (PyErr_Occurred()) malformed_graph("an edge attribute mapping that cannot be read");
    return 1;
  }
  const double x = PyFloat_AsDouble(w);
  if (x == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    throw Error(ErrorKind::kInvalidType,
                cat("must name numbers: an edge's weight is a ",
                    std::string(py::str(py::type::of(w).attr("__name__")))),
                "weight");
  }
  return x;
}

PageId node_index(PyObject* index, PyObject* node) {
  PyObject* i = PyDict_GetItemWithError(index, node);
  if (i == nullptr) {
    if (PyErr_Occurred()) malformed_graph("a neighbour that cannot be looked up");
    malformed_graph("a neighbour that is not a node of the graph");
  }
  const unsigned long id = PyLong_AsUnsignedLong(i);
  if (id == static_cast<unsigned long>(-1) && PyErr_Occurred())
    malformed_graph("a node index that is not a page id");
  return static_cast<PageId>(id);
}

// NetworkX's G._adj: {u: {v: attrs}} ({u: {v: {key: attrs}}} for multigraphs), every node a
// key in node order; an undirected graph lists each edge from both ends and a self-loop once,
// as nx.to_scipy_sparse_array reads it. `index` maps nodes to their positions.
Graph from_adjacency(const py::dict& adj, const py::dict& index, const py::object& weight,
                     bool multigraph) {
  const PageId pages = checked_pages(py::len(adj));
  Links links;
  bool weighted = false;
  PyObject* key = weight.is_none() ? nullptr : weight.ptr();
  PyObject *u, *nbrs;
  Py_ssize_t pos = 0;
  while (PyDict_Next(adj.ptr(), &pos, &u, &nbrs)) {
    if (!PyDict_Check(nbrs)) malformed_graph("an adjacency that is not a dict of dicts");
    const PageId su = node_index(index.ptr(), u);
    PyObject *v, *attr;
    Py_ssize_t npos = 0;
    while (PyDict_Next(nbrs, &npos, &v, &attr)) {
      const PageId sv = node_index(index.ptr(), v);
      double w = 0;
      if (multigraph) {
        PyObject *k, *a;
        Py_ssize_t kpos = 0;
        if (!PyDict_Check(attr)) malformed_graph("a multigraph edge mapping that is not a dict");
        while (PyDict_Next(attr, &kpos, &k, &a)) w += edge_weight(a, key);
      } else {
        w = edge_weight(attr, key);
      }
      check_weight(w, "an edge's weight");
      weighted = weighted || w != 1;
      links.push_back({su, sv, w});
    }
  }
  return Graph(pages, links, weighted);
}

template <typename T>
using Array = py::array_t<T, py::array::c_style | py::array::forcecast>;

// Page ids as int64, refusing arrays that are not of integers: a cast would truncate 1.5 to 1
// without a word.
Array<std::int64_t> page_ids(const py::object& given, const char* field) {
  const py::array values = py::module_::import("numpy").attr("asarray")(given);
  const char kind = values.dtype().kind();
  if (kind != 'i' && kind != 'u' && values.size() != 0) {
    throw Error(ErrorKind::kInvalidType,
                cat(field, " must be an array of integers (page ids), got dtype ",
                    std::string(py::str(values.dtype())),
                    ": convert it with .astype(np.int64) once its values are whole"),
                field);
  }
  return Array<std::int64_t>::ensure(values);
}

// Links from parallel arrays: sources, targets and (optional) weights.
Graph from_arrays(std::uint64_t n, const py::object& src_ids, const py::object& dst_ids,
                  const std::optional<Array<double>>& weights) {
  const Array<std::int64_t> src = page_ids(src_ids, "src"), dst = page_ids(dst_ids, "dst");
  const PageId pages = checked_pages(n);
  if (src.ndim() != 1 || dst.ndim() != 1 || src.shape(0) != dst.shape(0))
    fail_option("edges", "src and dst must be 1-d arrays of the same length");
  const std::size_t m = src.shape(0);
  if (weights && (weights->ndim() != 1 || static_cast<std::size_t>(weights->shape(0)) != m))
    fail_option("weight", "must be a 1-d array as long as src and dst");
  Links links(m);
  bool weighted = false;
  const std::int64_t *s = src.data(), *d = dst.data();
  const double* w = weights ? weights->data() : nullptr;
  for (std::size_t i = 0; i < m; ++i) {
    if (s[i] < 0 || static_cast<std::uint64_t>(s[i]) >= pages || d[i] < 0 ||
        static_cast<std::uint64_t>(d[i]) >= pages)
      fail_option("edges", "link ", i, " (", s[i], " -> ", d[i], ") names a page outside [0, ",
                  pages, ")");
    const double x = w ? w[i] : 1.0;
    if (w) check_weight(x, "in the weight array");
    weighted = weighted || x != 1;
    links[i] = {static_cast<PageId>(s[i]), static_cast<PageId>(d[i]), x};
  }
  return Graph(pages, links, weighted);
}

// A square CSR matrix: row i holds the links out of page i (A[i, j] = weight of i -> j, as
// nx.to_scipy_sparse_array and adjacency matrices have it).
Graph from_csr(std::uint64_t n, const py::object& indptr_values, const py::object& index_values,
               const Array<double>& data) {
  const Array<std::int64_t> indptr = page_ids(indptr_values, "indptr"),
                            indices = page_ids(index_values, "indices");
  const PageId pages = checked_pages(n);
  if (indptr.ndim() != 1 || static_cast<std::uint64_t>(indptr.shape(0)) != n + 1)
    fail_option("matrix", "indptr must have ", n + 1, " entries");
  const std::int64_t* p = indptr.data();
  const std::uint64_t m = indices.shape(0);
  if (p[0] != 0 || static_cast<std::uint64_t>(p[n]) != m || data.shape(0) != indices.shape(0))
    fail_option("matrix", "indptr, indices and data do not agree");
  Links links(m);
  bool weighted = false;
  for (PageId u = 0; u < pages; ++u) {
    if (p[u + 1] < p[u]) fail_option("matrix", "indptr must not decrease (row ", u, ")");
    for (std::int64_t i = p[u]; i < p[u + 1]; ++i) {
      const std::int64_t v = indices.data()[i];
      if (v < 0 || static_cast<std::uint64_t>(v) >= pages)
        fail_option("matrix", "column ", v, " of row ", u, " outside [0, ", pages, ")");
      const double x = data.data()[i];
      check_weight(x, "a matrix entry");
      weighted = weighted || x != 1;
      links[i] = {u, static_cast<PageId>(v), x};
    }
  }
  return Graph(pages, links, weighted);
}

}  // namespace

void bind_graph(py::module_& m) {
  py::class_<Graph>(m, "Graph",
                    "A web held in memory (identical links merged, weights added). Built by "
                    "webrank.pagerank and pagerank_scipy; rank it with webrank._core.rank.")
      .def_property_readonly("pages", [](const Graph& g) { return g.view().num_pages; })
      .def_property_readonly("links", [](const Graph& g) { return g.view().num_links; })
      .def_property_readonly("weighted", [](const Graph& g) { return g.view().weighted(); })
      .def_static("from_adjacency", &from_adjacency, py::arg("adj"), py::arg("index"),
                  py::arg("weight"), py::arg("multigraph"))
      .def_static("from_arrays", &from_arrays, py::arg("pages"), py::arg("src"), py::arg("dst"),
                  py::arg("weight") = py::none())
      .def_static("from_csr", &from_csr, py::arg("pages"), py::arg("indptr"), py::arg("indices"),
                  py::arg("data"));
  m.def(
      "rank",
      [](const Graph& g, const py::dict& options, const py::object& callback) {
        return rank_graph(g.view(), options, callback);
      },
      py::arg("graph"), py::arg("options"), py::arg("callback") = py::none(),
      "rank(graph, options, callback) -> (ranks, info): PageRank of an in-memory graph (use "
      "webrank.rank).");
}

}  // namespace webrank::python
