// The web server of a link database (`webrank serve`, docs/serve.md): a search page, page views
// (ranks in every stored vector, backlinks by PageRank, forward links with bars, the rank's L1
// history), the proxy view of a crawled page with a PageRank bar before every link (the paper's
// §7.3), a versioned JSON API (/api/v1/...) and /healthz. Every asset is built into the binary;
// nothing outside the database is served.
//
// The database is opened read-only and stays so: a rank vector that `webrank rank` stores while
// the server runs, a rebuilt index, or a new version of the database (`update`, `crawl
// --recrawl`) is picked up within a second (Searcher::reopen(), said by on_log), and requests in
// flight finish on what they started with. A database without a search index is served with
// search off (its answers say so; /healthz has "search": false) and everything else on.
//
// Threads: run_server() blocks the calling thread until a stop is requested; it and threads of its
// own run `threads` event loops, which serve the connections and compute quick answers (searches),
// and as many threads compute slow ones (page views, the proxy, compare, the report's data).
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <stop_token>
#include <string>

namespace webrank {

// Bounds of a request (documented in docs/serve.md): what a client can make the server hold.
inline constexpr std::size_t kServeMaxBodyBytes = 16384;        // request bodies (GET needs none)
inline constexpr std::size_t kServeMaxRequestLineBytes = 8192;  // the request's URL: 414
inline constexpr std::size_t kServeMaxHeaderBytes = 8192;       // field names and values: 431
inline constexpr std::size_t kServeMaxHeaderFields = 100;       // fields of a request: 431
inline constexpr int kServeRequestSeconds = 5;  // to send a whole request, idle time included
inline constexpr int kServeWriteSeconds = 5;    // to take a whole answer
// The work of one request (on the pools) is stopped past this, and answered 503.
inline constexpr int kServeComputeSeconds = 10;
// After a stop (SIGTERM), requests still computing are stopped past this, and answered 503.
inline constexpr int kServeShutdownGraceSeconds = 2;
inline constexpr std::size_t kServeMaxKeepAliveRequests = 1000;  // per connection
inline constexpr std::size_t kServeMaxConnections = 4096;        // at once (and the file limit)

struct ServeOptions {
  std::filesystem::path db;
  std::string bind = "127.0.0.1";  // an address; "0.0.0.0" serves every interface
  int port = 8080;                 // 0: the system picks a free port (reported by on_listening)
  int threads = 0;                 // event loops (and slow-view threads); 0 = 2 per core, >= 8
  std::string ranks = "pagerank";  // the stored vector results are ranked by
  bool ranks_named = false;        // true: `ranks` was asked for by name (missing is an error)
  // A sharded index to search instead of DB/search.xapian: its shard list (a Xapian stub file;
  // docs/search.md, "A sharded index"). Empty: the database's own index.
  std::filesystem::path shards = {};
  // Memory for answers of repeated searches (docs/serve.md); 0 computes every search.
  std::size_t cache_bytes = std::size_t{64} << 20;
  std::stop_token stop;  // a stop request ends run_server(): in-flight requests finish
  // Called once the socket listens, with the address and port (port 0 resolved). May be empty.
  std::function<void(const std::string& address, int port)> on_listening;
  // One line per request (method, path, status), from worker threads; may be empty.
  std::function<void(const std::string& line)> on_request;
  // What the server notices on its own (a new version of the database reopened, a reopen that
  // failed, search off for want of an index), one line each, from the watcher; may be empty.
  std::function<void(const std::string& line)> on_log;
};

// Opens the database (and its index, if it has one) and serves until options.stop is requested.
// Throws Error: kNotFound / kCorrupt as Searcher::open() does, kIo when the
// address cannot be bound (in use, not an address of this machine), kInvalidArgument for a port
// outside [0, 65535] or threads < 0.
void run_server(const ServeOptions& options);

}  // namespace webrank
