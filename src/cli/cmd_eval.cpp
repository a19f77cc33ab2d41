// `webrank eval DB QUERIES.tsv`: search quality of the title, text and full modes side by side
// on queries with known answers (webrank/search/search_eval.hpp, docs/search.md).
#include <cstdio>

#include "common.hpp"
#include "webrank/json.hpp"
#include "webrank/search/search_eval.hpp"

namespace webrank::cli {

void add_eval_command(CLI::App& app) {
  struct Args {
    std::string db, queries, ranks = "pagerank";
    SearchOptions o;
    int repeat = 1;
    bool json = false, per_query = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "eval", "Measure search quality (hit@1, hit@3, MRR, nDCG@10) of each mode on a query set");
  cmd->add_option("DB", args->db, "Database directory")->required();
  cmd->add_option("QUERIES", args->queries,
                  "Query set: query<TAB>expected page[<TAB>alternates, comma-separated] per line")
      ->required();
  auto* ranks = cmd->add_option("--ranks", args->ranks, "The stored rank vector to rank by")
                    ->capture_default_str();
  add_ranking_options(cmd, &args->o);
  cmd->add_option("--repeat", args->repeat,
                  "Run each query this many times per mode: the latency percentiles then cover "
                  "them all")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000));
  cmd->add_flag("--per-query", args->per_query,
                "Also show where each mode put each query's first answer");
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args, ranks] {
    const std::vector<EvalQuery> set = read_query_set(args->queries);
    SearcherOptions so;
    so.ranks = args->ranks;
    so.ranks_named = ranks->count() > 0;
    const Searcher searcher = Searcher::open(args->db, so);
    EvalOptions eo;
    eo.search = args->o;
    eo.repeat = args->repeat;
    const EvalReport r = evaluate_search(searcher, set, args->queries, eo);
    if (args->json) {
      nlohmann::json j = r;
      if (!args->per_query) j.erase("outcomes");
      std::printf("%s\n", json_text(j).c_str());
      return;
    }
    if (r.ranks.empty()) {
      std::fprintf(stderr,
                   "webrank: warning: no rank vector '%s': title and full modes do not "
                   "use ranks\n",
                   so.ranks.c_str());
    }
    std::printf("%s: %zu queries on %s, ranks '%s', rank weight %g, BM25 k1 %g b %g\n\n",
                r.file.c_str(), r.queries, args->db.c_str(), r.ranks.c_str(), r.rank_weight,
                r.bm25_k1, r.bm25_b);
    std::printf("%-6s %7s %7s %7s %8s   %8s %8s %8s\n", "mode", "hit@1", "hit@3", "MRR", "nDCG@10",
                "p50 ms", "p99 ms", "max ms");
    for (const ModeQuality& m : r.modes) {
      std::printf("%-6s %7.3f %7.3f %7.3f %8.3f   %8.3f %8.3f %8.3f\n", to_string(m.mode), m.hit1,
                  m.hit3, m.mrr, m.ndcg10, 1000 * m.p50_seconds, 1000 * m.p99_seconds,
                  1000 * m.max_seconds);
    }
    if (args->per_query) {
      std::printf("\nfirst answer at (0: not in the top 10)\n%5s", "line");
      for (const ModeQuality& m : r.modes) std::printf(" %6s", to_string(m.mode));
      std::printf("  query\n");
      for (const QueryOutcome& q : r.outcomes) {
        std::printf("%5zu", q.line);
        for (std::size_t p : q.positions) std::printf(" %6zu", p);
        std::printf("  %s\n", q.query.c_str());
      }
    }
  });
}

}  // namespace webrank::cli
