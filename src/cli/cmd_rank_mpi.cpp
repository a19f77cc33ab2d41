// `webrank rank-mpi PARTS [rank options]`, run by mpirun with one process per part: the
// distributed power iteration (webrank/mpi/distributed.hpp). Part of the webrank-mpi executable,
// the one that links MPI; the plain webrank hands `rank-mpi` over to it (rank_mpi_launcher.cpp).
//
// Rank 0 opens the database the parts were cut from (or --db), resolves the options that name
// pages, and stores the vector there; every process reads only its own part.
#include <cstdio>
#include <optional>
#include <thread>

#include "common.hpp"
#include "interrupts.hpp"
#include "rank_command.hpp"
#include "webrank/mpi/distributed.hpp"
#include "webrank/util/error.hpp"

namespace webrank::cli {

void add_rank_mpi_command(CLI::App& app) {
  struct Args {
    RankArgs rank;
    std::string parts, db;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "rank-mpi",
      "PageRank of a partitioned web on an MPI job, one process per part: mpirun -np P webrank "
      "rank-mpi PARTS [rank options]; stores the vector in the database the parts were cut from");
  cmd->add_option("PARTS", args->parts, "Parts directory (webrank partition DB -n P -o PARTS)")
      ->required();
  cmd->add_option("--db", args->db,
                  "Database to store the vector in and to resolve labels with (default: the "
                  "one PARTS was cut from, as recorded in PARTS/manifest.json)");
  add_rank_options(cmd, args->rank);
  cmd->callback([args] {
    const MpiSession mpi;
    const bool root = mpi_rank() == 0;
    RankArgs& a = args->rank;
    // Until rank_parts returns, every process fails alike (the options are the same everywhere;
    // mpi_together and rank_parts agree on errors).
    bool failures_agreed = true;
    try {
      check_rank_options(a);
      if (a.o.threads == 0) {
        // Processes sharing a machine share its cores.
        const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        a.o.threads = std::max(1, cores / mpi_local_size());
      }
      std::optional<Database> db;
      mpi_together([&] {
        if (!root) return;
        const std::string path = args->db.empty() ? parts_database(args->parts).string() : args->db;
        a.db = path;  // named as given in the summary line
        db.emplace(open_database(path, a.no_verify));
        check_parts_database(args->parts, *db);
        resolve_rank_pages(*db, a);
      });
      ProgressLine line(a.quiet || !root ? ProgressMode::kNever : a.progress);
      show_rank_progress(a, line);
      a.o.stop = arm_interrupts();
      const DistributedRank d = rank_parts(args->parts, a.o, !a.no_verify);
      disarm_interrupts();
      line.finish();
      failures_agreed = false;
      if (!root) return;
      std::uint64_t most = 0, total = 0;
      for (std::uint64_t b : d.stats.bytes_sent_per_iteration) {
        most = std::max(most, b);
        total += b;
      }
      double exchange = 0;
      for (double s : d.stats.exchange_seconds) exchange = std::max(exchange, s);
      finish_rank(*db, a, d.result,
                  cat(", ", d.stats.processes, " processes exchanging ",
                      format_bytes(static_cast<double>(total)), " per iteration (at most ",
                      format_bytes(static_cast<double>(most)), " from one; ",
                      format_duration(exchange), " in exchanges at most)"));
    } catch (const Error& e) {
      if (!failures_agreed) throw;  // rank 0 alone, storing the vector
      // Rank 0 says why, once, and only then may any process exit: mpirun ends the whole job
      // as soon as one process exits with an error, which could cut rank 0 off mid-message.
      if (root) {
        std::fprintf(stderr, "webrank: error: %s\n", e.message(flag_name).c_str());
        std::fflush(stderr);
      }
      mpi_together([] {});
      exit_status() = exit_code(e.kind());
    }
  });
}

}  // namespace webrank::cli
