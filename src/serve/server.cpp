// `webrank serve`: cpp-httplib with a bounded pool of workers, the routes of docs/serve.md, the
// security headers every response carries, and a watcher that picks up new rank vectors.
#include <httplib.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "response_cache.hpp"
#include "views.hpp"
#include "webrank/assets/assets.hpp"
#include "webrank/json.hpp"
#include "webrank/serve/serve.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

using serve::Site;

// httplib's own pool queues connections without limit. This one holds at most `max_queue`
// accepted connections waiting for a worker: when it is full the accepting thread waits, and
// further connections wait in the kernel's backlog (or are refused when it is full too), so a
// flood of clients cannot make the server hold unbounded memory or sockets.
class BoundedPool : public httplib::TaskQueue {
 public:
  BoundedPool(std::size_t threads, std::size_t max_queue) : max_queue_(max_queue) {
    for (std::size_t i = 0; i < threads; ++i) {
      workers_.emplace_back([this] { work(); });
    }
  }

  void enqueue(std::function<void()> fn) override {
    std::unique_lock lock(mutex_);
    not_full_.wait(lock, [&] { return jobs_.size() < max_queue_ || shutdown_; });
    jobs_.push_back(std::move(fn));
    not_empty_.notify_one();
  }

  void shutdown() override {
    {
      std::lock_guard lock(mutex_);
      shutdown_ = true;
    }
    not_empty_.notify_all();
    not_full_.notify_all();
    for (auto& t : workers_) t.join();
  }

 private:
  void work() {
    for (;;) {
      std::function<void()> fn;
      {
        std::unique_lock lock(mutex_);
        not_empty_.wait(lock, [&] { return shutdown_ || !jobs_.empty(); });
        if (jobs_.empty()) return;  // shut down and drained
        fn = std::move(jobs_.front());
        jobs_.pop_front();
      }
      not_full_.notify_one();
      fn();
    }
  }

  std::size_t max_queue_;
  std::mutex mutex_;
  std::condition_variable not_empty_, not_full_;
  std::deque<std::function<void()>> jobs_;
  std::vector<std::thread> workers_;
  bool shutdown_ = false;
};

// Pages of the server itself: scripts and styles from this origin only, nothing framed, no
// plugin, no form posting elsewhere.
constexpr const char* kPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
// The proxy view of a crawled page: nothing runs at all, no form submits.
constexpr const char* kProxyPolicy =
    "default-src 'none'; script-src 'none'; style-src 'self'; img-src 'self'; "
    "form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

int http_status(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kInvalidArgument:
      return 400;
    case ErrorKind::kNotFound:
      return 404;
    default:
      return 500;
  }
}

serve::Params params_of(const httplib::Request& req) {
  return [&req](std::string_view name) -> std::optional<std::string> {
    const std::string key(name);
    if (!req.has_param(key.c_str())) return std::nullopt;
    return req.get_param_value(key.c_str());
  };
}

bool is_api(const httplib::Request& req) {
  return req.path.starts_with("/api/") || req.path == "/healthz";
}

void reply_error(const Site& site, const httplib::Request& req, httplib::Response& res, int status,
                 const std::string& message, const nlohmann::json& error) {
  res.status = status;
  if (is_api(req)) {
    res.set_content(json_text(nlohmann::json{{"error", error}}, -1), "application/json");
  } else {
    res.set_content(serve::error_html(site, status, message), "text/html; charset=utf-8");
  }
}

// Runs a view, mapping the library's errors to HTTP statuses with their message.
template <typename View>
void guarded(const Site& site, const httplib::Request& req, httplib::Response& res, View&& view) {
  try {
    view();
  } catch (const Error& e) {
    const std::string message = e.message([](std::string_view f) { return std::string(f); });
    reply_error(site, req, res, http_status(e.kind()), message, e);
  } catch (const std::bad_alloc&) {
    reply_error(site, req, res, 503, "out of memory",
                {{"kind", "io"}, {"message", "out of memory"}});
  }
}

using Route = std::pair<const char*, httplib::Server::Handler>;

