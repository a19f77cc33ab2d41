// `webrank centrality DB --harmonic [options]`: harmonic centrality by HyperBall
// (webrank/algo/centrality.hpp), stored as a vector, its top pages, and how its order compares with
// PageRank's.
#include <cmath>
#include <cstdio>

#include "common.hpp"
#include "interrupts.hpp"
#include "webrank/json.hpp"
#include "webrank/rank/presentation.hpp"
#include "webrank/rank/rank_comparison.hpp"
#include "webrank/store/rank_store.hpp"
#include "webrank/studies/stored_centrality.hpp"

namespace webrank::cli {

void add_centrality_command(CLI::App& app) {
  struct Args {
    std::string db, name = "harmonic", out, compare = "pagerank";
    HarmonicOptions o;
    bool harmonic = false, json = false, quiet = false, no_verify = false;
    std::size_t k = 10;
    ProgressMode progress = ProgressMode::kAuto;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "centrality",
      "Harmonic centrality (HyperBall), stored as a vector and compared with PageRank");
  cmd->add_option("DB", args->db, "Database directory")->required();
  cmd->add_flag("--harmonic", args->harmonic,
                "Harmonic centrality: the sum of 1/distance from every page that reaches a page");
  add_enum_option(cmd, "--counters", &args->o.counters,
                  {{"auto", BallCounters::kAuto},
                   {"exact", BallCounters::kExact},
                   {"hyperloglog", BallCounters::kHyperLogLog}},
                  "Ball counters: exact sets (N^2/4 bytes), HyperLogLog, or auto (exact up to "
                  "--exact-max-pages)");
  cmd->add_option("--log2m", args->o.log2m,
                  "HyperLogLog registers per page: 2^log2m (relative error ~1.04/sqrt(2^log2m))")
      ->capture_default_str()
      ->check(number_check(whole_at_least(4, 16)));
  cmd->add_option("--exact-max-pages", args->o.exact_max_pages,
                  "Largest web counted exactly by --counters auto")
      ->capture_default_str()
      ->check(number_check(whole_at_least(0, 1 << 20)));
  cmd->add_option("--seed", args->o.seed, "Seed of the HyperLogLog hash")->capture_default_str();
  cmd->add_option("--name", args->name, "Stored as this vector")->capture_default_str();
  cmd->add_option("--compare", args->compare,
                  "Compare the order with this stored vector, if there is one")
      ->capture_default_str();
  cmd->add_option("-k", args->k, "Top pages shown")
      ->capture_default_str()
      ->check(number_check(whole_at_least(1, 1e9)));
  cmd->add_option("--out", args->out, "Also write LABEL<TAB>H per page, in id order (- = stdout)");
  add_run_flags(cmd, &args->o.threads, &args->json, &args->quiet, &args->no_verify,
                &args->progress);
  cmd->callback([args] {
    if (!args->harmonic) {
      throw CLI::ValidationError("centrality", "say which centrality: --harmonic");
    }
    check_rank_name(args->name);
    Database db = open_database(args->db, args->no_verify);
    ProgressLine line(args->quiet ? ProgressMode::kNever : args->progress);
    args->o.on_progress = [&](const HarmonicProgress& p) {
      char text[160];
      std::snprintf(text, sizeof text, "harmonic: distance %d  %llu balls grew  %s elapsed",
                    p.distance, static_cast<unsigned long long>(p.pages_changed),
                    format_duration(p.seconds).c_str());
      line.update(text, json_text(nlohmann::json(p), -1), args->progress == ProgressMode::kJson);
    };
    args->o.stop = arm_interrupts();
    const HarmonicResult r = harmonic_centrality(db.graph(), args->o);
    disarm_interrupts();
    line.finish();
    save_harmonic(db, args->name, r);
    if (!args->out.empty()) write_rank_tsv(db, r.values, args->out);

    std::optional<RankComparison> c;
    const auto names = db.rank_names();
    const bool comparable = !args->compare.empty() && args->compare != args->name &&
                            std::find(names.begin(), names.end(), args->compare) != names.end();
    if (comparable && db.num_pages() > 0) {
      const StoredRanks other = load_ranks(db, args->compare);
      const std::uint64_t ks[] = {10, 100, 1000};
      c = compare_ranks(r.values, other.values, ks);
    }
    const auto top = top_ranked_pages(db, r.values, args->k);
    if (args->json) {
      nlohmann::json j = r;
      j["name"] = args->name;
      j["top"] = top;
      if (c) {
        j["compared_with"] = args->compare;
        j["comparison"] = *c;
      }
      std::printf("%s\n", json_text(j).c_str());
      return;
    }
    if (args->quiet) return;
    std::printf("harmonic centrality of %u pages: %s, %d distances, %.3f s; stored as '%s'\n",
                db.num_pages(),
                r.exact ? "exact" : cat("HyperLogLog with 2^", r.log2m, " registers").c_str(),
                r.iterations, r.seconds, args->name.c_str());
    std::printf("%5s  %14s  %s\n", "#", "harmonic", "page");
    for (std::size_t i = 0; i < top.size(); ++i) {
      std::printf("%5zu  %14.6g  %s\n", i + 1, top[i].rank, top[i].label.c_str());
    }
    if (c) {
      std::printf("against '%s': Spearman %.6f  Kendall %.6f", args->compare.c_str(), c->spearman,
                  c->kendall_tau);
      for (const TopOverlap& t : c->top) {
        std::printf("  top-%llu shared %.1f%%", static_cast<unsigned long long>(t.k),
                    100 * t.fraction);
      }
      std::printf("\n");
    }
  });
}

}  // namespace webrank::cli
