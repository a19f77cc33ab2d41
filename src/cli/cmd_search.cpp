// `webrank search DB "QUERY"`: full-text search ordered by title match and PageRank, BM25, or
// both merged (docs/search.md). Output: text (a result list with snippets), tsv (position, URL,
// title, score, rank) or json (webrank/json.hpp).
#include <unistd.h>

#include <cstdio>

#include "common.hpp"
#include "webrank/ingest/export.hpp"
#include "webrank/json.hpp"
#include "webrank/rank/topics.hpp"
#include "webrank/search/search.hpp"

namespace webrank::cli {
namespace {

enum class Format { kText, kTsv, kJson };

// The snippet with its matches marked: bold on a terminal, **word** otherwise.
std::string marked(const Snippet& s, bool tty) {
  const char* open = tty ? "\033[1m" : "**";
  const char* close = tty ? "\033[0m" : "**";
  std::string out = s.cut_before ? "..." : "";
  std::size_t at = 0;
  for (const TextSpan& m : s.matches) {
    out.append(s.text, at, m.begin - at);
    out += open;
    out.append(s.text, m.begin, m.end - m.begin);
    out += close;
    at = m.end;
  }
  out.append(s.text, at, std::string::npos);
  if (s.cut_after) out += "...";
  return out;
}

void print_text(const SearchResults& r, bool tty) {
  if (r.hits.empty()) {
    std::printf("no page matches \"%s\" (%s search)", r.query.c_str(), to_string(r.mode));
    if (!r.unknown_words.empty()) {
      std::string words;
      for (const auto& w : r.unknown_words) words += (words.empty() ? "" : ", ") + w;
      std::printf(": no page %s %s", r.mode == SearchMode::kTitle ? "title has" : "has",
                  words.c_str());
    } else if (r.offset > 0) {
      std::printf(" past result %zu", r.offset);
    }
    std::printf("\n");
    if (!r.suggestion.empty()) std::printf("did you mean: %s\n", r.suggestion.c_str());
    return;
  }
  const std::string count = r.matches_lower == r.matches_upper ? cat(r.matches_estimated)
                                                               : cat("about ", r.matches_estimated);
  const char* how = r.mode == SearchMode::kTitle  ? "titles, by rank"
                    : r.mode == SearchMode::kText ? "BM25"
                                                  : "BM25 and rank";
  std::printf("%s results for \"%s\" (%s%s%s), %zu-%zu:\n\n", count.c_str(), r.query.c_str(), how,
              r.ranks.empty() ? "" : " ", r.ranks.empty() ? "" : ("'" + r.ranks + "'").c_str(),
              r.hits.front().position, r.hits.back().position);
  constexpr int kBarWidth = 10;
  for (const SearchHit& h : r.hits) {
    const int cells = static_cast<int>(h.page.bar / 100 * kBarWidth + 0.5);
    std::string bar(cells, '#');
    bar.resize(kBarWidth, '.');
    const std::string title = h.page.title && !h.page.title->empty() ? *h.page.title : h.page.label;
    std::printf("%3zu. %s\n", h.position, title.c_str());
    std::printf("     %s\n", h.page.label.c_str());
    std::printf("     [%s] %2d/10, %.2f percentile, score %.4g\n", bar.c_str(), h.page.toolbar,
                h.page.percentile, h.score);
    if (!h.snippet.text.empty()) std::printf("     %s\n", marked(h.snippet, tty).c_str());
    std::printf("\n");
  }
}

}  // namespace

void add_ranking_options(CLI::App* cmd, SearchOptions* o) {
  cmd->add_option("--rank-weight", o->rank_weight,
                  "full mode: weight of the rank's percentile against BM25 relative to the "
                  "query's best (docs/search.md)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--name-weight", o->name_weight,
                  "full mode: bonus to a page the query names (its title or URL; "
                  "docs/search.md)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--anchor-name-weight", o->anchor_name_weight,
                  "full mode: bonus to a page the query names by the anchor text of links to it")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--bm25-k1", o->bm25_k1, "BM25's term-frequency saturation k1")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--bm25-b", o->bm25_b, "BM25's length normalization b")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
}

void add_search_command(CLI::App& app) {
  struct Args {
    std::string db, query, ranks = "pagerank", topics;
    SearchOptions o;
    Format format = Format::kText;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "search",
      "Search the pages of a crawled database (words, \"phrases\", -excluded, OR, "
      "site:HOST, intitle:WORD)");
  cmd->add_option("DB", args->db, "Database directory")->required();
  cmd->add_option("QUERY", args->query, "The query (quote it for the shell)")->required();
  add_enum_option(
      cmd, "--mode", &args->o.mode,
      {{"title", SearchMode::kTitle}, {"text", SearchMode::kText}, {"full", SearchMode::kFull}},
      "title (titles with every word, by PageRank), text (BM25), full (BM25 merged "
      "with PageRank)");
  cmd->add_option("-k", args->o.k, "Results to show")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, kMaxResults));
  cmd->add_option("--offset", args->o.offset, "Results to skip (the next page: --offset 10)")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{0}, kMaxOffset));
  auto* ranks = cmd->add_option("--ranks", args->ranks, "The stored rank vector to rank by")
                    ->capture_default_str();
  cmd->add_option("--topics", args->topics,
                  "Rank by a mix of topic vectors made for this query (webrank topics), e.g. "
                  "\"Science=0.7,Sports=0.3\" (weights normalized to sum 1)")
      ->excludes(ranks);
  add_ranking_options(cmd, &args->o);
  add_enum_option(cmd, "--format", &args->format,
                  {{"text", Format::kText}, {"tsv", Format::kTsv}, {"json", Format::kJson}},
                  "text (results with snippets), tsv (position, URL, title, score, rank per "
                  "line) or json");
  cmd->callback([args, ranks] {
    SearcherOptions so;
    so.ranks = args->ranks;
    so.ranks_named = ranks->count() > 0;
    const Searcher searcher = Searcher::open(args->db, so);
    SearchOptions o = args->o;
    o.snippets = args->format != Format::kTsv;
    if (!args->topics.empty()) {
      const TopicMix mix = TopicMix::load(*searcher.database(), parse_topic_weights(args->topics));
      std::string name = "topics:";
      for (const auto& [topic, w] : mix.weights())
        name += cat(name.size() > 7 ? "," : "", topic, "=", w);
      o.ranks = std::make_shared<const PresentedRanks>(mix.scores(), name);
    }
    const SearchResults r = searcher.search(args->query, o);
    if (r.ranks.empty() && o.mode != SearchMode::kText) {
      std::fprintf(stderr,
                   "webrank: warning: no rank vector '%s' in %s: results are not ordered by rank "
                   "(run `webrank rank %s`)\n",
                   so.ranks.c_str(), args->db.c_str(), args->db.c_str());
    }
    switch (args->format) {
      case Format::kJson:
        std::printf("%s\n", json_text(nlohmann::json(r)).c_str());
        break;
      case Format::kTsv:
        for (const SearchHit& h : r.hits) {
          std::printf("%zu\t%s\t%s\t%.17g\t%.17g\n", h.position, tsv_field(h.page.label).c_str(),
                      tsv_field(h.page.title.value_or("")).c_str(), h.score, h.page.rank);
        }
        if (r.hits.empty()) {
          std::string words;
          for (const auto& w : r.unknown_words) words += (words.empty() ? "" : ", ") + w;
          std::fprintf(stderr, "webrank: no page matches \"%s\"%s%s\n", r.query.c_str(),
                       words.empty() ? "" : ": no page has ", words.c_str());
          if (!r.suggestion.empty()) {
            std::fprintf(stderr, "webrank: did you mean: %s\n", r.suggestion.c_str());
          }
        }
        break;
      case Format::kText:
        print_text(r, isatty(STDOUT_FILENO) != 0);
        break;
    }
  });
}

}  // namespace webrank::cli
