// `webrank serve DB [--bind 127.0.0.1] [--port 8080] [--threads N]`: the web interface and JSON
// API of a database (webrank/serve/serve.hpp, docs/serve.md) until Ctrl-C or SIGTERM, which let the
// requests in flight finish and exit 0. The options are parsed here in every executable, so that
// --help and usage errors are the same everywhere; run_serve serves or hands over.
#include "common.hpp"
#include "serve_command.hpp"

namespace webrank::cli {

void add_serve_command(CLI::App& app) {
  auto args = std::make_shared<ServeArgs>();
  CLI::App* cmd = app.add_subcommand(
      "serve", "Serve search, page views, the PageRank proxy and a JSON API over HTTP (read-only)");
  cmd->group("Search and serve");
  cmd->add_option("DB", args->db,
                  "Database directory (without a search index, search is off and the rest served)")
      ->required();
  cmd->add_option("--bind", args->o.bind,
                  "Address to listen on (0.0.0.0: every interface; the default serves this "
                  "machine only)")
      ->capture_default_str();
  cmd->add_option("--port", args->o.port, "Port (0: any free port, printed at start)")
      ->capture_default_str()
      ->check(number_check(whole_at_least(0, 65535)));
  cmd->add_option("--threads", args->o.threads,
                  "Threads that serve connections and compute pages (0: two per core, at least "
                  "8); idle clients hold none")
      ->capture_default_str()
      ->check(number_check(whole_at_least(0, 1024)));
  args->ranks = cmd->add_option("--ranks", args->o.ranks, "The stored rank vector to rank by")
                    ->capture_default_str();
  cmd->add_option("--cache-mb", args->cache_mb,
                  "Memory for the answers of repeated searches, in MiB (0: compute every search)")
      ->capture_default_str()
      ->check(number_check(whole_at_least(0, 1 << 20)));
  cmd->add_flag("--access-log", args->access_log, "One line per request on stderr");
  cmd->callback([args] { run_serve(*args); });
}

}  // namespace webrank::cli
