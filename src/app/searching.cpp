// Search (webrank/app/searching.hpp): the use cases, their option declarations and their entries
// in the table of operations.
#include "webrank/app/searching.hpp"

#include <cstdio>
#include <tuple>

#include "app/registry.hpp"
#include "webrank/app/app_json.hpp"
#include "webrank/rank/topics.hpp"
#include "webrank/util/units.hpp"

namespace webrank::app {
namespace {

constexpr const char* kDefaultRanks = "pagerank";

// --rank-weight, --bm25-k1 and --bm25-b, declared once for search and eval.
template <typename Options>
void add_merge_options(OptionSet<Options>& s) {
  s.add("rank_weight", WR_FIELD(search.rank_weight),
        "full mode: weight of the rank's percentile against BM25 relative to the query's best "
        "(docs/search.md)")
      .in(at_least(0));
  s.add("name_weight", WR_FIELD(search.name_weight),
        "full mode: bonus to a page the query names (its title or URL; docs/search.md)")
      .in(at_least(0));
  s.add("anchor_name_weight", WR_FIELD(search.anchor_name_weight),
        "full mode: bonus to a page the query names by the anchor text of links to it")
      .in(at_least(0));
  s.add("family_name_weight", WR_FIELD(search.family_name_weight),
        "full mode: the share of its name bonus a page of a family of similarly named pages "
        "keeps (docs/search.md)")
      .in(closed(0, 1));
  s.add("bm25_k1", WR_FIELD(search.bm25_k1), "BM25's term-frequency saturation k1").in(at_least(0));
  s.add("bm25_b", WR_FIELD(search.bm25_b), "BM25's length normalization b").in(closed(0, 1));
  s.add("unfetched", WR_FIELD(search.unfetched),
        "Pages known only from links to them (not fetched): include, exclude, or auto (excluded "
        "when the fetched pages are of one site; docs/search.md)");
}

// --shards, declared once for search and eval: a file of the caller's disk, so not served.
template <typename Request>
void add_shards_option(OptionSet<Request>& s) {
  s.add("shards", WR_FIELD(shards),
        "Search a sharded index: a Xapian stub file listing its shards in order, local paths "
        "(auto PATH) or xapian-tcpsrv servers (remote HOST:PORT) (docs/search.md)")
      .as("FILE")
      .only(kCli | kPython);
}

const OptionSet<SearchRequest>& search_options() {
  static const OptionSet<SearchRequest> set = [] {
    OptionSet<SearchRequest> s;
    s.add("query", WR_FIELD(query), "The query (quote it for the shell)")
        .as("QUERY")
        .at(0)
        .needed()
        .http("q");
    s.add("mode", WR_FIELD(search.mode),
          "title (titles with every word, by PageRank), text (BM25), full (BM25 merged with "
          "PageRank)");
    s.add("k", WR_FIELD(search.k), "Results to show")
        .in(closed(1, static_cast<double>(kMaxResults)))
        .serve_in(closed(1, kServedMaxResults))
        .as("N", "results");
    s.add("offset", WR_FIELD(search.offset), "Results to skip (the next page: --offset 10)")
        .in(closed(0, static_cast<double>(kMaxOffset)))
        .as("N", "results");
    s.add("ranks", WR_FIELD(ranks),
          "The stored rank vector to rank by (default: pagerank, when the database has it)")
        .as("NAME")
        .without("topics");
    s.add("topics", WR_FIELD(topics),
          "Rank by a mix of topic vectors made for this query (webrank topics), e.g. "
          "\"Science=0.7,Sports=0.3\" (weights normalized to sum 1)")
        .as("MIX");
    add_merge_options(s);
    s.add("snippets", WR_FIELD(search.snippets),
          "Passages of each result's text around the query words");
    add_shards_option(s);
    return s;
  }();
  return set;
}

const OptionSet<EvalRequest>& eval_options() {
  static const OptionSet<EvalRequest> set = [] {
    OptionSet<EvalRequest> s;
    s.add("queries", WR_FIELD(queries),
          "Query set: query<TAB>expected page[<TAB>alternates, comma-separated] per line")
        .as("QUERIES")
        .at(0)
        .needed();
    s.add("ranks", WR_FIELD(ranks),
          "The stored rank vector to rank by (default: pagerank, when the database has it)")
        .as("NAME");
    add_merge_options(s);
    s.add("repeat", WR_FIELD(repeat),
          "Run each query this many times per mode: the latency percentiles then cover them all")
        .in(closed(1, 10000))
        .as("N", "runs");
    s.add("per_query", WR_FIELD(per_query),
          "Also show where each mode put each query's first answer");
    add_shards_option(s);
    return s;
  }();
  return set;
}

const OptionSet<IndexRequest>& index_options() {
  static const OptionSet<IndexRequest> set = [] {
    OptionSet<IndexRequest> s;
    s.add("field_weights", WR_FIELD(field_weights),
          "How much a word of the title, the text, an anchor text, the URL and the site's chrome "
          "counts (docs/search.md)")
        .as("T,X,A,U[,C]");
    s.add("shard", WR_FIELD(shard),
          "Build shard I of a sharded index of N shards: the pages whose id % N is I "
          "(docs/search.md, \"A sharded index\"); needs --output")
        .as("I/N");
    s.add("output", WR_FIELD(output), "Write the index here instead of DB/search.xapian")
        .as("FILE");
    return s;
  }();
  return set;
}

FieldWeights field_weights(const std::string& text) {
  if (const auto f = parse_field_weights(text)) return *f;
  fail_option("field_weights",
              "expected four or five integers TITLE,TEXT,ANCHOR,URL[,CHROME] (e.g. ",
              to_string(FieldWeights{}), "), got '", text, "'");
}

// "I/N" as index --shard takes it.
std::pair<int, int> parse_shard(const std::string& text) {
  int i = 0, n = 0;
  char end;
  if (std::sscanf(text.c_str(), "%d/%d%c", &i, &n, &end) != 2 || n < 1 || i < 0 || i >= n ||
      n > 4096) {
    fail_option("shard", "expected I/N with 0 <= I < N <= 4096 (e.g. 0/2), got '", text, "'");
  }
  return {i, n};
}

IndexReport build_index(const Database& db, const FieldWeights& weights, const Run& run,
                        const IndexRequest& req = {}) {
  IndexOptions o;
  if (!req.shard.empty()) {
    std::tie(o.shard, o.shards) = parse_shard(req.shard);
    if (req.output.empty()) {
      fail_option("output", "is needed with ", option_ref("shard"),
                  ": a shard must not replace the database's own index");
    }
  }
  o.output = req.output;
  o.field_weights = weights;
  o.threads = run.threads;
  o.stop = run.stop;
  if (run.on_progress) o.on_progress = [&run](const IndexProgress& p) { run.on_progress(p); };
  return build_search_index(db, o);
}

std::string indexed(const std::string& db, const IndexReport& r) {
  char rate[32];
  std::snprintf(rate, sizeof rate, "%.0f",
                r.seconds > 0 ? static_cast<double>(r.pages) / r.seconds : 0.0);
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.2f", r.seconds);
  return cat("indexed ", db, ": ", r.documents, " documents of ", r.pages, " pages, ",
             format_bytes(static_cast<double>(r.bytes)), ", in ", seconds, " s (", rate,
             " pages/s on ", r.threads, " thread", r.threads == 1 ? "" : "s", ")");
}

}  // namespace

SearchReport search(Session* session, const SearchRequest& req, const Run&) {
  check_query(req.query);
  const std::string ranks = req.ranks.empty() ? kDefaultRanks : req.ranks;
  const Searcher& searcher = session->searcher(ranks, !req.ranks.empty(), false, req.shards);
  SearchOptions o = req.search;
  if (!req.topics.empty()) {
    const TopicMix mix = TopicMix::load(*searcher.database(), parse_topic_weights(req.topics));
    std::string name = "topics:";
    for (const auto& [topic, w] : mix.weights())
      name += cat(name.size() > 7 ? "," : "", topic, "=", w);
    o.ranks = std::make_shared<const PresentedRanks>(mix.scores(), name);
  }
  SearchReport r;
  r.results = searcher.search(req.query, o);
  if (!o.ranks && o.mode != SearchMode::kText) {
    if (const auto shown = searcher.ranks()) note_vector_state(*shown, r.notices);
  }
  if (r.results.ranks.empty() && o.mode != SearchMode::kText) {
    r.notices.warnings.push_back(cat("no rank vector named '", ranks, "' in ",
                                     session->path().string(),
                                     ": results are not ordered by rank (`webrank rank ",
                                     session->path().string(), "` computes one)"));
  }
  return r;
}

EvalResult eval(Session* session, const EvalRequest& req, const Run&) {
  const std::vector<EvalQuery> set = read_query_set(req.queries);
  const std::string ranks = req.ranks.empty() ? kDefaultRanks : req.ranks;
  const Searcher& searcher = session->searcher(ranks, !req.ranks.empty(), false, req.shards);
  EvalOptions eo;
  eo.search = req.search;
  eo.repeat = req.repeat;
  EvalResult r;
  r.report = evaluate_search(searcher, set, req.queries, eo);
  r.per_query = req.per_query;
  if (r.report.ranks.empty()) {
    r.notices.warnings.push_back(cat("no rank vector named '", ranks, "' in ",
                                     session->path().string(),
                                     ": title and full modes do not use ranks"));
  }
  return r;
}

IndexResult index(Session* session, const IndexRequest& req, const Run& run) {
  const auto db = session->database();
  IndexResult r;
  r.report = build_index(*db, field_weights(req.field_weights), run, req);
  r.database = session->path().string();
  r.notices.said.push_back(
      indexed(req.output.empty() ? db->path().string() : r.report.path.string(), r.report) +
      (r.report.shards > 1 ? cat(", shard ", r.report.shard, " of ", r.report.shards) : ""));
  return r;
}

void index_after_build(const std::filesystem::path& path, const Run& run, Notices& notices) {
  const Database db = Database::open(path);
  if (!db.has_page_data()) return;  // a graph: nothing to search but labels, on demand
  try {
    const IndexReport r = build_index(db, FieldWeights{}, run);
    notices.said.push_back(indexed(path.string(), r));
  } catch (const Error& e) {
    notices.errors.push_back(cat(path.string(),
                                 ": the database is complete, its search index is not (", e.what(),
                                 "); build it with `webrank index ", path.string(), "`"));
    if (e.kind() == ErrorKind::kCancelled) throw;
  }
}

std::optional<FieldWeights> search_index_weights(const Database& db) {
  try {
    const auto info = search_index_info(db);
    if (!info) return std::nullopt;
    return info->field_weights;
  } catch (const Error&) {
    return FieldWeights{};  // there, damaged or built for another version: rebuilt
  }
}

std::optional<IndexReport> index_before_publish(const Database& next,
                                                const std::filesystem::path& shown,
                                                const FieldWeights& weights, const Run& run,
                                                Notices& notices) {
  if (run.stop.stop_requested()) {
    notices.said.push_back(cat("not indexed (interrupted): the new version of ", shown.string(),
                               " has no search index; build it with `webrank index ",
                               shown.string(), "`"));
    return std::nullopt;
  }
  IndexReport r = build_index(next, weights, run);
  notices.said.push_back(indexed(shown.string(), r) +
                         " (the new version, published with its index in one step)");
  return r;
}

void add_search_operations(std::vector<Operation>& table) {
  const std::string group = "Search and serve";
  table.push_back(make_operation(
      {.name = "search",
       .group = group,
       .summary = "Search the pages of a crawled database (words, \"phrases\", -excluded, OR, "
                  "site:HOST, intitle:WORD)",
       .served = true,
       .verifies = false,
       .cost = Cost::kBounded},
      search_options(), &search));
  table.push_back(make_operation(
      {.name = "eval",
       .group = group,
       .summary = "Measure search quality (hit@1, hit@3, MRR, nDCG@10) of each mode on a query "
                  "set",
       .verifies = false},
      eval_options(), &eval));
  table.push_back(make_operation(
      {.name = "index",
       .group = group,
       .summary = "Build the full-text search index of a database (done by crawl and import of "
                  "crawls)",
       .access = Access::kWrite},
      index_options(), &index));
}

}  // namespace webrank::app
