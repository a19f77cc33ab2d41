// `webrank rank-mpi` in the plain webrank, which links no MPI: the process becomes webrank-mpi
// (the executable beside it, built from the same sources with MPI) with the same arguments. exec
// keeps the process and its environment, so under mpirun each process joins the job as
// webrank-mpi. The options are those of rank-mpi, so that --help shows them here too.
#include "common.hpp"
#include "rank_command.hpp"

namespace webrank::cli {

void add_rank_mpi_command(CLI::App& app) {
  auto args = std::make_shared<RankMpiArgs>();
  CLI::App* cmd = add_rank_mpi_options(app, *args);
  // The options write into args as they parse: the callback keeps them alive.
  cmd->callback([args] {
    become_sibling("webrank-mpi",
                   "rank-mpi needs webrank-mpi beside webrank: bash scripts/build.sh webrank-mpi "
                   "(with Open MPI installed: scripts/install-deps.sh)");
  });
}

}  // namespace webrank::cli
