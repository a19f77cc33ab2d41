// `webrank serve`: the site's state (one app::Session), its routes (routes.cpp) on the HTTP layer
// (http.cpp), and a watcher that picks up new versions of the database, its index and vectors.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "http.hpp"
#include "response_cache.hpp"
#include "routes.hpp"
#include "site.hpp"
#include "webrank/serve/serve.hpp"
#include "webrank/util/error.hpp"

namespace webrank {

void run_server(const ServeOptions& options) {
  if (options.port < 0 || options.port > 65535) {
    fail_option("port", "must be in [0, 65535], got ", options.port);
  }
  if (options.threads < 0) fail_option("threads", "must be >= 0, got ", options.threads);
  serve::Site site;
  site.session = std::make_unique<app::Session>(
      options.db, app::Session::Options{
                      .search_optional = true, .reopen_on_use = false, .shards = options.shards});
  site.ranks = options.ranks;
  site.ranks_named = options.ranks_named;
  // Opens the searcher and its vector now: a --ranks that is not stored stops the server here.
  const auto first = site.update_status();
  const auto log = [&options](const std::string& line) {
    if (options.on_log) options.on_log(line);
  };

  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  serve::HttpServerOptions http;
  http.workers =
      options.threads > 0 ? static_cast<std::size_t>(options.threads) : std::max(8u, 2 * cores);
  http.on_request = options.on_request;
  serve::ResponseCache cache(options.cache_bytes);
  const serve::RouteTable routes = serve::site_routes(site, cache);
  serve::HttpServer server(routes, http);
  const int port = server.listen(options.bind, options.port);

  // New versions, rank vectors and rebuilt indexes are picked up here, once a second, never by a
  // request.
  std::mutex m;
  std::condition_variable_any cv;
  std::jthread watcher([&](std::stop_token stop) {
    std::unique_lock lock(m);
    while (!cv.wait_for(lock, stop, std::chrono::seconds(1), [] { return false; })) {
      if (stop.stop_requested()) return;
      try {
        if (site.session->refresh()) {
          cache.clear();
          const auto now = site.update_status();
          log(cat("reopened ", options.db.string(),
                  " (a new version of the database, its index or its rank vector): ", now->pages,
                  " pages, ", now->links, " links, ranks ", now->ranks.value_or("none"),
                  ", search ", now->search ? "on" : "off (no search index)"));
        }
      } catch (const Error& e) {
        log(cat("reopen of ", options.db.string(),
                " failed, still serving the version opened before: ", e.what()));
      }
    }
  });
  std::stop_callback on_stop(options.stop, [&server] { server.stop(); });
  if (options.on_listening) options.on_listening(options.bind, port);
  if (!first->search) {
    log(cat(options.db.string(),
            " has no search index: search is off, everything else is served; `webrank index ",
            options.db.string(), "` builds one (picked up within a second)"));
  }
  server.run();
}

}  // namespace webrank
