#include <cstdio>

#include "common.hpp"
#include "webrank/json.hpp"
#include "webrank/store/summary.hpp"

namespace webrank::cli {

void add_info_command(CLI::App& app) {
  struct Args {
    std::string db;
    bool json = false, no_verify = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd =
      app.add_subcommand("info", "Show a database's pages, links and degree statistics");
  cmd->add_option("DB", args->db, "Database directory")->required();
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->add_flag("--no-verify", args->no_verify, "Skip checksum verification");
  cmd->callback([args] {
    Database db = open_database(args->db, args->no_verify);
    DatabaseSummary sum = summarize(db);
    sum.path = args->db;
    // A damaged vector is shown with its error (the rest of the summary stands) and fails the
    // command: the database is not all there.
    for (const RankVectorSummary& r : sum.ranks) {
      if (r.error.empty()) continue;
      std::fprintf(stderr, "webrank: error: rank vector '%s': %s\n", r.name.c_str(),
                   r.error.c_str());
      exit_status() = kExitError;
    }
    if (args->json) {
      std::printf("%s\n", json_text(nlohmann::json(sum)).c_str());
      return;
    }
    const DatabaseStats& st = sum.stats;
    std::printf("database        %s (%s on disk)\n", args->db.c_str(),
                format_bytes(static_cast<double>(sum.bytes_on_disk)).c_str());
    std::printf("pages           %u\n", st.pages);
    std::printf("links           %llu%s\n", static_cast<unsigned long long>(st.links),
                st.weighted ? " (weighted)" : "");
    std::printf("dangling pages  %u (%.1f%%)\n", st.dangling_pages,
                100.0 * st.dangling_pages / st.pages);
    std::printf("self-links      %llu\n", static_cast<unsigned long long>(st.self_links));
    if (sum.crawl) {
      const CrawlStats& c = *sum.crawl;
      std::string classes;
      for (const auto& [k, v] : c.status_classes) {
        classes += (classes.empty() ? "" : ", ") + k + " " + std::to_string(v);
      }
      std::printf(
          "crawled         %llu pages fetched (%s), %llu known but not fetched; %llu with "
          "a title, %llu exact duplicates, %llu nofollow links (not ranked)\n",
          static_cast<unsigned long long>(c.fetched_pages), classes.c_str(),
          static_cast<unsigned long long>(c.not_fetched_pages),
          static_cast<unsigned long long>(c.pages_with_title),
          static_cast<unsigned long long>(c.exact_duplicates),
          static_cast<unsigned long long>(c.nofollow_links));
    }
    std::printf("isolated pages  %llu\n", static_cast<unsigned long long>(sum.isolated_pages));
    for (auto [name, d] :
         {std::pair{"out-degree", sum.out_degree}, std::pair{"in-degree", sum.in_degree}}) {
      std::printf("%-15s min %llu, median %llu, mean %.2f, max %llu; %llu pages with none\n", name,
                  static_cast<unsigned long long>(d.min), static_cast<unsigned long long>(d.median),
                  d.mean, static_cast<unsigned long long>(d.max),
                  static_cast<unsigned long long>(d.zero));
    }
    for (const RankVectorSummary& r : sum.ranks) {
      if (!r.error.empty()) {
        std::printf("ranks           %s: %s\n", r.name.c_str(), r.error.c_str());
        continue;
      }
      if (r.algorithm == "hits") {
        std::printf("ranks           %s: HITS %s, %d iterations%s\n", r.name.c_str(),
                    r.kind == "hub" ? "hubs" : "authorities", r.iterations,
                    r.converged ? "" : " (NOT converged)");
        continue;
      }
      std::string method = r.method;
      if (r.solved_by) method += " (" + *r.solved_by + ")";
      std::printf("ranks           %s: %s, %s, d=%g, dangling %s, %d iterations%s\n",
                  r.name.c_str(), method.c_str(), r.precision.c_str(), r.damping,
                  r.dangling.c_str(), r.iterations,
                  r.stale       ? " (stale: computed before an update; a warm start)"
                  : r.converged ? ""
                                : " (NOT converged)");
    }
  });
}

}  // namespace webrank::cli
