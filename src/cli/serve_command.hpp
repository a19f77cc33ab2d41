// `webrank serve`'s options, shared by the executable that serves (webrank-serve: serve_run.cpp)
// and those that hand the command over to it (webrank and webrank-mpi: serve_launcher.cpp).
// Why two: docs/architecture.md ("MPI and the server: three executables").
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <string>

#include "webrank/app/options.hpp"
#include "webrank/serve/serve.hpp"

namespace webrank::cli {

struct ServeArgs {
  ServeOptions o;
  std::string db;
  std::string shards;
  bool access_log = false;
  std::uint64_t cache_mb = ServeOptions{}.cache_bytes >> 20;
};

// serve's options, declared once (the defaults are ServeOptions's): its flags, --help and
// docs/cli.md are made from them.
const app::OptionSet<ServeArgs>& serve_options();

// Serves args until Ctrl-C or SIGTERM (webrank-serve), or becomes webrank-serve with the same
// arguments (webrank, webrank-mpi; does not return).
void run_serve(const ServeArgs& args);

}  // namespace webrank::cli
