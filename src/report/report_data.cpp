// The data of `webrank report` (webrank/report/report.hpp): everything the charts draw.
#include <algorithm>
#include <cmath>
#include <ctime>
#include <map>
#include <nlohmann/json.hpp>

#include "algo/strong_components.hpp"
#include "webrank/report/report.hpp"
#include "webrank/store/rank_store.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

// Pages per degree k >= 1; past 300 distinct degrees, log bins (ratio 1.12) give the mean
// number of pages per degree in the bin, so the chart keeps its shape and a few hundred points.
Series degree_series(const Adjacency& adj, PageId n, std::uint64_t& zero) {
  std::map<std::uint64_t, std::uint64_t> pages_of;
  for (PageId u = 0; u < n; ++u) ++pages_of[adj.degree(u)];
  zero = pages_of.count(0) ? pages_of[0] : 0;
  pages_of.erase(0);
  Series s;
  if (pages_of.size() <= 300) {
    for (const auto& [k, m] : pages_of) {
      s.x.push_back(static_cast<double>(k));
      s.y.push_back(static_cast<double>(m));
    }
    return s;
  }
  double low = 1;
  auto it = pages_of.begin();
  while (it != pages_of.end()) {
    const double high = std::max(low + 1, std::floor(low * 1.12));  // bin [low, high)
    std::uint64_t pages = 0;
    for (; it != pages_of.end() && static_cast<double>(it->first) < high; ++it) pages += it->second;
    if (pages > 0) {
      s.x.push_back(std::sqrt(low * (high - 1)));
      s.y.push_back(static_cast<double>(pages) / (high - low));
    }
    low = high;
  }
  return s;
}

std::vector<double> degrees(const Adjacency& adj, PageId n) {
  std::vector<double> d(n);
  for (PageId u = 0; u < n; ++u) d[u] = static_cast<double>(adj.degree(u));
  return d;
}

// A value counts as at least `at` within this relative tolerance, so that a point of the CCDF
// placed at a value taken from the vector counts that value.
constexpr double kAtLeast = 1 - 1e-12;

bool usable(double v) {
  return v > 0 && std::isfinite(v);
}

// The complementary CDF of the positive values at up to 200 log-spaced points.
Series ccdf(std::span<const double> values) {
  std::vector<double> x;
  for (double v : values) {
    if (usable(v)) x.push_back(v);
  }
  Series s;
  if (x.empty()) return s;
  std::sort(x.begin(), x.end());
  const double lo = x.front(), hi = x.back();
  const int points = lo == hi ? 1 : 200;
  for (int i = 0; i < points; ++i) {
    const double at =
        points == 1 ? lo : lo * std::pow(hi / lo, static_cast<double>(i) / (points - 1));
    const auto first = std::lower_bound(x.begin(), x.end(), at * kAtLeast);
    const double fraction = static_cast<double>(x.end() - first) / static_cast<double>(x.size());
    if (!s.y.empty() && fraction == s.y.back()) continue;  // a flat stretch: one point is enough
    s.x.push_back(at);
    s.y.push_back(fraction);
  }
  return s;
}

