// Shared pieces of the `webrank` subcommands: exit codes, opening a database the way every
// command does, and the --progress flag.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "util/progress.hpp"
#include "webrank/database.hpp"

namespace webrank::cli {

// Exit statuses (documented in README.md).
inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitNotConverged = 3;

// Opens DB and, unless `skip_verify`, checks every checksum before anything reads it.
Database open_database(const std::string& path, bool skip_verify);

// Adds --progress auto|never|json to a subcommand.
void add_progress_option(CLI::App* cmd, ProgressMode* mode);

// Every subcommand's callback stores its exit status here (CLI11 callbacks return void).
int& exit_status();

void add_build_command(CLI::App& app);
void add_import_command(CLI::App& app);
void add_info_command(CLI::App& app);
void add_check_command(CLI::App& app);
void add_rank_command(CLI::App& app);
void add_top_command(CLI::App& app);
void add_generate_command(CLI::App& app);
void add_export_command(CLI::App& app);
void add_crawl_command(CLI::App& app);

}  // namespace webrank::cli
