// `webrank update DB --add FILE --remove FILE`: a new version of the database by merging the
// changes (webrank/ingest/update.hpp), put in place atomically; stored vectors carried over, stale.
#include <cstdio>

#include "common.hpp"
#include "interrupts.hpp"
#include "webrank/ingest/update.hpp"
#include "webrank/json.hpp"

namespace webrank::cli {

void add_update_command(CLI::App& app) {
  struct Args {
    std::string db;
    UpdateOptions o;
    bool quiet = false, no_verify = false, json = false;
    ProgressMode progress = ProgressMode::kAuto;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "update",
      "Apply changes (edge lists of links and pages to remove and to add) to a database: a new "
      "version by merging, put in place atomically; stored rank vectors kept as warm starts");
  cmd->add_option("DB", args->db, "Database directory")->required();
  cmd->add_option("--add", args->o.add,
                  "Edge list of links (SOURCE<TAB>TARGET[<TAB>WEIGHT]) and pages (one field) to "
                  "add (repeatable)");
  cmd->add_option("--remove", args->o.remove,
                  "Edge list of links and pages (one field: the page and all its links) to "
                  "remove; applied before --add (repeatable)");
  add_run_flags(cmd, &args->o.threads, &args->json, &args->quiet, &args->no_verify,
                &args->progress);
  cmd->callback([args] {
    UpdateOptions& o = args->o;
    o.verify = !args->no_verify;
    ProgressLine line(args->quiet ? ProgressMode::kNever : args->progress);
    o.on_progress = [&line, stage = std::string()](const UpdateProgress& p) mutable {
      const bool new_stage = p.stage != stage;
      stage = p.stage;
      std::string text = "update: " + p.stage;
      if (p.bytes_total > 0 && p.stage == "reading")
        text += cat(" ", format_bytes(static_cast<double>(p.bytes_read)), " of ",
                    format_bytes(static_cast<double>(p.bytes_total)));
      line.update(text, json_text(nlohmann::json(p), -1), new_stage);
    };
    o.stop = arm_interrupts();  // Ctrl-C abandons the update; the database stays as it was
    const UpdateReport r = update_database(args->db, o);
    disarm_interrupts();
    line.finish();
    if (args->json) {
      std::printf("%s\n", json_text(nlohmann::json(r)).c_str());
      return;
    }
    if (args->quiet) return;
    std::string vectors;
    for (const auto& v : r.vectors_carried) vectors += (vectors.empty() ? "" : ", ") + v;
    std::fprintf(
        stderr, "updated %s in %.2f s: %u pages (+%u, -%u), %llu links (+%llu, -%llu)%s%s\n",
        args->db.c_str(), r.seconds, r.pages, r.pages_added, r.pages_removed,
        static_cast<unsigned long long>(r.links), static_cast<unsigned long long>(r.links_added),
        static_cast<unsigned long long>(r.links_removed),
        r.removals_not_found
            ? cat("; ", r.removals_not_found, " removals named nothing in the web").c_str()
            : "",
        vectors.empty() ? ""
                        : cat("; stale vectors kept for rank --warm-start: ", vectors).c_str());
  });
}

}  // namespace webrank::cli
