#include <cstdio>

#include "common.hpp"
#include "webrank/json.hpp"
#include "webrank/presentation.hpp"
#include "webrank/rank_store.hpp"

namespace webrank::cli {

void add_top_command(CLI::App& app) {
  struct Args {
    std::string db, ranks = "pagerank";
    std::size_t k = 20;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("top", "Show the pages of highest rank");
  cmd->add_option("DB", args->db, "Database directory")->required();
  cmd->add_option("-k", args->k, "How many pages")
      ->capture_default_str()
      ->check(number_check(whole_at_least(1, 1e18)));
  cmd->add_option("--ranks", args->ranks, "Which stored rank vector")->capture_default_str();
  cmd->add_flag("--json", args->json, "Print a JSON array");
  cmd->callback([args] {
    // Labels and one rank vector are all `top` reads: the link sections are not verified here.
    Database db = Database::open(args->db);
    const StoredRanks s = load_ranks(db, args->ranks);
    const auto top = top_ranked_pages(db, s.values, args->k);
    if (args->json) {
      std::printf("%s\n", nlohmann::json(top).dump(2).c_str());
      return;
    }
    if (!s.converged) {
      std::fprintf(stderr, "webrank: warning: rank vector '%s' did not converge\n",
                   args->ranks.c_str());
    }
    constexpr int kBarWidth = 30;
    std::printf("%4s  %-12s %8s  %-*s %7s  %s\n", "#", "rank", "pctile", kBarWidth + 5,
                "log-scale bar", "toolbar", "page");
    int i = 0;
    for (const RankedPage& t : top) {
      const int cells = static_cast<int>(t.bar / 100 * kBarWidth + 0.5);
      std::string drawn(cells, '#');
      drawn.resize(kBarWidth, '.');
      // Crawled webs show the page title after the URL, as the paper's search results do.
      std::string page = t.label;
      if (t.title && !t.title->empty()) page += "  \"" + *t.title + "\"";
      std::printf("%4d  %-12.6g %7.2f%%  %s %3.0f%% %5d/10  %s\n", ++i, t.rank, t.percentile,
                  drawn.c_str(), t.bar, t.toolbar, page.c_str());
    }
  });
}

}  // namespace webrank::cli
