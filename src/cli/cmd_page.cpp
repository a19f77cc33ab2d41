// `webrank page DB LABEL [--json]`: one page with everything the database knows of it: its label,
// title, HTTP status and final URL (crawled webs), its links in and out, and its rank, percentile,
// position and scales in every stored vector (webrank/rank/presentation.hpp).
#include <cstdio>

#include "common.hpp"
#include "webrank/json.hpp"
#include "webrank/rank/presentation.hpp"

namespace webrank::cli {

void add_page_command(CLI::App& app) {
  struct Args {
    std::string db, label;
    bool json = false, no_verify = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "page", "Show one page: title, status, links in and out, and its ranks in every vector");
  cmd->add_option("DB", args->db, "Database directory")->required();
  cmd->add_option("LABEL", args->label, "The page's label (its URL on crawled webs)")->required();
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->add_flag("--no-verify", args->no_verify, "Skip checksum verification of the database");
  cmd->callback([args] {
    Database db = open_database(args->db, args->no_verify);
    const PageId id = find_page(db, args->db, args->label);
    const PageReport r = describe_page(db, id);
    if (args->json) {
      std::printf("%s\n", json_text(nlohmann::json(r)).c_str());
      return;
    }
    std::printf("page        %s (id %u of %llu)\n", r.label.c_str(), r.page,
                static_cast<unsigned long long>(r.pages));
    if (r.title) std::printf("title       %s\n", r.title->c_str());
    if (r.status) {
      if (*r.status == 0) {
        std::printf("status      0 (not fetched)\n");
      } else {
        std::printf("status      %u%s\n", *r.status,
                    r.final_url && *r.final_url != r.label ? (" -> " + *r.final_url).c_str() : "");
      }
    }
    std::printf("links       %llu out%s, %llu in%s\n", static_cast<unsigned long long>(r.out_links),
                r.self_link ? " (one to itself)" : "", static_cast<unsigned long long>(r.in_links),
                r.nofollow_links ? cat("; ", r.nofollow_links, " nofollow out").c_str() : "");
    if (r.ranks.empty()) {
      std::printf("ranks       none computed yet: run `webrank rank %s`\n", args->db.c_str());
      return;
    }
    std::printf("%-24s %-12s %10s  %12s %5s %7s\n", "ranks", "rank", "percentile", "position",
                "bar", "toolbar");
    for (const PageVectorPlace& v : r.ranks) {
      if (!v.error.empty()) {
        std::printf("%-24s unreadable: %s\n", v.name.c_str(), v.error.c_str());
        continue;
      }
      const std::string position = cat(v.position, " of ", r.pages);
      std::printf("%-24s %-12.6g %10s  %12s %4.0f%% %4d/10%s\n", v.name.c_str(), v.rank,
                  format_percentile(v.percentile, r.pages).c_str(), position.c_str(), v.bar,
                  v.toolbar, v.converged ? "" : "  (not converged)");
    }
  });
}

}  // namespace webrank::cli
