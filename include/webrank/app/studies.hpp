// The paper's studies and after: explain (why a page ranks where it does), usage (PageRank
// against real visits), crawl-order (PageRank as a crawl order), hosts (the host graph with
// HostRank), centrality (harmonic centrality), report (the charts of a web). Options declared
// once in src/app/studies.cpp; results with their JSON form in webrank/app/app_json.hpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "webrank/algo/centrality.hpp"
#include "webrank/app/operation.hpp"
#include "webrank/rank/rank_comparison.hpp"
#include "webrank/report/report.hpp"
#include "webrank/studies/crawl_order.hpp"
#include "webrank/studies/explain.hpp"
#include "webrank/studies/host_graph.hpp"
#include "webrank/studies/usage.hpp"

namespace webrank::app {

// `explain`: a page's rank split into the rank-source term, each backlink's contribution and
// the dangling term, its strongest two-hop paths, and what-ifs.
struct ExplainRequest {
  std::string page;
  ExplainOptions explain;  // ranks, k, without, without_host, what-if bounds
  bool no_what_if = false;
};
struct ExplainResult : ResultBase {
  RankExplanation explanation;
  std::size_t k = 0;
};
ExplainResult explain(Session* session, const ExplainRequest& request, const Run& run);

// `usage`: a stored vector against visit counts (a LABEL<TAB>COUNT file, or an access log), and
// with `source` the same for PageRank with the visits as its rank source (stored as `name`).
struct UsageRequest {
  std::string counts, log;
  bool strict = false;           // with counts: a page not in the database is an error
  AccessLogOptions log_options;  // site, keep_bots
  std::string ranks = "pagerank";
  std::uint64_t k = 10;
  bool source = false;
  std::string name = "usage";
  RankOptions rank;  // damping, tol of the source vector
};
struct UsageResult : ResultBase {
  std::uint64_t pages = 0;
  UsageCounts usage;
  std::optional<AccessLogReport> log;
  std::vector<UsageComparison> comparisons;
  std::optional<RankResult> source_rank;  // without its vector
  std::string from, name;
};
UsageResult usage(Session* session, const UsageRequest& request, const Run& run);

// `crawl-order`: simulated crawls in several orders and how soon each finds the hot pages;
// written as TSV curves (`out`) or a chart page (`html`) too.
struct CrawlOrderRequest {
  std::string seed;
  std::vector<std::string> orders;  // pagerank, backlinks, breadth, random
  CrawlOrderOptions study;          // recompute, hot_by, hot_fraction, damping, points, random_seed
  std::string ranks = "pagerank";
  std::string out, html;
};
struct CrawlOrderResult : ResultBase {
  CrawlOrderStudy study;
  std::string seed_label;
  bool pagerank_order = false;
};
CrawlOrderResult crawl_order(Session* session, const CrawlOrderRequest& request, const Run& run);

// `hosts`: the host graph (hosts or pay-level domains, links weighted by page links) as a new
// database with HostRank stored in it.
struct HostsRequest {
  HostGraphOptions hosts;  // by, keep_internal, force, rank (damping, tol), rank_name
  std::string output;
  std::uint64_t k = 20;
};
struct HostsResult : ResultBase {
  HostGraphReport report;
  std::uint64_t k = 0;
  std::string output;
  HostGrouping by = HostGrouping::kHost;
  bool keep_internal = false;
};
HostsResult hosts(Session* session, const HostsRequest& request, const Run& run);

// `centrality`: harmonic centrality (HyperBall), stored as a vector, its top pages, and its
// order against a stored vector.
struct CentralityRequest {
  bool harmonic = false;
  HarmonicOptions harmonic_options;  // counters, log2m, exact_max_pages, seed
  std::string name = "harmonic";
  std::string compare = "pagerank";
  std::uint64_t k = 10;
  std::string out;
};
struct CentralityResult : ResultBase {
  HarmonicResult result;  // without its values
  std::string name, compared_with;
  std::vector<RankedPage> top;
  std::optional<RankComparison> comparison;
  std::uint64_t pages = 0;
};
CentralityResult centrality(Session* session, const CentralityRequest& request, const Run& run);

// `report`: the data of every chart of a web (convergence, distributions, degrees, components,
// top pages, crawl status), written as one self-contained HTML page (or its data as JSON) to
// `output` when given; with `page`, where that page stands in the charts.
struct ReportRequest {
  ReportOptions report;  // ranks, top (k), title
  std::string output;
  std::string format = "html";  // of `output`: html or json
  std::string page;             // a page to place (label, URL, or #ID)
};
struct ReportResult : ResultBase {
  ReportData data;
  std::optional<nlohmann::json> page;  // where `page` stands
  std::string output;
  std::uint64_t bytes = 0;  // written to output
};
ReportResult report(Session* session, const ReportRequest& request, const Run& run);

}  // namespace webrank::app
