// `webrank serve`'s options, shared by the executable that serves (webrank-serve: serve_run.cpp)
// and those that hand the command over to it (webrank and webrank-mpi: serve_launcher.cpp).
// Why two: cpp-httplib's library brings OpenSSL, whose start-up costs every process that links
// it about 4 ms (docs/performance.md); only the server needs it.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <string>

#include "webrank/serve/serve.hpp"

namespace webrank::cli {

struct ServeArgs {
  ServeOptions o;
  std::string db;
  bool access_log = false;
  std::size_t cache_mb = 64;
  CLI::Option* ranks = nullptr;  // whether --ranks was given
};

// Serves args until Ctrl-C or SIGTERM (webrank-serve), or becomes webrank-serve with the same
// arguments (webrank, webrank-mpi; does not return).
void run_serve(const ServeArgs& args);

}  // namespace webrank::cli