// Search answers (HTML and JSON) come from the cache when the same request target was answered
// since the searcher last changed: they depend on nothing else. Other views read things reopen()
// does not watch (every stored vector), so they are computed each time.
httplib::Server::Handler cached(serve::ResponseCache& cache, httplib::Server::Handler handler) {
  return [&cache, handler](const httplib::Request& req, httplib::Response& res) {
    if (const auto hit = cache.find(req.target)) {
      res.set_content(hit->body, hit->content_type.c_str());
      res.set_header("Content-Security-Policy", kPolicy);
      return;
    }
    const std::uint64_t generation = cache.generation();
    handler(req, res);
    if (res.status == 200 || res.status == -1) {
      cache.insert(req.target, {res.body, res.get_header_value("Content-Type")}, generation);
    }
  };
}

void add_routes(httplib::Server& server, const Site& site, serve::ResponseCache& cache) {
  const auto html = [&site](const char* path, auto view, const char* policy = kPolicy) {
    return Route{path, [&site, view, policy](const httplib::Request& req, httplib::Response& res) {
                   guarded(site, req, res, [&] {
                     res.set_content(view(site, params_of(req)), "text/html; charset=utf-8");
                   });
                   res.set_header("Content-Security-Policy", policy);
                 }};
  };
  const auto json = [&site](const char* path, auto view) {
    return Route{path, [&site, view](const httplib::Request& req, httplib::Response& res) {
                   guarded(site, req, res, [&] {
                     res.set_content(json_text(nlohmann::json(view(site, params_of(req))), -1),
                                     "application/json");
                   });
                 }};
  };
  const auto home = [](const Site& s, const serve::Params&) { return serve::home_html(s); };
  for (auto [path, handler] : {
           html("/", home),
           Route{"/search", cached(cache, html("/search", serve::search_html).second)},
           html("/page", serve::page_html),
           html("/proxy", serve::proxy_html, kProxyPolicy),
           html("/compare", serve::compare_html),
           html("/report", serve::report_html),
       }) {
    server.Get(path, handler);
  }
  for (auto [path, handler] : {
           Route{"/api/v1/search",
                 cached(cache, json("/api/v1/search", serve::search_json).second)},
           json("/api/v1/page", serve::page_json),
           json("/api/v1/backlinks", serve::backlinks_json),
           json("/api/v1/links", serve::links_json),
           json("/api/v1/proxy", serve::proxy_json),
           json("/api/v1/history", serve::history_json),
           json("/api/v1/compare", serve::compare_json),
           json("/api/v1/report", serve::report_json),
           json("/healthz",
                [](const Site&s, const serve::Params&) { return serve::health_json(s); }),
           json("/api/v1",
                [](const Site&, const serve::Params&) { return serve::api_index_json(); }),
       }) {
    server.Get(path, handler);
  }
  // Assets by exact name from the table built into the binary: no path reaches the file system.
  server.Get(R"(/assets/([A-Za-z0-9._-]+))",
             [&site](const httplib::Request& req, httplib::Response& res) {
               const auto asset = find_asset(req.matches[1].str());
               if (!asset)
                 return reply_error(site, req, res, 404, "no such asset", {{"kind", "not found"}});
               res.set_content(std::string(asset->bytes), std::string(asset->content_type));
               res.set_header("Cache-Control", "public, max-age=3600");
             });
  // Browsers ask for it on every site: nothing, rather than a 404 in their console.
  server.Get("/favicon.ico",
             [](const httplib::Request&, httplib::Response& res) { res.status = 204; });
  const auto not_allowed = [&site](const httplib::Request& req, httplib::Response& res) {
    res.set_header("Allow", "GET, HEAD");
    reply_error(site, req, res, 405, "only GET and HEAD are served",
                {{"kind", "invalid argument"}, {"message", "only GET and HEAD are served"}});
  };
  server.Post(".*", not_allowed);
  server.Put(".*", not_allowed);
  server.Delete(".*", not_allowed);
  server.Patch(".*", not_allowed);
  server.Options(".*", not_allowed);
  server.set_error_handler([&site](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;  // a view's own error
    const std::string message = res.status == 404   ? "no such page on this server"
                                : res.status == 413 ? "the request is too large"
                                : res.status == 414 ? "the URL is too long"
                                                    : "the request was refused";
    reply_error(
        site, req, res, res.status, message,
        {{"kind", res.status == 404 ? "not found" : "invalid argument"}, {"message", message}});
  });
  server.set_exception_handler(
      [&site](const httplib::Request& req, httplib::Response& res, std::exception_ptr) {
        reply_error(site, req, res, 500, "internal error",
                    {{"kind", "internal"}, {"message", "internal error"}});
      });
}

}  // namespace

