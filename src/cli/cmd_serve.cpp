// `webrank serve DB [--bind 127.0.0.1] [--port 8080] [--threads N]`: the web interface and JSON
// API of a database (webrank/serve/serve.hpp, docs/serve.md) until Ctrl-C or SIGTERM, which let the
// requests in flight finish and exit 0. The options are parsed here in every executable, so that
// --help and usage errors are the same everywhere; run_serve serves or hands over.
#include "command.hpp"
#include "serve_command.hpp"

namespace webrank::cli {

const app::OptionSet<ServeArgs>& serve_options() {
  static const app::OptionSet<ServeArgs> set = [] {
    using app::closed;
    app::OptionSet<ServeArgs> s;
    s.add("db", WR_FIELD(db),
          "Database directory (without a search index, search is off and the rest served)")
        .as("DB")
        .at(0)
        .needed();
    s.add("bind", WR_FIELD(o.bind),
          "Address to listen on (0.0.0.0: every interface; the default serves this machine only)")
        .as("ADDRESS");
    s.add("port", WR_FIELD(o.port), "Port (0: any free port, printed at start)")
        .in(closed(0, 65535))
        .as("PORT");
    s.add("threads", WR_FIELD(o.threads),
          "Threads that serve connections and compute pages (0: two per core, at least 8); idle "
          "clients hold none")
        .in(closed(0, 1024))
        .as("N", "threads");
    s.add("ranks", WR_FIELD(o.ranks), "The stored rank vector to rank by").as("NAME");
    s.add("shards", WR_FIELD(shards),
          "Search a sharded index: a Xapian stub file listing its shards in order, local paths "
          "(auto PATH) or xapian-tcpsrv servers (remote HOST:PORT) (docs/search.md)")
        .as("FILE");
    s.add("cache_mb", WR_FIELD(cache_mb),
          "Memory for the answers of repeated searches, in MiB (0: compute every search)")
        .in(closed(0, 1 << 20))
        .as("MIB");
    s.add("access_log", WR_FIELD(access_log), "One line per request on stderr");
    return s;
  }();
  return set;
}

void add_serve_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "serve", "Serve search, page views, the PageRank proxy and a JSON API over HTTP (read-only)");
  cmd->group("Search and serve");
  auto declared = std::make_shared<DeclaredOptions>(cmd, serve_options().specs());
  cmd->callback([declared] {
    const nlohmann::json given = declared->given();
    ServeArgs args = serve_options().parse(given, "serve");
    args.o.ranks_named = given.contains("ranks");
    run_serve(args);
  });
}

}  // namespace webrank::cli
