// `webrank rank-mpi PARTS [rank options]`, run by mpirun with one process per part: the
// distributed power iteration (webrank/mpi/distributed.hpp). Part of the webrank-mpi executable,
// the one that links MPI; the plain webrank hands `rank-mpi` over to it (rank_mpi_launcher.cpp).
//
// Rank 0 opens the database the parts were cut from (or --db), resolves the options that name
// pages, and stores the vector there as `rank` does (webrank/app/ranking.hpp); every process
// reads only its own part.
#include <cstdio>
#include <optional>
#include <thread>

#include "common.hpp"
#include "interrupts.hpp"
#include "progress_text.hpp"
#include "rank_command.hpp"
#include "render_text.hpp"
#include "webrank/app/app_json.hpp"
#include "webrank/app/ranking.hpp"
#include "webrank/mpi/distributed.hpp"
#include "webrank/util/error.hpp"
#include "webrank/util/units.hpp"

namespace webrank::cli {

void add_rank_mpi_command(CLI::App& app) {
  auto args = std::make_shared<RankMpiArgs>();
  CLI::App* cmd = add_rank_mpi_options(app, *args);
  cmd->callback([args] {
    const MpiSession mpi;
    const bool root = mpi_rank() == 0;
    const RunFlags& flags = args->flags;
    // Until rank_parts returns, every process fails alike (the options are the same everywhere;
    // mpi_together and rank_parts agree on errors).
    bool failures_agreed = true;
    try {
      const nlohmann::json given = args->options->given();
      const app::RankRequest req = app::rank_request_options().parse(given, "rank-mpi");
      app::Run run;
      run.threads = given.value("threads", 0);
      if (run.threads == 0) {
        // Processes sharing a machine share its cores.
        const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        run.threads = std::max(1, cores / mpi_local_size());
      }
      std::optional<app::Session> session;
      std::string path;
      app::RankReport report;
      RankOptions o = req.rank;
      mpi_together([&] {
        if (!root) return;
        path = args->db.empty() ? parts_database(args->parts).string() : args->db;
        session.emplace(path, app::Session::Options{.verify = !flags.no_verify});
        check_parts_database(args->parts, *session->database());
        o = app::resolve_rank_request(*session->database(), req, run, report.notices);
      });
      o.threads = run.threads;
      ProgressLine line(flags.quiet || !root ? ProgressMode::kNever : flags.progress);
      ProgressPrinter printer("rank-mpi");
      if (line.active()) {
        const bool json_lines = flags.progress == ProgressMode::kJson;
        o.on_iteration = [&](const IterationInfo& i) {
          const ProgressText t = printer(i);
          line.update(t.text, json_text(app::progress_json(i), -1), t.always || json_lines);
        };
      }
      o.stop = arm_interrupts();
      const DistributedRank d = rank_parts(args->parts, o, !flags.no_verify);
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
      app::finish_rank(*session->database(), path, req, o, d.result, report);
      const nlohmann::json j = report;
      if (flags.json) {
        std::printf("%s\n", json_text(j).c_str());
      } else if (!flags.quiet) {
        const std::string note =
            cat(", ", d.stats.processes, " processes exchanging ",
                format_bytes(static_cast<double>(total)), " per iteration (at most ",
                format_bytes(static_cast<double>(most)), " from one; ", format_duration(exchange),
                " in exchanges at most)");
        std::fprintf(stderr, "%s\n", rank_summary_line(j, path, note).c_str());
      }
      print_notices(report.notices, flags.quiet);
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
