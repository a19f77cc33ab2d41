// A report people look at (`webrank report DB -o report.html`): one self-contained HTML page
// with interactive charts of a database and its rank vectors. gather_report() computes the data
// (a struct with one JSON form, webrank/json.hpp); render_report_html() puts that JSON into a
// page with uPlot and webrank's chart code (web/src/charts.js, built into the binary:
// webrank/assets/assets.hpp). A server's page views draw the same charts from the same JSON.
//
// The charts: the L1 change per iteration of every stored vector on a log scale (the paper's
// Figure 4); the distribution of a vector's values (complementary CDF, log-log) with a power-law
// fit; in- and out-degree distributions with theirs; the top pages of every vector with their
// bars; the strongly connected components (sizes, and the bow-tie around the largest: Broder et
// al. 2000); the crawl's HTTP status classes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "webrank/rank/presentation.hpp"
#include "webrank/store/database.hpp"
#include "webrank/store/summary.hpp"

namespace webrank {

// A power law p(x) ∝ x^−alpha for x >= x_min, fitted by maximum likelihood with x_min chosen to
// minimize the Kolmogorov–Smirnov distance (Clauset, Shalizi and Newman 2009); for integer data
// (degrees) the continuous approximation with x_min − 1/2 (their eq. 3.7).
struct PowerLawFit {
  bool ok = false;  // false: fewer than 10 positive values, or all equal
  double alpha = 0, x_min = 0;
  std::uint64_t tail = 0;    // values >= x_min
  double ks = 0;             // the Kolmogorov–Smirnov distance of the fit on the tail
  double tail_fraction = 0;  // tail / positive values: where the fitted line starts on a CCDF
};
// Values <= 0 are ignored. O(n log n); at most 2^20 values are used (evenly spaced in order).
PowerLawFit fit_power_law(std::span<const double> values, bool integers);

// Points of a chart: x and y, same size.
struct Series {
  std::vector<double> x, y;
};

struct ConvergenceSeries {
  std::string name;  // stored vector
  std::string method;
  bool converged = false;
  double tol = 0;
  std::vector<double> deltas;  // L1 change per iteration
};

struct ValueDistribution {
  std::string vector;
  Series ccdf;  // fraction of pages with a value >= x, at up to ~200 log-spaced x
  PowerLawFit fit;
};

struct DegreeDistribution {
  Series in, out;  // pages with degree k (k >= 1), log-binned past 100 distinct degrees
  PowerLawFit in_fit, out_fit;
  std::uint64_t in_zero = 0, out_zero = 0;  // pages of degree 0 (not on a log axis)
};

struct ComponentReport {
  std::uint64_t components = 0;
  std::uint64_t largest = 0;  // pages in the largest strongly connected component
  Series sizes;               // x: component size, y: components of that size
  // The bow-tie around the largest component: pages that reach it (in), that it reaches (out),
  // and the rest (tendrils, tubes, disconnected pieces).
  std::uint64_t core = 0, in = 0, out = 0, other = 0;
};

struct TopList {
  std::string vector;
  std::vector<RankedPage> pages;
};

struct ReportOptions {
  std::string ranks;  // the vector whose distribution is shown; "" = pagerank, else the first
  std::size_t top = 20;
  std::string title;  // "" = the database's folder name
};

struct ReportData {
  std::string title;
  std::string generated;  // ISO 8601, UTC
  DatabaseSummary summary;
  std::vector<ConvergenceSeries> convergence;     // vectors with a per-iteration change
  std::optional<ValueDistribution> distribution;  // when a vector is stored
  DegreeDistribution degrees;
  ComponentReport components;
  std::vector<TopList> top;  // one per stored vector
};

// Reads the database and its vectors (checksums verified) and computes every chart's data:
// O(links) plus the components. Throws Error (kNotFound for an unknown `ranks`).
ReportData gather_report(const Database& db, const ReportOptions& options);

// Where one page stands in a report's charts (a server's page view marks it on them): its value
// in the distribution's vector with the fraction of pages whose value is at least as high (the
// point of that CCDF at the value: the same count and tolerance), and its in- and out-degree.
struct ReportPage {
  PageId page = kNoPage;
  std::string label;
  std::string vector;              // data.distribution->vector; "" when the report has none
  double value = 0;                // in that vector
  std::optional<double> fraction;  // nullopt when the value is not positive (off a log axis)
  std::uint64_t in_degree = 0, out_degree = 0;
};

// `values`: the values of data.distribution->vector by page id (ignored when the report has no
// distribution). O(pages). Throws Error: kNotFound for a page id out of range,
// kInvalidArgument when `values` has not one value per page.
ReportPage place_in_report(const Database& db, const ReportData& data, PageId page,
                           std::span<const double> values);

// The whole HTML page: uPlot, its style sheet, charts.js and the data inlined (nothing fetched).
std::string render_report_html(const ReportData& data);

// A page with one chart of web/src/charts.js: `chart` names its function ("crawlOrder"), `data`
// is the JSON it draws. Throws Error(kInvalidArgument) for a name that is not an identifier.
std::string render_chart_page(const std::string& title, const std::string& chart,
                              const nlohmann::json& data);

}  // namespace webrank
