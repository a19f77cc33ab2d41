#include "py_spam.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "interruptible.hpp"
#include "py_database.hpp"
#include "rank_call.hpp"
#include "webrank/json.hpp"
#include "webrank/rank/batch.hpp"
#include "webrank/spam/spam.hpp"
#include "webrank/store/rank_store.hpp"

namespace py = pybind11;

namespace webrank::python {
namespace {

// A float64 array owning `values` (moved, not copied).
py::array owned(std::vector<double>&& values) {
  auto* v = new std::vector<double>(std::move(values));
  py::capsule owner(v, [](void* p) { delete static_cast<std::vector<double>*>(p); });
  return py::array_t<double>(v->size(), v->data(), owner);
}

// Page ids -> the sparse weights of a source (weight 1 each).
PageWeights weights_of(const std::vector<PageId>& pages) {
  PageWeights w;
  for (PageId p : pages) w.emplace_back(p, 1.0);
  return w;
}

RankOptions solve_options(double damping, double tol, int max_iter, const std::string& precision,
                          int threads) {
  RankOptions o;
  o.damping = damping;
  o.tol = tol;
  o.max_iter = max_iter;
  if (precision == "float") {
    o.precision = Precision::kFloat;
  } else if (precision != "double") {
    fail_option("precision", "must be 'double' or 'float', got '", precision, "'");
  }
  o.threads = threads;
  return o;
}

py::dict trust(const py::object& self, const std::vector<PageId>& seeds, double good_fraction,
               double damping, double tol, int max_iter, const std::string& precision, int threads,
               bool save) {
  const Database& db = database_of(self);
  TrustOptions o;
  o.batch.rank = solve_options(damping, tol, max_iter, precision, threads);
  o.good_fraction = good_fraction;
  const PageWeights w = weights_of(seeds);
  TrustResult r;
  Interruptible run;
  run.run(
      [&](std::stop_token stop) {
        o.batch.rank.stop = stop;
        r = compute_trust(db.graph(), w, o);
        if (save) save_trust(db, r, w, o);
      },
      db.num_links() > kBackgroundLinks);
  py::dict out;
  out["pagerank_info"] = to_python(nlohmann::json(r.pagerank));
  out["trustrank_info"] = to_python(nlohmann::json(r.trustrank));
  out["good_fraction"] = r.good_fraction;
  out["pagerank"] = owned(std::move(r.pagerank.ranks));
  out["trustrank"] = owned(std::move(r.trustrank.ranks));
  out["relative_mass"] = owned(std::move(r.relative_mass));
  out["absolute_mass"] = owned(std::move(r.absolute_mass));
  return out;
}

py::object report(const py::object& self, const std::string& pagerank,
                  const std::optional<std::string>& mass, double min_scaled_pagerank,
                  std::size_t min_supporters, double min_farm_share, double damping) {
  const Database& db = database_of(self);
  SpamReportOptions o;
  o.min_scaled_pagerank = min_scaled_pagerank;
  o.min_supporters = min_supporters;
  o.min_farm_share = min_farm_share;
  o.damping = damping;
  const std::vector<double> p = load_ranks(db, pagerank).values;
  const std::vector<double> m = mass ? load_ranks(db, *mass).values : std::vector<double>{};
  SpamReport r;
  {
    py::gil_scoped_release release;
    r = spam_report(db, p, m, o);
  }
  return to_python(nlohmann::json(r));
}

py::list seeds(const py::object& self, std::size_t k, double damping) {
  const Database& db = database_of(self);
  RankOptions o;
  o.damping = damping;
  std::vector<SeedCandidate> c;
  {
    py::gil_scoped_release release;
    c = propose_seeds(db.graph(), k, o);
  }
  py::list out;
  for (const SeedCandidate& s : c) out.append(py::make_tuple(s.page, s.inverse_pagerank));
  return out;
}

py::tuple batch(const py::object& self, const std::vector<std::vector<PageId>>& sources,
                double damping, double tol, int max_iter, const std::string& precision,
                int threads) {
  const Database& db = database_of(self);
  BatchOptions o;
  o.rank = solve_options(damping, tol, max_iter, precision, threads);
  std::vector<PageWeights> w;
  for (const auto& s : sources) w.push_back(weights_of(s));
  std::vector<RankResult> results;
  Interruptible run;
  run.run(
      [&](std::stop_token stop) {
        o.rank.stop = stop;
        results = compute_rank_batch(db.graph(), w, o);
      },
      db.num_links() > kBackgroundLinks);
  // One row per source: a (k, N) array filled from the results (k copies of N values).
  py::array_t<double> ranks(
      {static_cast<py::ssize_t>(results.size()), static_cast<py::ssize_t>(db.num_pages())});
  auto a = ranks.mutable_unchecked<2>();
  py::list infos;
  for (std::size_t i = 0; i < results.size(); ++i) {
    for (PageId u = 0; u < db.num_pages(); ++u) a(i, u) = results[i].ranks[u];
    infos.append(to_python(nlohmann::json(results[i])));
  }
  return py::make_tuple(ranks, infos);
}

}  // namespace

void bind_spam(py::module_& m) {
  py::object cls = m.attr("Database");
  auto def = [&](const char* name, py::cpp_function f) { py::setattr(cls, name, f); };
  def("_trust",
      py::cpp_function(&trust, py::is_method(cls), py::arg("seeds"), py::arg("good_fraction"),
                       py::arg("damping"), py::arg("tol"), py::arg("max_iter"),
                       py::arg("precision"), py::arg("threads"), py::arg("save")));
  def("_spam_report",
      py::cpp_function(&report, py::is_method(cls), py::arg("pagerank"), py::arg("mass"),
                       py::arg("min_scaled_pagerank"), py::arg("min_supporters"),
                       py::arg("min_farm_share"), py::arg("damping")));
  def("_propose_seeds",
      py::cpp_function(&seeds, py::is_method(cls), py::arg("k"), py::arg("damping")));
  def("_rank_batch", py::cpp_function(&batch, py::is_method(cls), py::arg("sources"),
                                      py::arg("damping"), py::arg("tol"), py::arg("max_iter"),
                                      py::arg("precision"), py::arg("threads")));
}

}  // namespace webrank::python
