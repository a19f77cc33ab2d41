// `webrank partition DB -n P -o PARTS`: cuts a database into P parts for `rank-mpi`.
#include <cstdio>

#include "common.hpp"
#include "interrupts.hpp"
#include "webrank/json.hpp"
#include "webrank/mpi/distributed.hpp"

namespace webrank::cli {

void add_partition_command(CLI::App& app) {
  struct Args {
    std::string db, output;
    PartitionOptions o;
    bool quiet = false, no_verify = false, json = false;
    ProgressMode progress = ProgressMode::kAuto;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "partition",
      "Cut a database into parts balanced by links, one per process of `mpirun -np P webrank "
      "rank-mpi PARTS`");
  cmd->add_option("DB", args->db, "Database directory")->required();
  cmd->add_option("-n,--parts", args->o.parts, "Number of parts (processes)")
      ->required()
      ->check(number_check(whole_at_least(1)));
  cmd->add_option("-o,--output", args->output, "Parts directory to write")->required();
  cmd->add_flag("--force", args->o.force,
                "Replace an existing parts directory (kept until the new one is complete)");
  add_run_flags(cmd, &args->o.threads, &args->json, &args->quiet, &args->no_verify,
                &args->progress);
  cmd->callback([args] {
    Database db = open_database(args->db, args->no_verify);
    args->o.output = args->output;
    ProgressLine line(args->quiet ? ProgressMode::kNever : args->progress);
    args->o.on_progress = [&](const PartitionProgress& p) {
      line.update(cat("partition: ", p.parts_written, " of ", p.parts, " parts written"),
                  cat(R"({"stage":"partition","parts_written":)", p.parts_written, R"(,"parts":)",
                      p.parts, "}"),
                  p.parts_written == p.parts);
    };
    args->o.stop = arm_interrupts();
    const PartitionReport r = partition_database(db, args->o);
    disarm_interrupts();
    line.finish();
    if (args->json) {
      std::printf("%s\n", json_text(nlohmann::json(r)).c_str());
      return;
    }
    if (args->quiet) return;
    std::uint64_t most = 0, remote = 0;
    for (const PartInfo& p : r.parts) {
      most = std::max(most, p.links);
      remote += p.remote_pages;
    }
    std::fprintf(stderr,
                 "partition: %s (%u pages, %llu links) into %zu parts in %s: at most %llu links a "
                 "part (%.2f of the mean), %llu remote pages in all; run it with `mpirun -np %zu "
                 "webrank rank-mpi %s`\n",
                 args->db.c_str(), r.pages, static_cast<unsigned long long>(r.links),
                 r.parts.size(), args->output.c_str(), static_cast<unsigned long long>(most),
                 r.links ? static_cast<double>(most) * r.parts.size() / r.links : 1.0,
                 static_cast<unsigned long long>(remote), r.parts.size(), args->output.c_str());
  });
}

}  // namespace webrank::cli
