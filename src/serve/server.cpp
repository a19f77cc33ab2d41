// `webrank serve`: the site's state, its routes (routes.cpp) on the HTTP layer (http.cpp), and a
// watcher that picks up new rank vectors.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "http.hpp"
#include "response_cache.hpp"
#include "routes.hpp"
#include "views.hpp"
#include "webrank/serve/serve.hpp"
#include "webrank/util/error.hpp"

namespace webrank {

void run_server(const ServeOptions& options) {
  if (options.port < 0 || options.port > 65535) {
    fail_option("port", "must be in [0, 65535], got ", options.port);
  }
  if (options.threads < 0) fail_option("threads", "must be >= 0, got ", options.threads);
  SearcherOptions so;
  so.ranks = options.ranks;
  so.ranks_named = options.ranks_named;
  // The compare view's personalized vectors: 256 MiB of them at most (16 bytes a page each).
  serve::Site site{Searcher::open(options.db, so), options.db.filename().string(),
                   std::make_unique<serve::PersonalizedViews>(std::size_t{256} << 20), nullptr,
                   nullptr};
  if (site.name.empty() || site.name == ".")
    site.name = options.db.parent_path().filename().string();
  site.report = std::make_unique<serve::ReportCache>(site.name);
  // Checked once already by the searcher's open.
  site.session = std::make_unique<app::Session>(options.db, app::Session::Options{.verify = false});

  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  serve::HttpServerOptions http;
  http.workers =
      options.threads > 0 ? static_cast<std::size_t>(options.threads) : std::max(8u, 2 * cores);
  http.on_request = options.on_request;
  serve::ResponseCache cache(options.cache_bytes);
  const serve::RouteTable routes = serve::site_routes(site, cache);
  serve::HttpServer server(routes, http);
  const int port = server.listen(options.bind, options.port);

  // New rank vectors and rebuilt indexes are picked up here, once a second, never by a request.
  std::mutex m;
  std::condition_variable_any cv;
  std::jthread watcher([&](std::stop_token stop) {
    std::unique_lock lock(m);
    while (!cv.wait_for(lock, stop, std::chrono::seconds(1), [] { return false; })) {
      if (stop.stop_requested()) return;
      try {
        const bool searcher = site.searcher.reopen();
        if (site.session->refresh() || searcher) cache.clear();
      } catch (const Error& e) {
        if (options.on_request) options.on_request(cat("reopen failed, still serving: ", e.what()));
      }
    }
  });
  std::stop_callback on_stop(options.stop, [&server] { server.stop(); });
  if (options.on_listening) options.on_listening(options.bind, port);
  server.run();
}

}  // namespace webrank
