// Shared pieces of the `webrank` subcommands: exit codes, opening a database the way every
// command does, and the --progress flag.
#pragma once

#include <CLI/CLI.hpp>
#include <climits>
#include <cmath>
#include <string>

#include "progress_line.hpp"
#include "webrank/rank/batch.hpp"
#include "webrank/search/search.hpp"
#include "webrank/store/database.hpp"
#include "webrank/util/error.hpp"
#include "webrank/util/units.hpp"

namespace webrank::cli {

// Exit statuses (documented in docs/cli.md, scripts/make_cli_docs.py).
inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitNotConverged = 3;
// The database was replaced by a new version while a command that writes into it ran (nothing
// was written: run it again).
inline constexpr int kExitConflict = 4;
inline constexpr int kExitInterrupted = 130;  // 128 + SIGINT, as a shell reports Ctrl-C

// The exit status of a library error: 2 for invalid arguments, 130 when cancelled, else 1.
int exit_code(ErrorKind kind);

// Opens DB and, unless `skip_verify`, checks every checksum before anything reads it (or finds
// that a verification recorded in default_verification_records() still holds).
Database open_database(const std::string& path, bool skip_verify);

// The page labelled `label`; throws Error(kNotFound) naming DB (`db_path`) otherwise, with the
// usual slip with URLs, a trailing slash more or less, suggested when that label exists.
PageId find_page(const Database& db, const std::string& db_path, const std::string& label);

// Adds an option taking one of `names` (shown as {a,b,c} in --help) and storing the matching
// enum value. CLI11's own enum transformers also accept the numeric values and print them.
template <typename E>
CLI::Option* add_enum_option(CLI::App* cmd, const std::string& flag, E* target,
                             const std::vector<std::pair<std::string, E>>& names,
                             const std::string& help) {
  std::vector<std::string> keys;
  std::string current;
  for (const auto& [name, value] : names) {
    keys.push_back(name);
    if (value == *target) current = name;
  }
  return cmd
      ->add_option_function<std::string>(
          flag,
          [target, names](const std::string& text) {
            for (const auto& [name, value] : names) {
              if (name == text) *target = value;
            }
          },
          help)
      ->check(CLI::IsMember(keys))
      ->default_str(current);
}

// The message for a usage error: an unknown command or flag is named with the nearest existing
// one ("unknown option '--dampign' for 'webrank rank'; did you mean '--damping'?"); other errors
// keep CLI11's message.
std::string explain_usage_error(const CLI::App& app, const CLI::ParseError& e, int argc,
                                char** argv);

// Adds --progress auto|never|json to a subcommand.
void add_progress_option(CLI::App* cmd, ProgressMode* mode);

// Replaces this process with the executable `name` beside it (same directory as
// /proc/self/exe), with the arguments this one was given and the same environment: exec keeps
// the process id, so whoever started webrank (a script, mpirun, a test stopping it by PID) now
// holds `name`. The hand-over of rank-mpi and serve. Does not return; throws kNotFound
// ("PATH: cannot run it (<why>): <hint>") when the executable is missing or not runnable.
[[noreturn]] void become_sibling(const std::string& name, const std::string& hint);

// The columns the text forms that cut long labels fit (`top`): the terminal's width when
// standard output is a terminal wider than 100 columns, else 100 (a pipe or a file gets the same
// text whatever terminal the command ran in).
std::size_t text_columns();

// Every subcommand's callback stores its exit status here (CLI11 callbacks return void).
int& exit_status();

// rank-mpi: the distributed solve in webrank-mpi, a hand-over to webrank-mpi in webrank.
void add_rank_mpi_command(CLI::App& app);
// serve: the server in webrank-serve, a hand-over to webrank-serve in webrank and webrank-mpi.
void add_serve_command(CLI::App& app);

}  // namespace webrank::cli
