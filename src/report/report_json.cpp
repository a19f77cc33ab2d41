// The JSON form of the report's data (declared in webrank/report/report_json.hpp): what
// web/src/charts.js draws.
#include <cmath>

#include "webrank/rank/rank_json.hpp"
#include "webrank/report/report_json.hpp"
#include "webrank/store/store_json.hpp"

namespace webrank {
namespace {

nlohmann::json number(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json();
}

nlohmann::json series(const Series& s) {
  return {{"x", s.x}, {"y", s.y}};
}

}  // namespace

void to_json(nlohmann::json& j, const PowerLawFit& f) {
  j = {{"ok", f.ok},     {"alpha", number(f.alpha)}, {"x_min", number(f.x_min)},
       {"tail", f.tail}, {"ks", number(f.ks)},       {"tail_fraction", number(f.tail_fraction)}};
}

void to_json(nlohmann::json& j, const ReportData& r) {
  j = nlohmann::json::object();
  j["title"] = r.title;
  j["generated"] = r.generated;
  j["summary"] = r.summary;
  j["convergence"] = nlohmann::json::array();
  for (const ConvergenceSeries& c : r.convergence) {
    nlohmann::json deltas = nlohmann::json::array();
    for (double d : c.deltas) deltas.push_back(number(d));
    j["convergence"].push_back({{"name", c.name},
                                {"method", c.method},
                                {"converged", c.converged},
                                {"tol", c.tol},
                                {"deltas", deltas}});
  }
  if (r.distribution) {
    j["distribution"] = {{"vector", r.distribution->vector},
                         {"ccdf", series(r.distribution->ccdf)},
                         {"fit", r.distribution->fit}};
  } else {
    j["distribution"] = nullptr;
  }
  j["degrees"] = {{"in", series(r.degrees.in)},   {"out", series(r.degrees.out)},
                  {"in_fit", r.degrees.in_fit},   {"out_fit", r.degrees.out_fit},
                  {"in_zero", r.degrees.in_zero}, {"out_zero", r.degrees.out_zero}};
  const ComponentReport& c = r.components;
  j["components"] = {{"components", c.components},
                     {"largest", c.largest},
                     {"sizes", series(c.sizes)},
                     {"core", c.core},
                     {"in", c.in},
                     {"out", c.out},
                     {"other", c.other}};
  j["top"] = nlohmann::json::array();
  for (const TopList& t : r.top) j["top"].push_back({{"vector", t.vector}, {"pages", t.pages}});
}

void to_json(nlohmann::json& j, const ReportPage& p) {
  j = {{"id", p.page},
       {"label", p.label},
       {"vector", p.vector},
       {"value", number(p.value)},
       {"fraction", p.fraction ? number(*p.fraction) : nlohmann::json()},
       {"in_degree", p.in_degree},
       {"out_degree", p.out_degree}};
}

}  // namespace webrank
