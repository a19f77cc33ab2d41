// The helpers every subcommand shares (common.hpp): flag names, exit statuses, opening a
// database, naming a page, where an unconverged vector goes, the --progress option, handing a
// command over to a sibling executable. Kept out of main.cpp, which only registers the
// subcommands and maps errors to exit statuses.
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string_view>
#include <vector>

#include "common.hpp"
#include "webrank/ingest/rank_sources.hpp"
#include "webrank/store/rank_store.hpp"
#include "webrank/store/summary.hpp"
#include "webrank/util/error.hpp"

namespace webrank::cli {

int exit_code(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kInvalidArgument:
    case ErrorKind::kInvalidType:
      return kExitUsage;
    case ErrorKind::kCancelled:
      return kExitInterrupted;
    case ErrorKind::kConflict:
      return kExitConflict;
    default:
      return kExitError;
  }
}

int& exit_status() {
  static int status = kExitOk;
  return status;
}

Database open_database(const std::string& path, bool skip_verify) {
  return Database::open(
      path, {.verify = !skip_verify, .verification_records = default_verification_records()});
}

PageId find_page(const Database& db, const std::string& db_path, const std::string& label) {
  // As search, links and ppr read it: the label, or the URL it normalizes to.
  if (const auto id = webrank::find_page(db, label)) return *id;
  const std::string other = label.ends_with('/') ? label.substr(0, label.size() - 1) : label + "/";
  const bool near = !other.empty() && db.find(other).has_value();
  fail(ErrorKind::kNotFound, db_path, ": no page labelled '", label, "'",
       near ? "; did you mean '" + other + "'?" : "");
}

void add_progress_option(CLI::App* cmd, ProgressMode* mode) {
  add_enum_option(cmd, "--progress", mode,
                  {{"auto", ProgressMode::kAuto},
                   {"never", ProgressMode::kNever},
                   {"json", ProgressMode::kJson}},
                  "Progress on stderr: auto (a status line on a terminal, nothing otherwise), "
                  "never, or json (one JSON object per line)");
}

std::size_t text_columns() {
  constexpr std::size_t kNarrowest = 100;
  winsize w{};
  if (::isatty(STDOUT_FILENO) && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 &&
      w.ws_col > kNarrowest) {
    return w.ws_col;
  }
  return kNarrowest;
}

void become_sibling(const std::string& name, const std::string& hint) {
  // The arguments as given, from the kernel (CLI11 has consumed its copy).
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> words;
  for (std::size_t at = 0; at < all.size();) {
    const std::size_t end = all.find('\0', at);
    words.push_back(all.substr(at, end - at));
    at = end == std::string::npos ? all.size() : end + 1;
  }
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  std::error_code ec;
  const auto sibling = std::filesystem::read_symlink("/proc/self/exe", ec).parent_path() / name;
  ::execv(sibling.c_str(), argv.data());
  fail(ErrorKind::kNotFound, sibling.string(), ": cannot run it (", std::strerror(errno),
       "): ", hint);
}

}  // namespace webrank::cli
