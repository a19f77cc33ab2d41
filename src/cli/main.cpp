// `webrank`: the command-line front end. Its commands are the app layer's operations
// (command.cpp makes each from its declaration; render_*.cpp print their results), with
// rank-mpi and serve beside them.
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string_view>

#include "command.hpp"
#include "commands.hpp"
#include "common.hpp"
#include "interrupts.hpp"
#include "webrank/app/app_json.hpp"
#include "webrank/util/error.hpp"
#include "webrank/util/json_text.hpp"

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
  for (const Command& c : command_table()) add_command(app, c);
  add_rank_mpi_command(app);
  add_serve_command(app);
  // Hidden: every operation's declarations as JSON (scripts/make_cli_docs.py; tests/docs).
  if (argc == 2 && std::string_view(argv[1]) == "--declarations") {
    const nlohmann::json all = webrank::app::operations();
    std::printf("%s\n", webrank::json_text(all, 1).c_str());
    return 0;
  }
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

namespace webrank::cli {

std::vector<Command> command_table() {
  std::vector<Command> table;
  add_making_commands(table);
  add_ranking_commands(table);
  add_inspect_commands(table);
  add_search_commands(table);
  add_spam_commands(table);
  add_studies_commands(table);
  return table;
}

}  // namespace webrank::cli
