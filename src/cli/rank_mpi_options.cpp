#include "rank_command.hpp"
#include "webrank/app/ranking.hpp"

namespace webrank::cli {

CLI::App* add_rank_mpi_options(CLI::App& app, RankMpiArgs& args) {
  CLI::App* cmd = app.add_subcommand(
      "rank-mpi",
      "PageRank of a partitioned web on an MPI job, one process per part: mpirun -np P webrank "
      "rank-mpi PARTS [rank options]; stores the vector in the database the parts were cut from "
      "(runs webrank-mpi, built beside webrank)");
  cmd->group("Many machines");
  cmd->add_option("PARTS", args.parts, "Parts directory (webrank partition DB -n P -o PARTS)")
      ->required();
  cmd->add_option("--db", args.db,
                  "Database to store the vector in and to resolve labels with (default: the one "
                  "PARTS was cut from, as recorded in PARTS/manifest.json)");
  std::vector<app::OptionSpec> specs;
  for (const auto& s : app::rank_request_options().specs()) {
    if (s.name == "batch") continue;  // one vector, from the parts

    specs.push_back(s);
  }
  for (const auto& s : app::run_options()) specs.push_back(s);
  args.options = std::make_unique<DeclaredOptions>(cmd, specs);
  add_run_flags(cmd, args.flags, /*verify=*/true);
  return cmd;
}

}  // namespace webrank::cli
