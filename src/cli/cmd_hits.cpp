// `webrank hits DB [options]`: hubs and authorities (webrank/rank/hits.hpp), stored beside PageRank
// as NAME.authority and NAME.hub.
#include <cmath>
#include <cstdio>

#include "common.hpp"
#include "interrupts.hpp"
#include "webrank/json.hpp"
#include "webrank/rank/hits.hpp"
#include "webrank/store/rank_store.hpp"

namespace webrank::cli {

void add_hits_command(CLI::App& app) {
  struct Args {
    std::string db, name = "hits", out;
    HitsOptions o;
    bool quiet = false, no_verify = false, replace_unconverged = false;
    ProgressMode progress = ProgressMode::kAuto;
  };
  auto args = std::make_shared<Args>();
  HitsOptions& o = args->o;
  CLI::App* cmd = app.add_subcommand(
      "hits", "Compute HITS hubs and authorities (Kleinberg) and store them beside PageRank");
  cmd->add_option("DB", args->db, "Database directory")->required();
  cmd->add_option("--tol", o.tol, "Stop when the L1 change of authorities plus hubs is <= this")
      ->capture_default_str()
      ->check(number_check(positive()));
  cmd->add_option("--max-iter", o.max_iter, "Iteration cap (not converged: exit status 3)")
      ->capture_default_str()
      ->check(number_check(whole_at_least(1)));
  cmd->add_option("--threads", o.threads, "Threads (0 = all cores)")
      ->check(number_check(whole_at_least(0)));
  cmd->add_option("--name", args->name, "Stored as NAME.authority and NAME.hub")
      ->capture_default_str();
  cmd->add_flag("--replace-unconverged", args->replace_unconverged,
                "Let a run that did not converge replace converged vectors of the same name");
  cmd->add_option("--out", args->out,
                  "Also write LABEL<TAB>AUTHORITY<TAB>HUB per page, in id order (- = stdout)");
  cmd->add_flag("-q,--quiet", args->quiet, "Print nothing but errors and warnings");
  cmd->add_flag("--no-verify", args->no_verify, "Skip checksum verification of the database");
  add_progress_option(cmd, &args->progress);
  cmd->callback([args] {
    HitsOptions& o = args->o;
    check_rank_name(args->name + ".authority");
    Database db = open_database(args->db, args->no_verify);
    ProgressLine line(args->quiet ? ProgressMode::kNever : args->progress);
    o.on_iteration = [&](const IterationInfo& info) {
      char text[160];
      std::snprintf(text, sizeof text, "hits: iteration %d  L1 change %.3e  %s elapsed",
                    info.iteration, info.delta, format_duration(info.seconds).c_str());
      line.update(text, json_text(nlohmann::json(info), -1), args->progress == ProgressMode::kJson);
    };
    o.stop = arm_interrupts();
    const HitsResult r = compute_hits(db.graph(), o);
    disarm_interrupts();
    line.finish();
    const std::string stored = name_to_store(db, args->name, args->name + ".authority", r.converged,
                                             args->replace_unconverged);
    save_hits(db, stored, r, o);
    if (!args->out.empty()) write_rank_tsv(db, {r.authorities, r.hubs}, args->out);
    if (!args->quiet) {
      std::fprintf(stderr,
                   "hits: %d iterations, final L1 change %.3g, %.3f s; stored as '%s.authority' "
                   "and '%s.hub' in %s\n",
                   r.iterations, r.final_delta, r.seconds, stored.c_str(), stored.c_str(),
                   args->db.c_str());
    }
    if (!r.converged) {
      std::fprintf(stderr,
                   "webrank: warning: not converged: the L1 change is %.3e after %d iterations, "
                   "above --tol %g%s; the vectors were stored and flagged as not converged\n",
                   r.final_delta, r.iterations, o.tol,
                   r.stalled ? " (stalled at the rounding level of double)" : "");
      exit_status() = kExitNotConverged;
    }
  });
}

}  // namespace webrank::cli
