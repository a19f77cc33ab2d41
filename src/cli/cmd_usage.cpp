// `webrank usage DB (--counts FILE | --log FILE) [--source] [options]`: PageRank against real
// usage, the paper's §7.1 (webrank/studies/usage.hpp): rank correlations, the pages with high usage
// and low rank and the reverse, and the same for a vector computed with the usage as rank source.
#include <cmath>
#include <cstdio>

#include "common.hpp"
#include "interrupts.hpp"
#include "webrank/json.hpp"
#include "webrank/rank/rank.hpp"
#include "webrank/store/rank_store.hpp"
#include "webrank/studies/usage.hpp"

namespace webrank::cli {
namespace {

void print_list(const char* title, const std::vector<UsagePage>& pages) {
  std::printf("\n%s\n", title);
  if (pages.empty()) {
    std::printf("  (none: the two orders agree on every page)\n");
    return;
  }
  std::printf("%5s  %10s  %7s  %13s  %7s  %s\n", "#", "visits", "usage%", "rank", "rank%", "page");
  for (std::size_t i = 0; i < pages.size(); ++i) {
    const UsagePage& p = pages[i];
    std::printf("%5zu  %10.6g  %7.2f  %13.6g  %7.2f  %s\n", i + 1, p.visits, p.usage_percentile,
                p.rank, p.rank_percentile, p.label.c_str());
  }
}

void print_comparison(const UsageComparison& c, const std::string& what) {
  std::printf("\n'%s'%s against usage, on all %llu pages (no visit = 0):\n", c.vector.c_str(),
              what.c_str(), static_cast<unsigned long long>(c.pages));
  std::printf("Spearman %.6f\n", c.spearman);
  std::printf("Kendall %.6f\n", c.kendall);
  std::printf("on the %llu visited pages only: Spearman %.6f, Kendall %.6f\n",
              static_cast<unsigned long long>(c.visited_pages), c.spearman_visited,
              c.kendall_visited);
  print_list("high usage, low rank (largest usage percentile - rank percentile)",
             c.high_usage_low_rank);
  print_list("high rank, low usage (largest rank percentile - usage percentile)",
             c.high_rank_low_usage);
}

}  // namespace

void add_usage_command(CLI::App& app) {
  struct Args {
    std::string db, counts, log, ranks = "pagerank", name = "usage";
    AccessLogOptions log_options;
    RankOptions rank;
    std::size_t k = 10;
    bool source = false, json = false, no_verify = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "usage",
      "Compare PageRank with real usage (visit counts or an access log): correlations "
      "and the pages they disagree on");
  cmd->add_option("DB", args->db, "Database directory")->required();
  auto* counts = cmd->add_option("--counts", args->counts,
                                 "LABEL<TAB>COUNT lines: visits per page (# comments)");
  auto* log = cmd->add_option("--log", args->log,
                              "A web server access log (Common or Combined Log Format; gz, zst)");
  counts->excludes(log);
  cmd->add_option("--site", args->log_options.site,
                  "--log: scheme://host[:port] of the logged paths (default: the origin every "
                  "page shares)");
  cmd->add_flag("--keep-bots", args->log_options.keep_bots,
                "--log: count user agents of robots (bot, crawler, spider, slurp) too");
  cmd->add_option("--ranks", args->ranks, "The stored vector compared")->capture_default_str();
  cmd->add_option("-k", args->k, "Pages in each list")
      ->capture_default_str()
      ->check(number_check(whole_at_least(1, 1e9)));
  cmd->add_flag("--source", args->source,
                "Also compute PageRank with the usage counts as rank source, store it as --name, "
                "and compare it too");
  cmd->add_option("--name", args->name, "--source: the name of that vector")->capture_default_str();
  cmd->add_option("--damping", args->rank.damping, "--source: damping factor")
      ->capture_default_str()
      ->check(number_check({0, false, 1, false}));
  cmd->add_option("--tol", args->rank.tol, "--source: L1 tolerance")
      ->capture_default_str()
      ->check(number_check(positive()));
  cmd->add_option("--threads", args->rank.threads, "Threads (0 = all cores)")
      ->check(number_check(whole_at_least(0)));
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->add_flag("--no-verify", args->no_verify, "Skip checksum verification of the database");
  cmd->callback([args] {
    if (args->counts.empty() && args->log.empty()) {
      throw CLI::ValidationError("usage", "give the visits: --counts FILE or --log FILE");
    }
    if (args->source) check_rank_name(args->name);
    Database db = open_database(args->db, args->no_verify);
    const StoredRanks base = load_ranks(db, args->ranks);
    AccessLogReport log_report;
    const UsageCounts usage = args->counts.empty()
                                  ? count_log_visits(db, args->log, args->log_options, &log_report)
                                  : read_usage_counts(db, args->counts);
    std::vector<UsageComparison> comparisons{
        compare_usage(db, usage.visits, base.values, args->ranks, args->k)};
    std::optional<RankResult> source_rank;
    if (args->source) {
      RankOptions& o = args->rank;
      for (PageId u = 0; u < db.num_pages(); ++u) {
        if (usage.visits[u] > 0) o.source.emplace_back(u, usage.visits[u]);
      }
      o.stop = arm_interrupts();
      source_rank = compute_rank(db.graph(), o);
      disarm_interrupts();
      save_ranks(db, args->name, *source_rank, o);
      comparisons.push_back(
          compare_usage(db, usage.visits, source_rank->ranks, args->name, args->k));
      if (!source_rank->converged) exit_status() = kExitNotConverged;
    }
    if (args->json) {
      nlohmann::json j;
      j["pages"] = db.num_pages();
      j["visits"] = usage.total;
      j["visited_pages"] = usage.visited_pages;
      if (!args->log.empty()) j["log"] = log_report;
      j["comparisons"] = comparisons;
      if (source_rank) j["source_rank"] = *source_rank;
      std::printf("%s\n", json_text(j).c_str());
      return;
    }
    std::printf("usage: %.15g visits on %llu of %u pages, from %s\n", usage.total,
                static_cast<unsigned long long>(usage.visited_pages), db.num_pages(),
                (args->counts.empty() ? args->log : args->counts).c_str());
    if (!args->log.empty()) {
      const AccessLogReport& r = log_report;
      std::printf(
          "log: %llu lines (%llu in the Combined format), site %s: %llu visits counted; "
          "skipped %llu not GET, %llu not 2xx/304, %llu robots, %llu unknown paths\n",
          static_cast<unsigned long long>(r.lines),
          static_cast<unsigned long long>(r.combined_lines), r.site.c_str(),
          static_cast<unsigned long long>(r.counted), static_cast<unsigned long long>(r.not_get),
          static_cast<unsigned long long>(r.not_success), static_cast<unsigned long long>(r.bots),
          static_cast<unsigned long long>(r.unknown_urls));
      for (const auto& [path, n] : r.top_unknown) {
        std::printf("  unknown: %s (%llu requests)\n", path.c_str(),
                    static_cast<unsigned long long>(n));
      }
    }
    print_comparison(comparisons[0], "");
    if (source_rank) {
      print_comparison(comparisons[1], cat(" (PageRank with the usage as rank source, ",
                                           source_rank->iterations, " iterations; stored)"));
    }
    if (source_rank && !source_rank->converged) {
      std::fprintf(stderr, "webrank: warning: '%s' did not converge (L1 change %.3e)\n",
                   args->name.c_str(), source_rank->final_delta);
    }
  });
}

}  // namespace webrank::cli
