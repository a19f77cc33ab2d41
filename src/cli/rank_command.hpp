// `rank-mpi PARTS [rank options]`: its options, those of `rank` (declared once, in the app
// layer) and of the parts, shared by webrank-mpi, which runs it (cmd_rank_mpi.cpp), and by
// webrank, which hands it over (rank_mpi_launcher.cpp), so that --help is the same in both.
#pragma once

#include <memory>
#include <string>

#include "command.hpp"

namespace webrank::cli {

struct RankMpiArgs {
  std::string parts, db;
  std::unique_ptr<DeclaredOptions> options;
  RunFlags flags;
};

// Adds the rank-mpi subcommand with its options and summary to `app` (the same in webrank and
// webrank-mpi); the caller sets its callback.
CLI::App* add_rank_mpi_options(CLI::App& app, RankMpiArgs& args);

}  // namespace webrank::cli
