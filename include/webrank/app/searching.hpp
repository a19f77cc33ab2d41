// Search (docs/search.md): search, eval (quality on a query set), index (the full-text index).
// Options declared once in src/app/searching.cpp; results with their JSON form in
// webrank/app/app_json.hpp.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "webrank/app/operation.hpp"
#include "webrank/search/search.hpp"
#include "webrank/search/search_eval.hpp"

namespace webrank::app {

// `search`: full-text search ordered by title match and rank, BM25, or both merged, ranked by a
// stored vector (`ranks`, or pagerank when stored) or a mix of topic vectors.
struct SearchRequest {
  std::string query;
  SearchOptions search;  // mode, k, offset, rank_weight, bm25_k1, bm25_b, snippets
  std::string ranks;     // "": pagerank when the database has it
  std::string topics;    // "Science=0.7,Sports=0.3"
  std::string shards;    // a shard list (stub file) to search instead of DB/search.xapian
};
struct SearchReport : ResultBase {
  SearchResults results;
};
SearchReport search(Session* session, const SearchRequest& request, const Run& run);

// `eval`: hit@1, hit@3, MRR, nDCG@10 and latency of every mode on a query set.
struct EvalRequest {
  std::string queries;  // query<TAB>expected page[<TAB>alternates] per line
  SearchOptions search;
  std::string ranks;
  int repeat = 1;
  bool per_query = false;
  std::string shards;  // as SearchRequest::shards
};
struct EvalResult : ResultBase {
  EvalReport report;
  bool per_query = false;
};
EvalResult eval(Session* session, const EvalRequest& request, const Run& run);

// `index`: (re)builds the full-text index inside the database, or one shard of a sharded index.
struct IndexRequest {
  std::string field_weights = to_string(FieldWeights{});  // TITLE,TEXT,ANCHOR,URL,CHROME
  std::string shard;   // "I/N": shard I of N (IndexOptions::shard); "": the whole index
  std::string output;  // where to write it; "": DB/search.xapian (required with `shard`)
};
struct IndexResult : ResultBase {
  IndexReport report;
  std::string database;
};
IndexResult index(Session* session, const IndexRequest& request, const Run& run);

// The index of `db` built with the default weights, after a build, import or crawl of a web with
// page data (a graph has nothing to search but labels); the database is complete whatever
// happens here, and a failure is said in `notices` (errors) rather than thrown.
void index_after_build(const std::filesystem::path& db, const Run& run, Notices& notices);

// The field weights of the search index of `db`, to build the next version's with: nullopt when
// it has none; the defaults when it has a damaged or outdated one (it is rebuilt).
std::optional<FieldWeights> search_index_weights(const Database& db);

// The index of `next`, a new version of the database `shown` not yet published (BeforePublish
// of update and crawl --recrawl), built in its directory so that it is published in the same
// rename. Returns its report, or nullopt when a stop was requested before (the version is then
// published without an index, said in `notices`). Throws as build_search_index does: the update
// is abandoned.
std::optional<IndexReport> index_before_publish(const Database& next,
                                                const std::filesystem::path& shown,
                                                const FieldWeights& weights, const Run& run,
                                                Notices& notices);

}  // namespace webrank::app
