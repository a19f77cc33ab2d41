// Measuring search quality on a set of queries with known answers (`webrank eval`): hit@1,
// hit@3, MRR and nDCG@10 of each search mode side by side. docs/search.md defines the measures
// and publishes them for the query sets of bench/search/.
//
// A query set is a text file, one query per line: `query<TAB>expected page[<TAB>alternates,
// comma-separated]`; `#` lines and blank lines are skipped. A page given as an absolute URL is
// looked up as `search` would (find_page); anything else is the end of a page's URL ("sql-
// createtable.html", "library/json.html"), so one set serves every crawl of the same documents
// whatever its host, port or file:// path: it must match exactly one page, after a '/'.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "webrank/search/search.hpp"

namespace webrank {

struct EvalQuery {
  std::string query;
  std::vector<std::string> answers;  // the expected page first, then the alternates, as written
  std::size_t line = 0;              // in the file
};

// Reads a query set. Throws Error (kInvalidInput) naming the file and line: a line without a tab
// or an expected page, an empty query.
std::vector<EvalQuery> read_query_set(const std::filesystem::path& path);

// The measures of one mode over a query set. Every query contributes (0 when none of its pages
// is in the top 10).
struct ModeQuality {
  SearchMode mode = SearchMode::kFull;
  double hit1 = 0, hit3 = 0;  // share of queries with an answer in the first 1 / 3 results
  double mrr = 0;             // mean of 1/position of the first answer within the top 10
  double ndcg10 = 0;          // gain 1 for the expected page, 0.5 for an alternate
  // Time of one search (snippets included), as Searcher::search measures it: over every run of
  // every query (EvalOptions::repeat).
  double mean_seconds = 0, p50_seconds = 0, p99_seconds = 0, max_seconds = 0;
};

// Where each mode put a query's first answer (0: not in the top 10).
struct QueryOutcome {
  std::string query;
  std::size_t line = 0;
  std::vector<std::size_t> positions;  // one per mode, in EvalReport::modes order
};

struct EvalReport {
  std::string file;
  std::size_t queries = 0;
  std::vector<ModeQuality> modes;
  std::vector<QueryOutcome> outcomes;
  std::string ranks;  // the vector ranked by ("" if none)
  double rank_weight = kDefaultRankWeight, name_weight = kDefaultNameWeight,
         anchor_name_weight = kDefaultAnchorNameWeight,
         family_name_weight = kDefaultFamilyNameWeight, bm25_k1 = 0, bm25_b = 0;
};

struct EvalOptions {
  std::vector<SearchMode> modes = {SearchMode::kTitle, SearchMode::kText, SearchMode::kFull};
  // Rank weight, BM25 parameters, snippet length and ranks of every search; mode, k and offset
  // are set per search.
  SearchOptions search;
  // Each query runs this many times per mode (>= 1): the measures come from the first run, the
  // times from all of them (a benchmark of search latency: bench/search/).
  int repeat = 1;
};

// Runs every query of `set` in every mode. Throws Error (kInvalidInput) naming `file` and the
// line of a query whose pages are not in the database (or match several), or that is malformed.
EvalReport evaluate_search(const Searcher& searcher, const std::vector<EvalQuery>& set,
                           const std::string& file, const EvalOptions& options = {});

}  // namespace webrank