void run_server(const ServeOptions& options) {
  if (options.port < 0 || options.port > 65535) {
    fail_option("port", "must be in [0, 65535], got ", options.port);
  }
  if (options.threads < 0) fail_option("threads", "must be >= 0, got ", options.threads);
  SearcherOptions so;
  so.ranks = options.ranks;
  so.ranks_named = options.ranks_named;
  // The compare view's personalized vectors: 256 MiB of them at most (16 bytes a page each).
  Site site{Searcher::open(options.db, so), options.db.filename().string(),
            std::make_unique<serve::PersonalizedViews>(std::size_t{256} << 20), nullptr};
  if (site.name.empty() || site.name == ".")
    site.name = options.db.parent_path().filename().string();
  site.report = std::make_unique<serve::ReportCache>(site.name);

  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t threads =
      options.threads > 0 ? static_cast<std::size_t>(options.threads) : std::max(8u, 2 * cores);
  httplib::Server server;
  server.new_task_queue = [threads] {
    return new BoundedPool(threads, threads * kServeMaxQueueFactor);
  };
  // Headers and body go out in two writes: with Nagle's algorithm and delayed ACKs every
  // keep-alive response would wait ~40 ms for the first write's ACK.
  server.set_tcp_nodelay(true);
  // httplib's default adds SO_REUSEPORT, with which a second server on the same port starts
  // and silently shares it: a port in use must be an error.
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  server.set_payload_max_length(kServeMaxBodyBytes);
  server.set_read_timeout(kServeReadTimeoutSeconds, 0);
  server.set_write_timeout(kServeReadTimeoutSeconds, 0);
  server.set_keep_alive_max_count(kServeMaxKeepAliveRequests);
  server.set_keep_alive_timeout(2);
  server.set_default_headers({{"X-Content-Type-Options", "nosniff"},
                              {"Referrer-Policy", "no-referrer"},
                              {"X-Frame-Options", "DENY"},
                              {"Cache-Control", "no-store"}});
  serve::ResponseCache cache(options.cache_bytes);
  add_routes(server, site, cache);
  if (options.on_request) {
    server.set_logger([&options](const httplib::Request& req, const httplib::Response& res) {
      options.on_request(cat(req.method, " ", req.path, " ", res.status));
    });
  }

  const int port = options.port == 0
                       ? server.bind_to_any_port(options.bind)
                       : (server.bind_to_port(options.bind, options.port) ? options.port : -1);
  if (port < 0) {
    fail(ErrorKind::kIo, "cannot listen on ", options.bind, ":", options.port,
         " (in use, or not an address of this machine)");
  }

  // New rank vectors and rebuilt indexes are picked up here, once a second, never by a request.
  std::mutex m;
  std::condition_variable_any cv;
  std::jthread watcher([&](std::stop_token stop) {
    std::unique_lock lock(m);
    while (!cv.wait_for(lock, stop, std::chrono::seconds(1), [] { return false; })) {
      if (stop.stop_requested()) return;
      // A stop requested before the server entered its loop found nothing to stop.
      if (options.stop.stop_requested() && server.is_running()) server.stop();
      try {
        if (site.searcher.reopen()) cache.clear();
      } catch (const Error& e) {
        if (options.on_request) options.on_request(cat("reopen failed, still serving: ", e.what()));
      }
    }
  });
  std::stop_callback on_stop(options.stop, [&server] { server.stop(); });
  if (options.on_listening) options.on_listening(options.bind, port);
  if (!options.stop.stop_requested()) server.listen_after_bind();
}

}  // namespace webrank
