// The command line as a table of commands: each is an operation of the app layer
// (webrank/app/operation.hpp) whose flags come from the operation's option declarations, plus a
// text renderer for people. Parsing, opening the database, progress, interrupts, --json and exit
// statuses are done here once, for every command.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "progress_line.hpp"
#include "webrank/app/operation.hpp"

namespace webrank::cli {

// What a command's text renderer gets.
struct Rendered {
  const app::Operation& op;
  const app::Output& out;
  app::Session* session;        // null for operations without a database
  const nlohmann::json& given;  // the options given, by name (render flags included)
  std::string db;               // the database as the user named it ("" without one)
  bool quiet = false;           // -q: print nothing but errors and warnings
};

struct Command {
  std::string op;  // the operation's name
  // Prints the result for a person (stdout; summaries of work done on stderr). Null: the JSON.
  void (*render)(const Rendered&) = nullptr;
  // Flags of the command line alone that change how the result is shown, not what it is
  // (--wide, --format): declared here, once, with their defaults.
  std::vector<app::OptionSpec> render_flags = {};
  // The help of the DB positional, when it says more than "Database directory".
  std::string db_help = "Database directory";
  // Runs before the operation with the options as given, and may change them (a render flag that
  // asks for less, as search's --format tsv asks for no snippets).
  void (*before)(nlohmann::json& given, struct RunFlags& flags) = nullptr;
};

// Adds `command` to `app` as a subcommand named after its operation.
void add_command(CLI::App& app, const Command& command);

struct Slot;
// The flags and positionals of `specs` on `cmd`, made as add_command makes them, for commands
// that take declared options but are not operations (rank-mpi, serve).
class DeclaredOptions {
 public:
  DeclaredOptions(CLI::App* cmd, const std::vector<app::OptionSpec>& specs);
  ~DeclaredOptions();
  // The values given, by option name, as the operations take them.
  nlohmann::json given() const;

 private:
  std::vector<std::unique_ptr<Slot>> slots_;
};

// The flags every command takes beside its options: --json, -q, --progress and, when `verify`,
// --no-verify.
struct RunFlags {
  bool json = false, quiet = false, no_verify = false;
  ProgressMode progress = ProgressMode::kAuto;
};
void add_run_flags(CLI::App* cmd, RunFlags& flags, bool verify);

// Prints what a call said (unless quiet), its warnings and errors on stderr, and sets the exit
// status: 1 for errors, 3 when a vector did not converge.
void print_notices(const app::Notices& notices, bool quiet);

// The flag of a library option: "max_iter" -> "--max-iter" (Error::message names options so).
std::string flag_name(std::string_view field);

// `value` of the render flag or option `name` as given, or its declared default.
nlohmann::json given_or(const Rendered& r, const std::string& name);

}  // namespace webrank::cli