ComponentReport components(const GraphView& g) {
  ComponentReport r;
  if (g.num_pages == 0) return r;
  const StrongComponents c = strong_components(g);
  r.components = c.count();
  std::map<std::uint64_t, std::uint64_t> count_of;
  std::size_t giant = 0;
  for (std::size_t i = 0; i < c.count(); ++i) {
    ++count_of[c.size(i)];
    if (c.size(i) > c.size(giant)) giant = i;
  }
  for (const auto& [size, count] : count_of) {
    r.sizes.x.push_back(static_cast<double>(size));
    r.sizes.y.push_back(static_cast<double>(count));
  }
  r.largest = r.core = c.size(giant);
  // The bow-tie: breadth-first searches from the core along links (out) and backlinks (in).
  std::vector<std::uint8_t> side(g.num_pages, 0);  // 1 core, 2 in, 3 out
  std::vector<PageId> queue;
  for (std::uint64_t i = c.begin[giant]; i < c.begin[giant + 1]; ++i) side[c.pages[i]] = 1;
  for (const auto& [adj, mark] : {std::pair{&g.out, std::uint8_t{3}}, {&g.in, std::uint8_t{2}}}) {
    queue.assign(c.pages.begin() + static_cast<std::ptrdiff_t>(c.begin[giant]),
                 c.pages.begin() + static_cast<std::ptrdiff_t>(c.begin[giant + 1]));
    for (std::size_t i = 0; i < queue.size(); ++i) {
      for (PageId y : adj->neighbors(queue[i])) {
        if (side[y] == 0) {
          side[y] = mark;
          queue.push_back(y);
        }
      }
    }
  }
  for (std::uint8_t s : side) {
    r.in += s == 2;
    r.out += s == 3;
    r.other += s == 0;
  }
  return r;
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return text;
}

}  // namespace

ReportData gather_report(const Database& db, const ReportOptions& o) {
  ReportData r;
  r.title = o.title;
  if (r.title.empty()) {
    std::filesystem::path p = db.path();
    if (p.filename().empty()) p = p.parent_path();
    r.title = p.filename().string();
  }
  r.generated = utc_now();
  r.summary = summarize(db);
  const GraphView& g = db.graph();
  const std::vector<std::string> names = db.rank_names();
  std::string shown = o.ranks;
  if (shown.empty() && !names.empty()) {
    shown = std::find(names.begin(), names.end(), "pagerank") != names.end() ? "pagerank"
                                                                             : names.front();
  }
  if (!shown.empty() && std::find(names.begin(), names.end(), shown) == names.end()) {
    // load_ranks names the vectors there are.
    (void)load_ranks(db, shown);
  }
  for (const std::string& name : names) {
    const StoredRanks s = load_ranks(db, name);
    if (!s.record.deltas.empty()) {
      r.convergence.push_back(
          {name, s.record.method, s.record.converged, s.record.tol.value_or(0), s.record.deltas});
    }
    r.top.push_back({name, top_ranked_pages(db, s.values, o.top)});
    if (name == shown) {
      ValueDistribution d;
      d.vector = name;
      d.ccdf = ccdf(s.values);
      d.fit = fit_power_law(s.values, false);
      r.distribution = std::move(d);
    }
  }
  r.degrees.in = degree_series(g.in, g.num_pages, r.degrees.in_zero);
  r.degrees.out = degree_series(g.out, g.num_pages, r.degrees.out_zero);
  r.degrees.in_fit = fit_power_law(degrees(g.in, g.num_pages), true);
  r.degrees.out_fit = fit_power_law(degrees(g.out, g.num_pages), true);
  r.components = components(g);
  return r;
}

ReportPage place_in_report(const Database& db, const ReportData& data, PageId page,
                           std::span<const double> values) {
  const GraphView& g = db.graph();
  if (page >= g.num_pages) fail(ErrorKind::kNotFound, "no page id ", page, " in the database");
  ReportPage p;
  p.page = page;
  p.label = std::string(db.label(page));
  p.in_degree = g.in.degree(page);
  p.out_degree = g.out.degree(page);
  if (!data.distribution) return p;
  if (values.size() != g.num_pages) {
    fail(ErrorKind::kInvalidArgument, "vector '", data.distribution->vector, "' has ",
         values.size(), " values, the database ", g.num_pages, " pages");
  }
  p.vector = data.distribution->vector;
  p.value = values[page];
  if (usable(p.value)) {
    std::uint64_t positive = 0, at_least = 0;
    for (double v : values) {
      if (!usable(v)) continue;
      ++positive;
      at_least += v >= p.value * kAtLeast;
    }
    p.fraction = static_cast<double>(at_least) / static_cast<double>(positive);
  }
  return p;
}

}  // namespace webrank
