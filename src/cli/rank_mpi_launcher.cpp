// `webrank rank-mpi` in the plain webrank, which links no MPI: the process becomes webrank-mpi
// (the executable beside it, built from the same sources with MPI) with the same arguments. exec
// keeps the process and its environment, so under mpirun each process joins the job as
// webrank-mpi. The options are those of rank-mpi, so that --help shows them here too.
#include "common.hpp"
#include "rank_command.hpp"

namespace webrank::cli {

void add_rank_mpi_command(CLI::App& app) {
  auto args = std::make_shared<RankArgs>();
  auto parts = std::make_shared<std::string>();
  auto db = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "rank-mpi",
      "PageRank of a partitioned web on an MPI job, one process per part: mpirun -np P webrank "
      "rank-mpi PARTS [rank options] (runs webrank-mpi, built beside webrank)");
  cmd->add_option("PARTS", *parts, "Parts directory (webrank partition DB -n P -o PARTS)")
      ->required();
  cmd->add_option("--db", *db,
                  "Database to store the vector in (default: the one PARTS was cut from)");
  add_rank_options(cmd, *args);
  // The options write into args, parts and db as they parse: the callback keeps them alive.
  cmd->callback([args, parts, db] {
    become_sibling("webrank-mpi",
                   "rank-mpi needs webrank-mpi beside webrank, built when Open MPI is installed "
                   "(scripts/install-deps.sh: libopenmpi-dev, openmpi-bin)");
  });
}

}  // namespace webrank::cli
