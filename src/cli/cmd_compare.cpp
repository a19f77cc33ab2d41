// `webrank compare DB --views A,B [--pages FILE]`: the paper's Table 2, chosen pages' percentiles
// in several views side by side (webrank/rank/compare.hpp).
#include <cstdio>

#include "common.hpp"
#include "webrank/ingest/rank_sources.hpp"
#include "webrank/json.hpp"
#include "webrank/rank/compare.hpp"
#include "webrank/store/rank_store.hpp"

namespace webrank::cli {

void add_compare_command(CLI::App& app) {
  struct Args {
    std::string db, pages;
    std::vector<std::string> views;
    std::size_t k = 10;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "compare",
      "Rank vectors side by side as percentiles (the paper's Table 2: one web seen from two "
      "points of view)");
  cmd->add_option("DB", args->db, "Database directory")->required();
  cmd->add_option("--views", args->views, "Stored rank vectors to compare, A,B[,C...]")
      ->required()
      ->delimiter(',');
  cmd->add_option("--pages", args->pages,
                  "File of pages to show, one label or URL a line (default: the -k highest of "
                  "each view)");
  cmd->add_option("-k", args->k, "Without --pages: the top pages of each view shown")
      ->capture_default_str()
      ->check(number_check(whole_at_least(1)));
  cmd->add_flag("--json", args->json, "Print the table as JSON");
  cmd->callback([args] {
    const Database db = Database::open(args->db);
    std::vector<StoredRanks> stored;
    std::vector<std::span<const double>> vectors;
    for (const auto& v : args->views) stored.push_back(load_ranks(db, v));
    for (const auto& s : stored) vectors.emplace_back(s.values);
    std::vector<PageId> pages;
    if (!args->pages.empty()) {
      for (const auto& [page, w] : read_page_list(db, args->pages, false).pages)
        pages.push_back(page);
    } else {
      pages = top_pages_of_views(vectors, args->k);
    }
    const ViewComparison c = compare_views(db, args->views, vectors, pages);
    if (args->json) {
      std::printf("%s\n", json_text(nlohmann::json(c)).c_str());
      return;
    }
    // The paper's table: the page, then its percentile in each view.
    std::printf("%-50s", "page");
    for (const auto& v : c.views) std::printf("  %14s", v.c_str());
    std::printf("\n");
    for (const auto& row : c.rows) {
      std::string page = row.label;
      if (row.title && !row.title->empty()) page = *row.title + "  " + page;
      std::printf("%-50s", page.c_str());
      for (double p : row.percentiles) std::printf("  %13.2f%%", p);
      std::printf("\n");
    }
    std::printf("(percentile: the share of pages ranked at or below the page in that view)\n");
  });
}

}  // namespace webrank::cli
