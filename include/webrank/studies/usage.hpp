// Traffic estimation (the paper's §7.1): how well PageRank predicts real usage. Visit counts
// come from a `LABEL<TAB>COUNT` file (visits derived from a log or from navigation paths) or
// straight from a web server's access log; they are compared with a rank vector by rank
// correlation (Spearman's rho, Kendall's tau-b: webrank/rank/rank_comparison.hpp), and the pages
// the two disagree on most are listed: high usage and low rank, and the reverse (the paper's two
// lists). The counts can also serve as the rank source E of a new vector ("usage as a start
// vector"), compared the same way.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "webrank/ingest/page_weights_file.hpp"
#include "webrank/store/database.hpp"

namespace webrank {

// Visits by page id (0 for a page never visited).
struct UsageCounts {
  std::vector<double> visits;
  double total = 0;
  std::uint64_t visited_pages = 0;
  // Lines of a counts file naming no page of the database (real usage data names pages outside
  // any crawl): counted and listed, not in `visits` nor `total`.
  UnknownLabels unknown;
};

// Reads `LABEL<TAB>COUNT` lines (the format of read_page_weights: `#` comments, counts finite
// and >= 0, at least one positive); a label listed twice has its counts added. A label that is
// no page goes to `unknown`, or with `strict` is an error naming FILE:LINE; at least one line
// must name a page.
UsageCounts read_usage_counts(const Database& db, const std::string& path, bool strict = false);

struct AccessLogOptions {
  // scheme://host[:port] the log's paths are relative to; empty = the origin every URL of the
  // database shares (an error when they do not share one: the log does not say the host).
  std::string site;
  bool keep_bots = false;  // count user agents that say bot, crawler, spider, ... (Combined)
};

// What reading the log did with its lines.
struct AccessLogReport {
  std::string site;                  // the origin requests were mapped to
  std::uint64_t lines = 0;           // non-blank lines
  std::uint64_t counted = 0;         // requests that became visits
  std::uint64_t not_get = 0;         // other methods (POST, HEAD, ...), and "-" requests
  std::uint64_t not_success = 0;     // status other than 2xx and 304
  std::uint64_t bots = 0;            // user agents of robots (Combined format, unless keep_bots)
  std::uint64_t unknown_urls = 0;    // paths that are no page of the database
  std::uint64_t combined_lines = 0;  // lines with referer and user agent (Combined Log Format)
  std::vector<std::pair<std::string, std::uint64_t>> top_unknown;  // most requested unknown paths
};

// Counts the successful GET requests of a web server access log in the Common or Combined Log
// Format (`host ident user [date] "GET /path HTTP/1.1" status bytes ["referer" "agent"]`; gzip
// and zstd read), mapped to pages by their normalized URL site + path (query kept, fragment
// dropped; "/dir/" also matches a page "/dir/index.html" when "/dir/" is no page). A line that
// is not in either format is an error naming FILE:LINE and what was expected.
UsageCounts count_log_visits(const Database& db, const std::string& path,
                             const AccessLogOptions& options, AccessLogReport* report = nullptr);

// One page of the two lists.
struct UsagePage {
  PageId page = kNoPage;
  std::string label;
  double visits = 0, usage_percentile = 0;
  double rank = 0, rank_percentile = 0;
};

struct UsageComparison {
  std::string vector;               // the rank vector compared
  std::uint64_t pages = 0;          // all pages of the web (no visit = 0)
  std::uint64_t visited_pages = 0;  // with at least one visit
  double total_visits = 0;
  double spearman = 0, kendall = 0;                  // over all pages
  double spearman_visited = 0, kendall_visited = 0;  // over the visited pages only
  // Pages by the gap between their usage percentile and their rank percentile (percentiles as
  // webrank/rank/presentation.hpp defines them), the largest gaps first; ties by more visits, then
  // higher rank. The first list holds visited pages only, the second pages of rank > 0 only.
  std::vector<UsagePage> high_usage_low_rank, high_rank_low_usage;
};

// Compares `visits` with `ranks` (both by page id) and lists k pages each way.
UsageComparison compare_usage(const Database& db, const std::vector<double>& visits,
                              const std::vector<double>& ranks, const std::string& vector_name,
                              std::size_t k);

}  // namespace webrank
