// Computing vectors over a database: rank (one vector, or a batch of personalized ones), hits,
// topics, ppr, and compare (vectors side by side). Options declared once in
// src/app/ranking.cpp; results with their JSON form in webrank/app/app_json.hpp.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "webrank/app/operation.hpp"
#include "webrank/rank/compare.hpp"
#include "webrank/rank/hits.hpp"
#include "webrank/rank/presentation.hpp"
#include "webrank/rank/push.hpp"
#include "webrank/rank/rank.hpp"
#include "webrank/store/vector_record.hpp"

namespace webrank::app {

// Where stored vectors are written as text beside the database (--out): rank sums to 1 (unit),
// or multiplied by the number of pages, so that ranks average 1 (GraphX, GraphChi).
enum class Scale { kUnit, kPages };
std::span<const Named<Scale>> names(Scale);

// `rank`: PageRank with any solver and formulation, stored as `name` (unless !save), or with
// `batch` one vector per line of a batch file, all in one pass. The rank source E is uniform
// unless one of personalize, source, root_pages, bookmarks gives it.
struct RankRequest {
  RankOptions rank;  // damping, tol, max_iter, dangling, method, precision, sweep, ...
  std::string name = "pagerank";
  bool save = true;
  bool replace_unconverged = false;
  std::vector<std::string> personalize;  // pages (labels or URLs), E uniform over them
  WeightsValue source;                   // E as weights
  bool root_pages = false;               // E uniform over the root page of every host
  std::string bookmarks;                 // a file of URLs: E uniform over those in the database
  WeightsValue start;                    // the start vector
  WeightsValue dangling_weights;         // where dangling rank goes
  std::string warm_start_db;             // take `rank.warm_start` from this database
  std::string out;                       // also write LABEL<TAB>RANK per page here
  Scale scale = Scale::kUnit;
  BatchValue batch;  // NAME [LABEL... | @WEIGHTS_FILE] per line: a file, or its lines
};

// One vector computed: its record (what it is, how it was computed, what came of it), whether
// and under which name it was stored.
struct RankedVector {
  VectorRecord record;
  bool stored = false;
};
struct RankReport : ResultBase {
  std::vector<RankedVector> vectors;  // one, or one per line of the batch
  bool batch = false;
  double seconds = 0;  // of the whole solve
  std::string database;
};
RankReport rank(Session* session, const RankRequest& request, const Run& run);

// The option declarations of `rank`, for front ends that take the same options elsewhere
// (webrank-mpi's rank-mpi).
const OptionSet<RankRequest>& rank_request_options();
// The solver's options of `request` with its pages resolved against `db` (personalize, source,
// root pages, bookmarks, start, dangling weights); throws as the operation does. `notices` gets
// the warnings (bookmarks not in the database).
RankOptions resolve_rank_request(const Database& db, const RankRequest& request, const Run& run,
                                 Notices& notices);
// The solver's options of `given` (rank's declarations: damping, tol, max_iter, dangling, method,
// precision, sweep, block_pages; source, start and dangling_weights as one number per page) for
// a web of `pages` pages held in memory, not in a database (Python's webrank.rank(graph)).
// Throws Error(kInvalidArgument): an option of rank that needs a database (name, personalize,
// root_pages, out, batch, ...), or a value its declaration refuses.
RankOptions graph_rank_options(const nlohmann::json& given, PageId pages);
// The declarations graph_rank_options takes (rank's, those that need no database), in rank's
// order: what Python's webrank.rank(graph) offers.
std::vector<OptionSpec> graph_rank_option_specs();

// Stores `result` as the operation does (the name, NAME.unconverged when it would replace a
// converged vector), writes request.out, and says so in `report`.
void finish_rank(const Database& db, const std::string& db_name, const RankRequest& request,
                 const RankOptions& options, RankResult result, RankReport& report);

// `hits`: hubs and authorities, stored as NAME.authority and NAME.hub.
struct HitsRequest {
  HitsOptions hits;
  std::string name = "hits";
  bool replace_unconverged = false;
  std::string out;  // LABEL<TAB>AUTHORITY<TAB>HUB per page
};
struct HitsReport : ResultBase {
  std::string stored, database;
  HitsResult result;  // without its vectors
};
HitsReport hits(Session* session, const HitsRequest& request, const Run& run);

// `topics`: one vector per topic of an assignment file (E uniform over its pages), stored as
// topic.NAME; without `assign`, the topics stored.
struct TopicsRequest {
  RankOptions rank;
  std::string assign;
  std::uint64_t k = 10;  // top pages of each topic checked for membership
};
struct TopicSummary {
  std::string topic, vector;
  std::uint64_t pages = 0;
  int iterations = 0;
  bool converged = false;
  std::uint64_t top_in_topic = 0, pagerank_top_in_topic = 0;
  struct Page {
    std::string label;
    double rank = 0;
    bool in_topic = false;
  };
  std::vector<Page> top;
};
struct TopicsReport : ResultBase {
  std::vector<std::string> stored_topics;  // without `assign`
  std::vector<TopicSummary> topics;        // with it
  std::uint64_t k = 0;
  std::string database;
};
TopicsReport topics(Session* session, const TopicsRequest& request, const Run& run);

// `ppr`: one person's top pages by forward push, with the error bound of the answer.
struct PprRequest {
  std::vector<std::string> pages;  // the rank source: these pages, equally
  PushOptions push;                // k, eps, damping
  std::string store;               // also store the estimate as this vector
};
struct PprReport : ResultBase {
  PprTop top;
  std::vector<std::string> labels;                 // of top.top, in order
  std::vector<std::optional<std::string>> titles;  // of top.top, in order
  double damping = 0, eps = 0;
};
PprReport ppr(Session* session, const PprRequest& request, const Run& run);

// `compare`: vectors side by side as percentiles (the paper's Table 2). The views are stored
// vectors, or PageRank personalized on each of `homes` (computed on demand and kept in the
// session); the pages shown are those of `pages` (a file) or the k highest of each view.
struct CompareRequest {
  std::vector<std::string> views;  // stored vectors
  std::vector<std::string> homes;  // or: home pages, one view each
  std::string pages;               // a file of labels
  std::uint64_t k = 10;
};
struct CompareReport : ResultBase {
  ViewComparison table;
  // Each row's page on each view's scales, rows by views (not in the JSON form).
  std::vector<std::vector<RankedPage>> cells;
};
CompareReport compare(Session* session, const CompareRequest& request, const Run& run);

// PageRank of the session's database personalized on page `home` (damping 0.85, tolerance
// 1e-10 in L1), named after its label and kept by the session for later calls (at most 256 MiB
// of such vectors, least recently used out first; one computed at a time): what `compare
// --homes` and the server's compare view show. Throws Error as compute_rank() does.
std::shared_ptr<const PresentedRanks> personalized_view(const Session& session, PageId home,
                                                        const Run& run);

}  // namespace webrank::app
