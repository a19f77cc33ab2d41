// `webrank topics DB --assign FILE`: topic-sensitive PageRank, one vector per topic computed in
// one batch (webrank/rank/topics.hpp); without --assign, the topics the database holds.
#include <algorithm>
#include <cstdio>

#include "common.hpp"
#include "interrupts.hpp"
#include "webrank/ingest/rank_sources.hpp"
#include "webrank/json.hpp"
#include "webrank/rank/presentation.hpp"
#include "webrank/rank/topics.hpp"

namespace webrank::cli {

void add_topics_command(CLI::App& app) {
  struct Args {
    std::string db, assign;
    RankOptions o;
    std::size_t k = 10;
    bool quiet = false, json = false, no_verify = false;
    ProgressMode progress = ProgressMode::kAuto;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "topics",
      "Topic-sensitive PageRank: one vector per topic (E uniform over its pages) in one pass, "
      "stored as topic.NAME; mix them with `top --topics`");
  cmd->add_option("DB", args->db, "Database directory")->required();
  cmd->add_option("--assign", args->assign,
                  "File of LABEL<TAB>TOPIC lines (a page may have several topics); without it, "
                  "list the topics computed");
  add_batch_rank_options(cmd, &args->o);
  cmd->add_option("-k", args->k, "Top pages of each topic checked for membership in the summary")
      ->capture_default_str()
      ->check(number_check(whole_at_least(1)));
  cmd->add_flag("--json", args->json, "Print the summary as JSON");
  cmd->add_flag("-q,--quiet", args->quiet, "Print nothing but errors and warnings");
  cmd->add_flag("--no-verify", args->no_verify, "Skip checksum verification of the database");
  add_progress_option(cmd, &args->progress);
  cmd->callback([args] {
    if (args->assign.empty()) {
      const Database db = Database::open(args->db);
      for (const auto& t : stored_topics(db)) std::printf("%s\n", t.c_str());
      return;
    }
    Database db = open_database(args->db, args->no_verify);
    const TopicAssignment a = read_topic_assignment(db, args->assign);
    ProgressLine line(args->quiet || args->json ? ProgressMode::kNever : args->progress);
    BatchOptions bo;
    bo.rank = args->o;
    bo.on_iteration = batch_progress(line, args->progress);
    bo.rank.stop = arm_interrupts();
    const TopicRanks ranks = compute_topic_ranks(db, a.topics, a.pages, bo, /*with_pagerank=*/true);
    const std::vector<RankResult>& results = ranks.topics;
    const auto pagerank_top = top_pages(ranks.pagerank.ranks, args->k);
    disarm_interrupts();
    line.finish();
    // How topical each vector's top pages are: the share that carry the topic themselves.
    nlohmann::json summary = nlohmann::json::array();
    for (std::size_t t = 0; t < a.topics.size(); ++t) {
      const auto top = top_ranked_pages(db, results[t].ranks, args->k);
      std::size_t inside = 0;
      nlohmann::json pages = nlohmann::json::array();
      for (const RankedPage& p : top) {
        const bool in = std::binary_search(a.pages[t].begin(), a.pages[t].end(),
                                           std::pair<PageId, double>(p.page, 1.0));
        inside += in;
        pages.push_back({{"label", p.label}, {"rank", p.rank}, {"in_topic", in}});
      }
      std::size_t pagerank_inside = 0;  // the same count for ordinary PageRank's top pages
      for (const TopEntry& e : pagerank_top) {
        pagerank_inside += std::binary_search(a.pages[t].begin(), a.pages[t].end(),
                                              std::pair<PageId, double>(e.page, 1.0));
      }
      summary.push_back({{"topic", a.topics[t]},
                         {"pagerank_top_in_topic", pagerank_inside},
                         {"vector", topic_vector_name(a.topics[t])},
                         {"pages", a.pages[t].size()},
                         {"iterations", results[t].iterations},
                         {"converged", results[t].converged},
                         {"top_in_topic", inside},
                         {"top", pages}});
      report_convergence(results[t], cat("topic '", a.topics[t], "' "), args->o);
    }
    if (args->json) {
      std::printf("%s\n", json_text(summary).c_str());
      return;
    }
    if (args->quiet) return;
    std::printf("%-24s %7s %6s  %-12s %-12s  %s\n", "topic", "pages", "iters",
                cat("topic top ", args->k).c_str(), cat("PageRank top ", args->k).c_str(),
                "highest-ranked pages (* = not in the topic)");
    for (const auto& s : summary) {
      std::string best;
      for (std::size_t i = 0; i < std::min<std::size_t>(3, s["top"].size()); ++i) {
        best += (i ? ", " : "") + s["top"][i]["label"].get<std::string>() +
                (s["top"][i]["in_topic"].get<bool>() ? "" : "*");
      }
      std::printf("%-24s %7zu %6d  %3zu in topic %3zu in topic  %s\n",
                  s["topic"].get<std::string>().c_str(), s["pages"].get<std::size_t>(),
                  s["iterations"].get<int>(), s["top_in_topic"].get<std::size_t>(),
                  s["pagerank_top_in_topic"].get<std::size_t>(), best.c_str());
    }
    std::fprintf(stderr, "%zu topic vectors stored as topic.NAME in %s\n", a.topics.size(),
                 args->db.c_str());
  });
}

}  // namespace webrank::cli
