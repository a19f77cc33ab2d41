// The HTTP layer of `webrank serve` (docs/serve.md, "HTTP: what is guaranteed"): Boost.Beast's
// HTTP/1.1 parser on an Asio event loop run by a pool of threads. Nothing above this header knows
// of Beast: a handler is a function from a request to a response, and the server's pages are a
// table of them (routes.cpp fills it from the views).
//
// What the layer guarantees, whatever the handlers do:
// - framing: a request's body (Content-Length or chunked) is read as that request's body and
//   never as another request; a request whose framing is ambiguous (Content-Length with
//   Transfer-Encoding, lengths that differ, a transfer coding other than chunked, a missing or
//   repeated Host) is answered 400 and its connection closed;
// - pipelining: requests written at once are answered in order, one at a time;
// - limits (webrank/serve/serve.hpp): request line (414), header fields in count and bytes
//   (431), body (413); a connection holds at most one request and one answer;
// - time: a client has kServeRequestSeconds to send a whole request from the moment the server
//   waits for it (an idle keep-alive connection included) and kServeWriteSeconds to take an
//   answer; past that its connection is closed;
// - connections: at most a cap (kServeMaxConnections, and what the open-file limit allows); at
//   the cap a new connection takes the slot of the one that has waited longest for a request;
// - handlers run where their pace says (below): a slow one never holds up the reading and writing
//   of other connections;
// - every response carries the route table's default headers unless its handler set them.
//
// Threads: `workers` event loops, one thread each (the calling thread of run() one of them), and a
// pool of as many threads for slow handlers; handlers are called from any of them at once. run()
// blocks until stop(), which may be called from any thread.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace webrank::serve {

// Why the work of a request was stopped.
enum class Cutoff {
  kNone,
  kDeadline,    // it ran past kServeComputeSeconds
  kClientLeft,  // its client closed the connection: nobody waits for the answer
  kShutdown,    // the server is stopping and the grace of requests in flight has passed
};

// What a 503 says of a request whose work was stopped for `why`.
std::string cutoff_message(Cutoff why);

// The stop of one request's work: the HTTP layer stops it, a handler passes its token on.
class RequestStop {
 public:
  std::stop_token token() const { return source_.get_token(); }
  Cutoff why() const { return why_.load(); }
  // Stops the work, `why` recorded unless an earlier cause was.
  void cut(Cutoff why) {
    Cutoff none = Cutoff::kNone;
    why_.compare_exchange_strong(none, why);
    source_.request_stop();
  }

 private:
  std::stop_source source_;
  std::atomic<Cutoff> why_{Cutoff::kNone};
};

struct HttpRequest {
  std::string method;  // as sent: "GET", "HEAD", ...
  std::string target;  // as sent: path and query string (the key of cached answers)
  std::string path;    // percent-decoded, starting with '/'; empty when the request was not read
  std::string query;   // the raw query string, after '?'
  // Requested when nobody needs the answer any more: the request ran past its deadline, its
  // client left, or the server stops. Set for handlers on the pools; a quick handler (whose work
  // its limits bound) gets a token that is never stopped.
  std::stop_token stop;
  std::shared_ptr<const RequestStop> stopper;  // why `stop` was requested; null for quick ones

  Cutoff cutoff() const { return stopper ? stopper->why() : Cutoff::kNone; }

  // The first value of query parameter `name`, percent-decoded ('+' is a space).
  std::optional<std::string> param(std::string_view name) const;
  // Every query parameter in order, names and values percent-decoded.
  std::vector<std::pair<std::string, std::string>> params() const;
};

struct HttpResponse {
  int status = 200;
  std::string content_type;  // empty: no body (204)
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // besides Content-Type and -Length

  // Sets header `name` (case-insensitive), replacing an earlier value.
  void set_header(std::string_view name, std::string value);
  // The value of header `name` (case-insensitive), or null.
  const std::string* header(std::string_view name) const;
};

using Handler = std::function<HttpResponse(const HttpRequest&)>;

// Where a handler runs. kQuick: on the event loop's thread, right after its request is read, with
// no hand-over between threads; it holds up the other connections of that loop while it runs, so
// only for work bounded by the request's limits (a search, a small JSON answer, an asset).
// kSlow: on a pool apart, for work that grows with the web or the page (page views, the proxy,
// the report's gathering); the loop goes on meanwhile. kSolve: on a smaller pool of its own, for
// solves whose work grows with the request's options up to their bounds (personalized PageRank,
// what-ifs, personalized views), so that however many such requests come, pages are still
// served. Handlers on the pools get a stop token (HttpRequest::stop).
enum class Pace { kQuick, kSlow, kSolve };
// The answer to a request that no handler takes: 404 (no route), 405 (a method other than GET or
// HEAD) or one the HTTP layer refused (400, 413, 414, 431, 505), with the reason in words. The
// request holds what was read of it (an empty path when not even its first line was).
using ErrorHandler =
    std::function<HttpResponse(const HttpRequest&, int status, const std::string& message)>;

// GET and HEAD handlers by path; a HEAD is answered as its GET, without the body.
class RouteTable {
 public:
  void exact(std::string path, Handler handler, Pace pace = Pace::kSlow);
  // Every path that starts with `prefix` and has more after it (longest prefix first).
  void prefix(std::string prefix, Handler handler, Pace pace = Pace::kSlow);
  void on_error(ErrorHandler handler) { error_ = std::move(handler); }
  // Whether exact path `path` has a handler.
  bool has(std::string_view path) const;
  // Added to every response that has not set them (case-insensitive names).
  void default_header(std::string name, std::string value);

  // The handler's answer, or the error handler's; exceptions become 500 (503 out of memory).
  HttpResponse answer(const HttpRequest& request) const;
  // The pace of the handler answer() would call (kQuick for the error handler).
  Pace pace_of(const HttpRequest& request) const;
  HttpResponse error(const HttpRequest& request, int status, const std::string& message) const;
  // `response` with the default headers it lacks.
  void complete(HttpResponse& response) const;

 private:
  struct Route {
    std::string path;
    Handler handler;
    Pace pace;
  };
  const Route* find(const HttpRequest& request) const;

  std::vector<Route> exact_, prefix_;
  ErrorHandler error_;
  std::vector<std::pair<std::string, std::string>> defaults_;
};

struct HttpServerOptions {
  std::size_t workers = 8;  // threads that run the event loop and the handlers
  // Threads for kSolve handlers (0: a quarter of the workers, at least 2).
  std::size_t solvers = 0;
  // One line per request (method, path, status), from a worker thread; may be empty.
  std::function<void(const std::string& line)> on_request;
};

class HttpServer {
 public:
  // `routes` must outlive the server.
  HttpServer(const RouteTable& routes, HttpServerOptions options);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds `address` (an address or host name) and `port` (0: any free one) and listens; returns
  // the port. Throws Error kIo when it cannot (in use, not an address of this machine). The
  // connection cap is set here: kServeMaxConnections, or what the open-file limit leaves after
  // the threads' and the process's own files, whichever is less.
  int listen(const std::string& address, int port);
  // Serves until stop(): then stops accepting, closes the connections that wait for a request,
  // lets the requests in flight be answered (those still computing after
  // kServeShutdownGraceSeconds are stopped, and answered 503), and returns.
  void run();
  // Thread-safe; before run(), makes run() return at once.
  void stop();

  struct Impl;  // http.cpp: the event loops, the pool, the connections

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace webrank::serve
