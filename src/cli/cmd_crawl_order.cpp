// `webrank crawl-order DB [--seed URL] [--order pagerank|backlinks|breadth|random]...
// [--recompute EVERY]`: simulated crawls of the known web in several orders, and how soon each
// finds the hot pages (the paper's §7.2; webrank/studies/crawl_order.hpp).
#include <cmath>
#include <cstdio>

#include "common.hpp"
#include "interrupts.hpp"
#include "webrank/json.hpp"
#include "webrank/rank/rank.hpp"
#include "webrank/report/report.hpp"
#include "webrank/store/rank_store.hpp"
#include "webrank/studies/crawl_order.hpp"
#include "webrank/util/output_file.hpp"

namespace webrank::cli {

void add_crawl_order_command(CLI::App& app) {
  struct Args {
    std::string db, seed, ranks = "pagerank", out, html;
    std::vector<CrawlOrder> orders;
    CrawlOrderOptions o;
    bool json = false, quiet = false, no_verify = false;
    ProgressMode progress = ProgressMode::kAuto;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "crawl-order",
      "Simulate crawls in PageRank, backlink, breadth-first and random order and "
      "measure how soon they find the hot pages");
  cmd->add_option("DB", args->db, "Database directory")->required();
  cmd->add_option("--seed", args->seed,
                  "The page the crawls start from (default: page id 0, the "
                  "first page of the input: a crawl's seed)");
  const std::vector<std::pair<std::string, CrawlOrder>> names{{"pagerank", CrawlOrder::kPageRank},
                                                              {"backlinks", CrawlOrder::kBacklinks},
                                                              {"breadth", CrawlOrder::kBreadth},
                                                              {"random", CrawlOrder::kRandom}};
  cmd->add_option_function<std::vector<std::string>>(
         "--order",
         [args, names](const std::vector<std::string>& list) {
           for (const std::string& s : list) {
             for (const auto& [name, order] : names) {
               if (name == s) args->orders.push_back(order);
             }
           }
         },
         "pagerank, backlinks, breadth or random (repeatable; default: all four)")
      ->check(CLI::IsMember({"pagerank", "backlinks", "breadth", "random"}))
      ->allow_extra_args(false);
  cmd->add_option("--recompute", args->o.recompute_every,
                  "PageRank order: pages fetched between PageRank computations of the graph seen "
                  "(default: 1% of the reachable pages)")
      ->check(number_check(whole_at_least(1, 1e18)));
  add_enum_option(cmd, "--hot", &args->o.hot_by,
                  {{"in-degree", HotBy::kInDegree}, {"pagerank", HotBy::kPageRank}},
                  "Hot pages are the top by final in-degree, or by final PageRank (--ranks)");
  cmd->add_option("--hot-fraction", args->o.hot_fraction, "The share of pages that are hot")
      ->capture_default_str()
      ->check(number_check({0, true, 1, false}));
  cmd->add_option("--ranks", args->ranks,
                  "--hot pagerank: the stored vector of the whole web (computed if absent)")
      ->capture_default_str();
  cmd->add_option("--damping", args->o.damping, "Damping factor of the PageRank order")
      ->capture_default_str()
      ->check(number_check({0, false, 1, true}));
  cmd->add_option("--points", args->o.points, "Points per curve")
      ->capture_default_str()
      ->check(number_check(whole_at_least(1, 1e6)));
  cmd->add_option("--random-seed", args->o.random_seed, "Seed of the random order")
      ->capture_default_str();
  cmd->add_option("--out", args->out,
                  "Write the curves as TSV: crawled fraction, then the hot fraction of each order");
  cmd->add_option("--html", args->html, "Write the curves as a chart in a self-contained page");
  add_run_flags(cmd, &args->o.threads, &args->json, &args->quiet, &args->no_verify,
                &args->progress);
  cmd->callback([args] {
    CrawlOrderOptions& o = args->o;
    Database db = open_database(args->db, args->no_verify);
    if (db.num_pages() == 0) fail(ErrorKind::kInvalidInput, args->db, ": the web has no pages");
    o.seed = args->seed.empty() ? 0 : find_page(db, args->db, args->seed);
    if (!args->orders.empty()) o.orders = args->orders;
    o.stop = arm_interrupts();
    if (o.hot_by == HotBy::kPageRank) {
      const auto names = db.rank_names();
      if (std::find(names.begin(), names.end(), args->ranks) != names.end()) {
        o.final_ranks = load_ranks(db, args->ranks).values;
      } else {
        if (!args->quiet) {
          std::fprintf(stderr,
                       "crawl-order: no vector '%s' stored: computing PageRank of the "
                       "whole web (not stored)\n",
                       args->ranks.c_str());
        }
        RankOptions ro;
        ro.threads = o.threads;
        ro.stop = o.stop;
        o.final_ranks = compute_rank(db.graph(), ro).ranks;
      }
    }
    ProgressLine line(args->quiet ? ProgressMode::kNever : args->progress);
    o.on_progress = [&](const CrawlOrderProgress& p) {
      char text[160];
      std::snprintf(text, sizeof text, "crawl-order: %s  %llu of %llu pages  %s elapsed",
                    to_string(p.order), static_cast<unsigned long long>(p.fetched),
                    static_cast<unsigned long long>(p.reachable),
                    format_duration(p.seconds).c_str());
      nlohmann::json j = {{"stage", "crawl-order"},
                          {"order", to_string(p.order)},
                          {"fetched", p.fetched},
                          {"reachable", p.reachable},
                          {"seconds", p.seconds}};
      line.update(text, json_text(j, -1));
    };
    const CrawlOrderStudy s = simulate_crawl_orders(db.graph(), o);
    disarm_interrupts();
    line.finish();
    nlohmann::json j = s;
    j["seed_label"] = db.label(s.seed);
    if (!args->out.empty()) {
      std::string tsv = "# crawled";
      for (const CrawlCurve& c : s.curves) tsv += cat("\t", to_string(c.order));
      tsv += "\tideal\n";
      for (std::size_t i = 0; i < s.ideal.crawled.size(); ++i) {
        tsv += cat(s.ideal.crawled[i]);
        for (const CrawlCurve& c : s.curves) tsv += cat("\t", i < c.hot.size() ? c.hot[i] : 1.0);
        tsv += cat("\t", s.ideal.hot[i], "\n");
      }
      write_output_file(args->out, tsv);
    }
    if (!args->html.empty()) {
      write_output_file(args->html,
                        render_chart_page("webrank crawl-order: " + args->db, "crawlOrder", j));
    }
    if (args->json) {
      std::printf("%s\n", json_text(j).c_str());
      return;
    }
    if (args->quiet) return;
    std::printf(
        "crawls from %s: %llu of %llu pages reachable; hot: the top %g%% (%llu pages) by "
        "final %s\n",
        std::string(db.label(s.seed)).c_str(), static_cast<unsigned long long>(s.reachable),
        static_cast<unsigned long long>(s.pages), 100 * s.hot_fraction,
        static_cast<unsigned long long>(s.hot_pages), to_string(s.hot_by));
    std::printf(
        "fraction of the hot pages found after crawling 10%%, 20%%, 50%% of the pages, "
        "and on average over the crawl:\n");
    std::printf("%-10s  %7s  %7s  %7s  %7s  %9s  %8s\n", "order", "10%", "20%", "50%", "mean",
                "PR runs", "seconds");
    for (const CrawlCurve& c : s.curves) {
      std::printf("%-10s  %7.3f  %7.3f  %7.3f  %7.3f  %9llu  %8.2f\n", to_string(c.order),
                  c.hot_at_10, c.hot_at_20, c.hot_at_50, c.mean_hot,
                  static_cast<unsigned long long>(c.pagerank_computations), c.seconds);
    }
    std::printf("%-10s  %7.3f  %7.3f  %7.3f  %7.3f\n", "ideal", s.ideal.hot_at_10,
                s.ideal.hot_at_20, s.ideal.hot_at_50, s.ideal.mean_hot);
    if (std::find(o.orders.begin(), o.orders.end(), CrawlOrder::kPageRank) != o.orders.end()) {
      std::printf("(PageRank of the graph seen recomputed every %llu pages)\n",
                  static_cast<unsigned long long>(s.recompute_every));
    }
  });
}

}  // namespace webrank::cli
