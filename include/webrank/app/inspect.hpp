// Looking at a database and its vectors: info, check, ranks (list and delete), top, page, links,
// backlinks, compare-ranks, and what a server shows: status, history, proxy. Each is one call over
// a Session (webrank/app/operation.hpp) with one options struct, declared once in
// src/app/inspect.cpp, and one result with its JSON form (webrank/app/app_json.hpp), the form
// `--json`, Python and the server give.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "webrank/app/operation.hpp"
#include "webrank/rank/presentation.hpp"
#include "webrank/rank/rank_comparison.hpp"
#include "webrank/rank/topics.hpp"
#include "webrank/rank/verify.hpp"
#include "webrank/search/links.hpp"
#include "webrank/search/search.hpp"
#include "webrank/store/summary.hpp"

namespace webrank::app {

// `info`: the database's counts, degrees, crawl statistics, stored vectors (a damaged vector
// is listed with its error, and named in notices.errors) and its search index (none, its
// description, or why it cannot be used: damaged, another version, another database).
struct InfoOptions {};
struct InfoResult : ResultBase {
  DatabaseSummary summary;
  std::optional<IndexInfo> search_index;
  std::string search_index_error;  // set when the index is there but cannot be used
};
InfoResult info(Session* session, const InfoOptions& options, const Run& run);

// `check`: every checksum of the database and its vectors, read whatever an earlier
// verification recorded; with `ranks`, the verifier's residual of those vectors (a vector
// outside its tolerance is in notices.errors). Throws Error(kCorrupt) on damage, kNotFound for
// a vector in `ranks` that is not stored (before anything is reported).
struct CheckOptions {
  std::vector<std::string> ranks;
};
struct CheckResult : ResultBase {
  std::uint32_t pages = 0;
  std::uint64_t links = 0, vector_count = 0;
  std::vector<RankCheck> verdicts;  // of `ranks`, in order
};
CheckResult check(Session* session, const CheckOptions& options, const Run& run);

// `ranks`: the stored vectors; `remove` deletes some first (a HITS name deletes both vectors).
struct RanksOptions {
  std::vector<std::string> remove;
};
struct RanksResult : ResultBase {
  std::vector<std::string> deleted;
  std::vector<RankVectorSummary> vectors_stored;
};
RanksResult ranks(Session* session, const RanksOptions& options, const Run& run);

// `top`: the k pages of highest rank in a stored vector or a mix of topic vectors.
struct TopOptions {
  std::uint64_t k = 20;
  std::string ranks = "pagerank";
  std::string topics;  // "Science=0.7,Sports=0.3": rank by that mix of topic vectors
};
struct TopResult : ResultBase {
  std::uint64_t pages_in_web = 0;
  TopicWeights mix;  // the normalized topic weights, when ranked by topics
  std::vector<RankedPage> pages;
};
TopResult top(Session* session, const TopOptions& options, const Run& run);

// `page`: one page with everything the database knows of it and its place in every vector.
struct PageOptions {
  std::string page;  // its label or URL (a slash more or less is suggested when missing)
};
struct PageResult : ResultBase {
  PageReport report;
  bool copies = false;  // the database keeps the copies of crawled pages (not in the JSON form)
};
PageResult page(Session* session, const PageOptions& options, const Run& run);

// `backlinks` and `links`: a page's neighbours on a vector's scales.
struct LinksOptions {
  std::string page;
  std::string ranks = "pagerank";
  std::uint64_t k = 20, offset = 0;  // backlinks only
};
struct BacklinksResult : ResultBase {
  std::string url, ranks;
  Backlinks backlinks;
  std::uint64_t offset = 0, k = 0;
};
BacklinksResult backlinks(Session* session, const LinksOptions& options, const Run& run);
struct LinksResult : ResultBase {
  std::string url, ranks;
  std::vector<ForwardLink> links;
};
LinksResult links(Session* session, const LinksOptions& options, const Run& run);

// `status`: what a server of the database serves (its /healthz and every page's footer): the
// database's name, its counts, the vector results are ranked by and whether search is on.
struct StatusOptions {
  std::string ranks;  // "": pagerank when the database has it (as search ranks)
};
struct StatusResult : ResultBase {
  std::string database;  // the directory's name
  std::uint64_t pages = 0, links = 0;
  std::optional<std::string> ranks;  // null when no vector ranks the results
  bool search = false;               // the database has a search index
};
StatusResult status(Session* session, const StatusOptions& options, const Run& run);

// `history`: the L1 change of every iteration of a stored vector, from its record.
struct HistoryOptions {
  std::string ranks = "pagerank";
};
struct HistoryResult : ResultBase {
  std::string ranks;
  bool converged = false;
  int iterations = 0;
  std::vector<double> l1;
};
HistoryResult history(Session* session, const HistoryOptions& options, const Run& run);

// `proxy`: the stored copy of a crawled page (Database::html) and its links in document order,
// each resolved against the page's final URL (and its <base href>) as the crawler resolved it,
// with the target's place on a vector's scales when it is a page of the database. The links are
// those sanitize_page() hands its rewriter (webrank/web/sanitize.hpp), in the same order, so a
// front end that shows the copy rewritten finds link i's target at links[i].
struct ProxyOptions {
  std::string page;
  std::string ranks = "pagerank";
};
struct ProxyLink {
  std::string href;                   // as in the page
  std::optional<std::string> target;  // resolved; null for javascript:, mailto:, malformed...
  std::optional<RankedPage> page;     // the target's page, null when it is not in the database
};
struct ProxyResult : ResultBase {
  std::string url;    // the page's label
  std::string title;  // its <title> text
  RankedPage ranked;  // the page itself on the vector's scales
  std::string html;   // the stored copy, as fetched (not in the JSON form)
  std::vector<ProxyLink> links;
};
ProxyResult proxy(Session* session, const ProxyOptions& options, const Run& run);

// `compare-ranks`: two vectors (stored, or LABEL<TAB>VALUE files) compared on the pages both
// give a value.
struct CompareRanksOptions {
  std::string a, b;
  std::vector<std::uint64_t> k{10, 100, 1000};  // sizes of the top lists compared
};
struct CompareRanksResult : ResultBase {
  std::string a, b;
  std::uint64_t pages_in_web = 0;
  bool from_file = false;
  std::string max_difference_label;
  RankComparison comparison;
};
CompareRanksResult compare_ranks(Session* session, const CompareRanksOptions& options,
                                 const Run& run);

}  // namespace webrank::app
