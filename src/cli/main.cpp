// `webrank`: the command-line front end. Each subcommand lives in its own cmd_*.cpp and is a
// thin layer over the library in include/webrank/.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string_view>

#include "common.hpp"
#include "interrupts.hpp"
#include "webrank/error.hpp"
#include "webrank/rank_store.hpp"
#include "webrank/summary.hpp"

namespace webrank::cli {

std::string flag_name(std::string_view field) {
  // Options whose flag is not their field's name.
  if (field == "summation") return "--sweep";
  if (field == "k") return "-k";
  if (field == "query") return "QUERY";
  std::string flag = "--";
  for (char c : field) flag += c == '_' ? '-' : c;
  return flag;
}

int exit_code(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kInvalidArgument:
      return kExitUsage;
    case ErrorKind::kCancelled:
      return kExitInterrupted;
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
  if (const auto id = db.find(label)) return *id;
  const std::string other = label.ends_with('/') ? label.substr(0, label.size() - 1) : label + "/";
  const bool near = !other.empty() && db.find(other).has_value();
  fail(ErrorKind::kNotFound, db_path, ": no page labelled '", label, "'",
       near ? "; did you mean '" + other + "'?" : "");
}

std::string name_to_store(const Database& db, const std::string& name, const std::string& probe,
                          bool converged, bool replace_unconverged) {
  if (converged || replace_unconverged) return name;
  const auto names = db.rank_names();
  if (std::find(names.begin(), names.end(), probe) == names.end() ||
      !summarize_ranks(db, probe).converged) {
    return name;
  }
  const std::string stored = name + ".unconverged";
  check_rank_name(stored);
  std::fprintf(stderr,
               "webrank: warning: not converged: stored as '%s'; '%s' keeps its converged vector "
               "(pass --replace-unconverged to replace it)\n",
               stored.c_str(), name.c_str());
  return stored;
}

void add_progress_option(CLI::App* cmd, ProgressMode* mode) {
  add_enum_option(cmd, "--progress", mode,
                  {{"auto", ProgressMode::kAuto},
                   {"never", ProgressMode::kNever},
                   {"json", ProgressMode::kJson}},
                  "Progress on stderr: auto (a status line on a terminal, nothing otherwise), "
                  "never, or json (one JSON object per line)");
}

void add_run_flags(CLI::App* cmd, int* threads, bool* json, bool* quiet, bool* no_verify,
                   ProgressMode* progress) {
  cmd->add_option("--threads", *threads, "Threads (0 = all cores)")
      ->check(number_check(whole_at_least(0)));
  cmd->add_flag("--json", *json, "Print one JSON object");
  cmd->add_flag("-q,--quiet", *quiet, "Print nothing but errors and warnings");
  cmd->add_flag("--no-verify", *no_verify, "Skip checksum verification of the database");
  if (progress) add_progress_option(cmd, progress);
}

}  // namespace webrank::cli

namespace {

// OpenMP threads that wait at a barrier spin before they sleep: 300,000 spins by default in
// libgomp. On a machine where other processes hold cores, the spinning thread takes the core the
// late thread needs (docs/performance.md, "Threads on a busy machine"). libgomp reads
// GOMP_SPINCOUNT once, as it initializes; it is linked statically (CMakeLists.txt), so its
// initialization is one of this executable's constructors, and this one, of higher priority, runs
// before it. Unless the user chose a policy, it asks for short spins. Child processes inherit it.
__attribute__((constructor(101))) void prefer_short_openmp_spin() {
  if (std::getenv("OMP_WAIT_POLICY") || std::getenv("GOMP_SPINCOUNT")) return;
  setenv("GOMP_SPINCOUNT", "10000", 0);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace webrank::cli;
  install_interrupts();
  CLI::App app{"webrank: link databases and PageRank for webs of billions of links"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "webrank 0.1.0");
  add_build_command(app);
  add_import_command(app);
  add_info_command(app);
  add_check_command(app);
  add_rank_command(app);
  add_top_command(app);
  add_generate_command(app);
  add_export_command(app);
  add_crawl_command(app);
  add_page_command(app);
  add_hits_command(app);
  add_ranks_command(app);
  add_compare_ranks_command(app);
  add_index_command(app);
  add_search_command(app);
  add_eval_command(app);
  add_links_commands(app);
  add_ppr_command(app);
  add_topics_command(app);
  add_compare_command(app);
  add_spam_commands(app);
  add_update_command(app);
  add_partition_command(app);
  add_rank_mpi_command(app);
  add_serve_command(app);
  add_usage_command(app);
  add_crawl_order_command(app);
  add_report_command(app);
  add_explain_command(app);
  add_hosts_command(app);
  add_centrality_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "webrank: usage error: %s\n",
                 explain_usage_error(app, e, argc, argv).c_str());
    return kExitUsage;
  } catch (const webrank::Error& e) {
    std::fprintf(stderr, "webrank: error: %s\n", e.message(flag_name).c_str());
    return exit_code(e.kind());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "webrank: error: out of memory\n");
    return kExitError;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "webrank: error: %s\n", e.what());
    return kExitError;
  }
  return exit_status();
}
