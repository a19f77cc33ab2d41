// `webrank ppr DB URL... [-k 20] [--eps E]`: one person's top pages by forward push, with the
// error bound of the answer (webrank/rank/push.hpp).
#include <cmath>
#include <cstdio>

#include "common.hpp"
#include "interrupts.hpp"
#include "webrank/ingest/rank_sources.hpp"
#include "webrank/json.hpp"
#include "webrank/rank/push.hpp"
#include "webrank/store/rank_store.hpp"

namespace webrank::cli {

void add_ppr_command(CLI::App& app) {
  struct Args {
    std::string db, store;
    std::vector<std::string> urls;
    PushOptions o;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "ppr",
      "Personalized PageRank of one page (or a few) answered interactively by forward push, "
      "with the error bound of the answer");
  cmd->add_option("DB", args->db, "Database directory")->required();
  cmd->add_option("URL", args->urls,
                  "The page (label or URL) whose point of view ranks the web; several pages "
                  "share it equally")
      ->required();
  cmd->add_option("-k", args->o.k, "How many pages")
      ->capture_default_str()
      ->check(number_check(whole_at_least(1)));
  cmd->add_option("--eps", args->o.eps,
                  "Push threshold: a page passes its residual on while it exceeds eps times its "
                  "out-degree (smaller: tighter bound, more work)")
      ->capture_default_str()
      ->check(number_check(positive()));
  cmd->add_option("--damping", args->o.damping, "Damping factor d in [0, 1)")
      ->capture_default_str()
      ->check(number_check({.low = 0, .high = 1, .high_open = true}));
  cmd->add_option(
      "--store", args->store,
      "Also store the estimate as this rank vector (webrank check --ranks verifies it)");
  cmd->add_flag("--json", args->json, "Print the answer as JSON");
  cmd->callback([args] {
    if (!args->store.empty()) check_rank_name(args->store);
    // Labels and links are read, nothing is verified: an interactive answer costs milliseconds.
    Database db = Database::open(args->db);
    PageWeights source;
    for (const auto& url : args->urls) {
      const auto id = find_page(db, url);
      if (!id) fail(ErrorKind::kNotFound, "page '", url, "' is not in the database ", args->db);
      source.emplace_back(*id, 1.0);
    }
    args->o.stop = arm_interrupts();
    const PprTop t = personalized_top(db.graph(), source, args->o);
    disarm_interrupts();
    if (!args->store.empty()) save_push_ranks(db, args->store, t.push, source, args->o);
    if (args->json) {
      nlohmann::json j = t;
      for (std::size_t i = 0; i < t.top.size(); ++i) {
        j["top"][i]["label"] = std::string(db.label(t.top[i].page));
        if (const auto title = db.title(t.top[i].page)) j["top"][i]["title"] = std::string(*title);
      }
      std::printf("%s\n", json_text(j).c_str());
      return;
    }
    std::printf("%4s  %-12s %-27s  %s\n", "#", "rank", "exact rank within", "page");
    int i = 0;
    for (const PprEntry& e : t.top) {
      std::string page(db.label(e.page));
      if (const auto title = db.title(e.page); title && !title->empty())
        page += "  \"" + std::string(*title) + "\"";
      char bounds[40];
      std::snprintf(bounds, sizeof bounds, "[%.6g, %.6g]", e.lower, e.upper);
      std::printf("%4d  %-12.6g %-27s  %s\n", ++i, e.lower, bounds, page.c_str());
    }
    const PushResult& p = t.push;
    std::printf(
        "error bound: the L1 distance to the exact personalized rank is %.3e; every page's rank "
        "is at most that much above its estimate (d = %g, eps = %g)\n",
        p.residual_sum, args->o.damping, args->o.eps);
    if (t.certified) {
      std::printf(
          "top %zu: certain (its lowest rank %.6g >= %.6g, the highest any other page "
          "can have)\n",
          t.top.size(), t.top.empty() ? 0.0 : t.top.back().lower, t.outside_upper);
    } else {
      std::printf(
          "top %zu: not certain (another page may have up to %.6g; a smaller --eps "
          "tightens the bounds)\n",
          t.top.size(), t.outside_upper);
    }
    std::printf("work: %llu pushes, %llu links, %u pages touched%s, %.2f ms\n",
                static_cast<unsigned long long>(p.pushes),
                static_cast<unsigned long long>(p.links_visited), p.pages_touched,
                p.sweeps ? cat(", ", p.sweeps, " full sweeps").c_str() : "", 1e3 * p.seconds);
  });
}

}  // namespace webrank::cli
