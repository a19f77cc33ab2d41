// The HTTP layer (http.hpp) on Boost.Beast and Asio: `workers` event loops, one thread each, each
// owning the connections it was given, so that nothing of a connection is shared between threads
// but the server's count of them. A quick handler runs on the loop's thread, right after the
// request is read: an answer then costs no hand-over between threads, whose wake-ups cost a
// search a quarter of its throughput on a loaded machine (docs/serve.md, "Speed"). A slow one runs
// on a pool apart, the loop going on meanwhile. docs/serve.md, "HTTP: what is guaranteed", says
// why Beast and what is guaranteed.
#include "http.hpp"

#include <sys/resource.h>
#include <sys/socket.h>

#include <algorithm>

#include <array>
#include <atomic>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <list>
#include <mutex>
#include <new>
#include <optional>
#include <thread>

#include "webrank/serve/serve.hpp"
#include "webrank/util/error.hpp"

namespace webrank::serve {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Percent-decoding; a '%' not followed by two hex digits stays as it is.
std::string percent_decode(std::string_view s, bool plus_is_space) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      const int hi = hex_digit(s[i + 1]), lo = hex_digit(s[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
        continue;
      }
    }
    out += plus_is_space && s[i] == '+' ? ' ' : s[i];
  }
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string_view view(beast::string_view s) {
  return {s.data(), s.size()};
}

// Fills method, target, path and query from a request's first line; false when the target is not
// one this server can serve (origin form "/..." or absolute form "http://host/...", a decoded path
// without NUL bytes and without a ".." segment).
bool split_target(HttpRequest& r) {
  std::string_view t = r.target;
  if (t.size() > 8 && (iequals(t.substr(0, 7), "http://") || iequals(t.substr(0, 8), "https://"))) {
    const std::size_t slash = t.find('/', t.find("//") + 2);
    t = slash == std::string_view::npos ? std::string_view("/") : t.substr(slash);
  }
  if (t.empty() || t.front() != '/') return false;
  const std::size_t q = t.find('?');
  r.path = percent_decode(t.substr(0, q), false);
  r.query = q == std::string_view::npos ? "" : std::string(t.substr(q + 1));
  if (r.path.find('\0') != std::string::npos) return false;
  for (std::size_t at = 0; at != std::string::npos;) {
    const std::size_t next = r.path.find('/', at + 1);
    const std::string_view segment =
        std::string_view(r.path).substr(at + 1, next == std::string::npos ? next : next - at - 1);
    if (segment == "..") return false;
    at = next;
  }
  return true;
}

// The limits of docs/serve.md. Beast's limit on a head applies to the request line and then to
// the fields apart (it takes the line as soon as it is whole): this one lets both limits of the
// server be checked on what Beast parsed, with the field's separators and line ends.
constexpr std::size_t kHeadLimit = kServeMaxHeaderBytes + 4 * kServeMaxHeaderFields + 64;
static_assert(kHeadLimit > kServeMaxRequestLineBytes + 64);
// What a connection buffers: a whole head, and what follows it in the same reads (a pipelined
// request, part of a body); the parser takes a body from it as it comes.
constexpr std::size_t kBufferLimit = 2 * kHeadLimit;
// After an answer that closes the connection, what the client still sends is read and dropped for
// this long (at most kLingerBytes), so that the kernel does not reset the connection, discarding
// the answer, before the client has read it.
constexpr auto kLingerTime = std::chrono::seconds(2);
constexpr std::size_t kLingerBytes = std::size_t{1} << 20, kDropBytes = 4096;
// Files a worker may open besides connections (Xapian keeps a handle per thread: a handful of
// files each), and the process's own (database sections, the listening socket, standard streams).
constexpr std::size_t kFilesPerWorker = 16, kFilesReserved = 64;

// A connection's read buffer, which notes whether a request head held an obsolete line folding
// (a field continued on a line starting with a space or tab, RFC 9112 §5.2). Beast's parser
// unfolds such a field and obeys it, where a proxy in front may have read it otherwise; the
// server refuses it. The head is seen whole when the parser consumes it: Beast parses a head
// only once all of it is buffered, and read() consumes what the parser used through this class.
class HeadBuffer : public beast::flat_buffer {
 public:
  using beast::flat_buffer::flat_buffer;
  // While a head is read (until the next watch()), whether one it consumed was folded.
  void watch(bool on) {
    watching_ = on;
    folded_ = false;
  }
  bool folded() const { return folded_; }
  void consume(std::size_t n) {
    if (watching_ && !folded_) folded_ = held_fold(n);
    beast::flat_buffer::consume(n);
  }
  // Whether the first `n` bytes buffered hold a line that starts with a space or a tab, as a
  // field's continuation does (also for a head the parser refused before consuming it).
  bool held_fold(std::size_t n) const {
    const auto data = beast::flat_buffer::data();
    const std::string_view head(static_cast<const char*>(data.data()), std::min(n, data.size()));
    const std::string_view fields = head.substr(0, head.find("\r\n\r\n"));
    for (std::size_t i = fields.find('\n'); i != std::string_view::npos && i + 1 < fields.size();
         i = fields.find('\n', i + 1)) {
      if (fields[i + 1] == ' ' || fields[i + 1] == '\t') return true;
    }
    return false;
  }

 private:
  bool watching_ = false, folded_ = false;
};

constexpr const char* kFolded = "a header field folded over two lines (obsolete line folding)";

class Connection;

}  // namespace

struct HttpServer::Impl {
  Impl(const RouteTable& r, HttpServerOptions o)
      : routes(r), options(std::move(o)), loops(make_loops(options.workers)) {}

  static std::vector<std::unique_ptr<net::io_context>> make_loops(std::size_t n) {
    std::vector<std::unique_ptr<net::io_context>> loops;
    for (std::size_t i = 0; i < std::max<std::size_t>(1, n); ++i) {
      loops.push_back(std::make_unique<net::io_context>(1));
    }
    return loops;
  }

  void accept();
  void admit(tcp::socket socket);
  void closed();
  void shut_down();
  // Lists a request on a pool, so that a stop can cut it; false when the server is already
  // cutting them.
  bool track(const std::shared_ptr<RequestStop>& stop);
  void untrack(const std::shared_ptr<RequestStop>& stop);
  // Closes the connection that has waited longest for a request, if any; false when none waits.
  bool evict_one();

  const RouteTable& routes;
  HttpServerOptions options;
  std::vector<std::unique_ptr<net::io_context>> loops;  // loops[0] also accepts
  std::size_t next_loop = 0;
  tcp::acceptor acceptor{*loops.at(0)};
  net::steady_timer retry{*loops.at(0)};
  net::thread_pool pool{std::max<std::size_t>(1, options.workers)};  // the slow handlers
  net::thread_pool solvers{options.solvers > 0 ? options.solvers
                                               : std::max<std::size_t>(2, options.workers / 4)};
  net::steady_timer grace{*loops.at(0)};  // after a stop: when work in flight is cut
  std::atomic<bool> stopping = false;
  std::size_t cap = kServeMaxConnections;

  // The connections, shared by every loop.
  std::mutex mutex;
  std::vector<net::executor_work_guard<net::io_context::executor_type>> guards;
  std::size_t live = 0;
  bool accept_paused = false;      // at the cap with no connection to evict: resumed by a close
  bool cutting = false;            // the grace after a stop has passed
  std::list<Connection*> waiting;  // connections waiting for a request, longest first
  std::list<std::shared_ptr<RequestStop>> computing;  // requests on the pools, to cut at a stop
};

namespace {

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  using Server = HttpServer::Impl;
  // Listed as waiting from the start (on the accepting thread, before its loop runs it), so that
  // the next connection accepted at the cap can take its slot.
  Connection(Server& s, tcp::socket socket)
      : s_(s),
        stream_(std::move(socket)),
        buffer_(kBufferLimit),
        deadline_(stream_.get_executor()) {
    enter_waiting();
  }
  ~Connection() {
    leave_waiting();
    s_.closed();
  }

  void start() {
    net::dispatch(stream_.get_executor(),
                  [self = shared_from_this()] { self->wait_for_request(); });
  }

  // Closes the connection, on its loop (the server stops, or needs its slot).
  void evict() {
    net::post(stream_.get_executor(), [self = shared_from_this()] { self->close(); });
  }

  // Whether it waits for a request; guarded by the server's mutex.
  bool in_waiting_ = false;
  std::list<Connection*>::iterator waiting_;

 private:
  void wait_for_request() {
    if (!enter_waiting()) return close();
    parser_.emplace();
    parser_->header_limit(static_cast<std::uint32_t>(kHeadLimit));
    parser_->body_limit(kServeMaxBodyBytes);
    // One deadline for the whole request, idle time before it included: a client that trickles
    // bytes gains nothing by them.
    stream_.expires_after(std::chrono::seconds(kServeRequestSeconds));
    buffer_.watch(true);
    http::async_read_header(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_head(ec); });
  }

  // Lists the connection as waiting (unless it is); false when the server stops. Checked with the
  // list locked: a stop evicts every connection it finds waiting.
  bool enter_waiting() {
    std::lock_guard lock(s_.mutex);
    if (s_.stopping) return false;
    if (!in_waiting_) waiting_ = s_.waiting.insert(s_.waiting.end(), this);
    in_waiting_ = true;
    return true;
  }

  void leave_waiting() {
    std::lock_guard lock(s_.mutex);
    if (in_waiting_) s_.waiting.erase(waiting_);
    in_waiting_ = false;
  }

  void on_head(beast::error_code ec) {
    const bool folded = buffer_.folded();
    buffer_.watch(false);
    if (ec) return on_read_error(ec);
    if (folded) return refuse(400, kFolded);
    if (const auto refusal = check_head()) return refuse(refusal->first, refusal->second);
    if (parser_->is_done()) return dispatch();
    http::async_read(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code e, std::size_t) { self->on_body(e); });
  }

  void on_body(beast::error_code ec) {
    if (ec) return on_read_error(ec);
    dispatch();
  }

  // What Beast's parser lets through but this server refuses: framing a proxy in front could read
  // otherwise (RFC 9112 §6.1, §6.3), the limits of fields, versions other than 1.0 and 1.1.
  std::optional<std::pair<int, std::string>> check_head() const {
    const auto& m = parser_->get();
    if (m.version() != 10 && m.version() != 11) {
      return std::pair{505, std::string("only HTTP/1.0 and HTTP/1.1 are served")};
    }
    if (m.target().size() > kServeMaxRequestLineBytes) {
      return std::pair{414, std::string("the URL is too long")};
    }
    std::size_t fields = 0, bytes = 0, hosts = 0, lengths = 0, codings = 0;
    bool chunked = false;
    for (const auto& f : m) {
      ++fields;
      bytes += f.name_string().size() + f.value().size();
      if (f.name() == http::field::host) ++hosts;
      if (f.name() == http::field::content_length) {
        ++lengths;
        if (view(f.value()).find(',') != std::string_view::npos) ++lengths;
      }
      if (f.name() == http::field::transfer_encoding) {
        ++codings;
        chunked = iequals(trim(view(f.value())), "chunked");
      }
    }
    if (fields > kServeMaxHeaderFields || bytes > kServeMaxHeaderBytes) {
      return std::pair{431, cat("the header fields are too large (at most ", kServeMaxHeaderFields,
                                " fields, ", kServeMaxHeaderBytes, " bytes)")};
    }
    if (hosts > 1 || (hosts == 0 && m.version() == 11)) {
      return std::pair{400, std::string("an HTTP/1.1 request needs exactly one Host field")};
    }
    if (lengths > 1) return std::pair{400, std::string("more than one Content-Length")};
    if (codings > 0 && (lengths > 0 || codings > 1 || !chunked || m.version() != 11)) {
      return std::pair{400, std::string("ambiguous framing: Transfer-Encoding is only served as "
                                        "one field \"chunked\" in HTTP/1.1, without "
                                        "Content-Length")};
    }
    return std::nullopt;
  }

  void on_read_error(beast::error_code ec) {
    leave_waiting();
    if (ec == http::error::header_limit) {
      // Beast takes the request line as soon as it is whole: if it did, the fields are too large.
      if (!parser_->get().target().empty()) {
        return refuse(
            431, cat("the header fields are too large (at most ", kServeMaxHeaderBytes, " bytes)"));
      }
      return refuse(414, "the URL is too long");
    }
    if (ec == http::error::body_limit) return refuse(413, "the request is too large");
    // A length of digits too long for a number announces a body over any limit: 413, as a
    // length over the limit is; anything else that is not a length is malformed (400).
    if (ec == http::error::bad_content_length && length_overflows()) {
      return refuse(413, "the request is too large");
    }
    if (ec == http::error::bad_version && asks_other_version()) {
      return refuse(505, "only HTTP/1.0 and HTTP/1.1 are served");
    }
    if (ec == http::error::buffer_overflow) return refuse(431, "the request head is too large");
    // Beast's own refusals of malformed requests; everything else (end of stream, a timeout, a
    // reset, an eviction) ends the connection without an answer.
    if (ec.category() == http::make_error_code(http::error::bad_method).category() &&
        ec != http::error::end_of_stream && ec != http::error::partial_message) {
      if (buffer_.held_fold(buffer_.size())) return refuse(400, kFolded);
      return refuse(400, "malformed request: " + ec.message());
    }
    close();
  }

  // Whether the request line that Beast refused is well formed but of another version
  // ("HTTP/2.0"), rather than malformed: a method, a target and a version, one space apart (a
  // space inside the target makes the line malformed, whatever follows it).
  bool asks_other_version() const {
    const auto data = buffer_.data();
    const std::string_view buffered(static_cast<const char*>(data.data()), data.size());
    const std::size_t end = buffered.find('\n');
    if (end == std::string_view::npos || end < 10 || buffered[end - 1] != '\r') return false;
    const std::string_view line = buffered.substr(0, end - 1);
    if (std::count(line.begin(), line.end(), ' ') != 2) return false;
    const std::string_view v = buffered.substr(end - 10, 9);
    return v.starts_with(" HTTP/") && std::isdigit(static_cast<unsigned char>(v[6])) &&
           v[7] == '.' && std::isdigit(static_cast<unsigned char>(v[8]));
  }

  // Whether the head Beast refused for its Content-Length has one that is all digits (so only
  // too large to hold), rather than something that is not a length. What is buffered starts at
  // the request line or at the field Beast refused (it consumes the fields it took).
  bool length_overflows() const {
    const auto data = buffer_.data();
    const std::string_view head(static_cast<const char*>(data.data()), data.size());
    for (std::size_t start = 0, end = 0; start < head.size(); start = end + 1) {
      end = std::min(head.find('\n', start), head.size());
      const std::string_view line = head.substr(start, end - start);
      const std::size_t colon = line.find(':');
      if (colon == std::string_view::npos || !iequals(line.substr(0, colon), "content-length")) {
        continue;
      }
      const std::string_view value = trim(line.substr(colon + 1, line.find('\r') - colon - 1));
      return value.size() > 19 && std::all_of(value.begin(), value.end(), [](char c) {
               return std::isdigit(static_cast<unsigned char>(c));
             });
    }
    return false;
  }

  HttpRequest request_read() const {
    HttpRequest r;
    if (!parser_) return r;
    const auto& m = parser_->get();
    r.method = std::string(view(m.method_string()));
    r.target = std::string(view(m.target()));
    if (!split_target(r)) r.path.clear(), r.query.clear();
    return r;
  }

  void dispatch() {
    leave_waiting();
    const auto& m = parser_->get();
    HttpRequest request = request_read();
    if (request.path.empty()) return refuse(400, "not a path this server can serve", request);
    head_ = m.method() == http::verb::head;
    version_ = m.version();
    keep_alive_ = m.keep_alive() && ++served_ < kServeMaxKeepAliveRequests;
    parser_.reset();
    answer(std::move(request), 0, {});
  }

  // A request that cannot be answered as asked: the answer says why, and the connection closes
  // after it (nothing that follows on it can be trusted to start a request).
  void refuse(int status, std::string message) {
    refuse(status, std::move(message), request_read());
  }
  void refuse(int status, std::string message, HttpRequest request) {
    leave_waiting();
    head_ = parser_ && parser_->get().method() == http::verb::head;
    version_ = parser_ && parser_->get().version() == 10 ? 10 : 11;
    keep_alive_ = false;
    parser_.reset();
    answer(std::move(request), status, std::move(message));
  }

  // A quick handler (and an error's) runs here, on this connection's loop; a slow one on a pool,
  // which hands the answer back to the loop. Meanwhile the loop watches the work's deadline and
  // the client: either stops the work (HttpRequest::stop).
  void answer(HttpRequest request, int status, std::string message) {
    const Pace pace = status != 0 ? Pace::kQuick : s_.routes.pace_of(request);
    if (pace == Pace::kQuick) return write(respond(request, status, message));
    auto stop = std::make_shared<RequestStop>();
    request.stop = stop->token();
    request.stopper = stop;
    if (!s_.track(stop)) stop->cut(Cutoff::kShutdown);
    deadline_.expires_after(std::chrono::seconds(kServeComputeSeconds));
    deadline_.async_wait([stop](beast::error_code ec) {
      if (!ec) stop->cut(Cutoff::kDeadline);
    });
    watch_client(stop);
    auto work = [self = shared_from_this(), request = std::move(request), stop]() mutable {
      HttpResponse response = self->respond(request, 0, {});
      auto loop = self->stream_.get_executor();
      net::post(loop, [self = std::move(self), response = std::move(response), stop]() mutable {
        self->s_.untrack(stop);
        self->deadline_.cancel();
        beast::error_code ignored;
        self->stream_.socket().cancel(ignored);  // the watch of the client
        self->write(std::move(response));
      });
    };
    if (pace == Pace::kSolve) {
      net::post(s_.solvers, std::move(work));
    } else {
      net::post(s_.pool, std::move(work));
    }
  }

  // Stops `stop` when the client closes its connection (or it breaks) while its answer is
  // computed. A client that sends more meanwhile (a pipelined request) is still there: the watch
  // ends.
  void watch_client(const std::shared_ptr<RequestStop>& stop) {
    stream_.socket().async_wait(
        tcp::socket::wait_read, [self = shared_from_this(), stop](beast::error_code ec) {
          if (ec) return;  // cancelled: the answer is ready
          char byte;
          const auto n =
              ::recv(self->stream_.socket().native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
          if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
            stop->cut(Cutoff::kClientLeft);
          } else if (n < 0) {
            self->watch_client(stop);
          }
        });
  }

  HttpResponse respond(const HttpRequest& request, int status, const std::string& message) const {
    // Work that waited in a pool's queue past its deadline, its client or the stop is not begun.
    HttpResponse response = status != 0 ? s_.routes.error(request, status, message)
                            : request.stop.stop_requested()
                                ? s_.routes.error(request, 503, cutoff_message(request.cutoff()))
                                : s_.routes.answer(request);
    if (s_.options.on_request) {
      s_.options.on_request(cat(request.method.empty() ? "-" : request.method, " ",
                                request.path.empty() ? "-" : request.path, " ", response.status));
    }
    return response;
  }

  void write(HttpResponse response) {
    serialize(std::move(response));
    stream_.expires_after(std::chrono::seconds(kServeWriteSeconds));
    net::async_write(
        stream_, std::array<net::const_buffer, 2>{net::buffer(out_head_), net::buffer(out_body_)},
        [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_written(ec); });
  }

  // The status line and header fields of `response`, and its body (none for HEAD, 1xx, 204, 304).
  void serialize(HttpResponse response) {
    if (s_.stopping) keep_alive_ = false;
    const auto reason = http::obsolete_reason(http::int_to_status(response.status));
    out_head_ = cat(version_ == 10 ? "HTTP/1.0 " : "HTTP/1.1 ", response.status, " ",
                    view(reason.empty() ? "Unknown" : reason), "\r\n");
    const auto field = [this](std::string_view name, std::string_view value) {
      out_head_.append(name).append(": ");
      // A value never ends the field early, whatever a handler put in it.
      for (char c : value) out_head_ += c == '\r' || c == '\n' ? ' ' : c;
      out_head_ += "\r\n";
    };
    for (const auto& [name, value] : response.headers) field(name, value);
    if (!response.content_type.empty()) field("Content-Type", response.content_type);
    const bool no_body = response.status < 200 || response.status == 204 || response.status == 304;
    if (!no_body) field("Content-Length", std::to_string(response.body.size()));
    if (!keep_alive_ && version_ == 11) field("Connection", "close");
    if (keep_alive_ && version_ == 10) field("Connection", "keep-alive");
    out_head_ += "\r\n";
    out_body_ = head_ || no_body ? std::string() : std::move(response.body);
  }

  void on_written(beast::error_code ec) {
    out_head_ = std::string();
    out_body_ = std::string();
    if (ec) return close();
    if (keep_alive_) return wait_for_request();
    // A stopping server closes at once: lingering would hold its stop up to kLingerTime for
    // a client that sends more.
    if (s_.stopping) return close();
    linger();
  }

  void linger() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.expires_after(kLingerTime);
    drop();
  }

  void drop() {
    if (!dropped_bytes_) dropped_bytes_ = std::make_unique<char[]>(kDropBytes);
    stream_.async_read_some(net::buffer(dropped_bytes_.get(), kDropBytes),
                            [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                              self->dropped_ += n;
                              if (ec || self->dropped_ > kLingerBytes) return self->close();
                              self->drop();
                            });
  }

  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.close();
  }

  Server& s_;
  beast::tcp_stream stream_;
  HeadBuffer buffer_;
  net::steady_timer deadline_;  // of the work of the request on a pool
  std::optional<http::request_parser<http::string_body>> parser_;
  std::string out_head_, out_body_;        // the answer being written
  std::unique_ptr<char[]> dropped_bytes_;  // what a lingering connection reads
  bool head_ = false, keep_alive_ = false;
  unsigned version_ = 11;
  std::size_t served_ = 0, dropped_ = 0;
};

}  // namespace

// On loops[0], as everything of the acceptor. Connections go to the loops in turn.
void HttpServer::Impl::accept() {
  if (stopping) return;
  net::io_context& loop = *loops[next_loop++ % loops.size()];
  acceptor.async_accept(loop, [this](beast::error_code ec, tcp::socket socket) {
    if (ec == net::error::operation_aborted || stopping) return;
    if (ec) {
      // Out of files (or memory): give a waiting connection's slot back, and try again shortly
      // rather than spin on a listening socket that stays readable.
      evict_one();
      retry.expires_after(std::chrono::milliseconds(50));
      retry.async_wait([this](beast::error_code e) {
        if (!e) accept();
      });
      return;
    }
    admit(std::move(socket));
  });
}

bool HttpServer::Impl::evict_one() {
  std::shared_ptr<Connection> victim;
  {
    std::lock_guard lock(mutex);
    while (!victim && !waiting.empty()) {
      Connection* c = waiting.front();
      waiting.pop_front();
      c->in_waiting_ = false;
      victim = c->weak_from_this().lock();  // null when it is being destroyed: its slot is free
    }
  }
  if (victim) victim->evict();
  return victim != nullptr;
}

// On loops[0].
void HttpServer::Impl::admit(tcp::socket socket) {
  bool full;
  {
    std::lock_guard lock(mutex);
    full = live >= cap;
  }
  // At the cap, the slot of the connection that has waited longest for a request: a slow or
  // idle client costs one slot, and only while no one else needs it. When every slot has a
  // request in flight, this one is served, and no other accepted until a slot frees.
  const bool evicted = full && evict_one();
  beast::error_code ignored;
  socket.set_option(tcp::no_delay(true), ignored);
  {
    std::lock_guard lock(mutex);
    ++live;
    accept_paused = full && !evicted;
  }
  std::make_shared<Connection>(*this, std::move(socket))->start();
  if (!full || evicted) accept();
}

// On a connection's loop, as it is destroyed.
void HttpServer::Impl::closed() {
  std::lock_guard lock(mutex);
  --live;
  if (accept_paused && live < cap && !stopping) {
    accept_paused = false;
    net::post(*loops[0], [this] { accept(); });
  }
  if (stopping && live == 0) {
    guards.clear();
    net::post(*loops[0], [this] { grace.cancel(); });
  }
}

bool HttpServer::Impl::track(const std::shared_ptr<RequestStop>& stop) {
  std::lock_guard lock(mutex);
  computing.push_back(stop);
  return !cutting;
}

void HttpServer::Impl::untrack(const std::shared_ptr<RequestStop>& stop) {
  std::lock_guard lock(mutex);
  computing.remove(stop);
}

// On loops[0].
void HttpServer::Impl::shut_down() {
  {
    std::lock_guard lock(mutex);
    stopping = true;
  }
  beast::error_code ignored;
  acceptor.close(ignored);
  retry.cancel();
  while (evict_one()) {
  }
  std::lock_guard lock(mutex);
  if (live == 0) {
    guards.clear();
    return;
  }
  // Requests in flight may finish; past the grace their work is stopped (and answered 503).
  grace.expires_after(std::chrono::seconds(kServeShutdownGraceSeconds));
  grace.async_wait([this](beast::error_code ec) {
    if (ec) return;
    std::lock_guard lock(mutex);
    cutting = true;
    for (const auto& stop : computing) stop->cut(Cutoff::kShutdown);
  });
}

HttpServer::HttpServer(const RouteTable& routes, HttpServerOptions options)
    : impl_(std::make_unique<Impl>(routes, std::move(options))) {}

HttpServer::~HttpServer() {
  for (auto& loop : impl_->loops) loop->stop();
  impl_->pool.join();
  impl_->solvers.join();
}

int HttpServer::listen(const std::string& address, int port) {
  Impl& s = *impl_;
  beast::error_code ec;
  tcp::resolver resolver(*s.loops[0]);
  const auto endpoints = resolver.resolve(
      address, std::to_string(port), tcp::resolver::passive | tcp::resolver::numeric_service, ec);
  if (!ec && !endpoints.empty()) {
    const tcp::endpoint at = endpoints.begin()->endpoint();
    s.acceptor.open(at.protocol(), ec);
    // SO_REUSEADDR only (not SO_REUSEPORT, with which a second server would silently share the
    // port): a port in use is an error.
    if (!ec) s.acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
    if (!ec) s.acceptor.bind(at, ec);
    if (!ec) s.acceptor.listen(net::socket_base::max_listen_connections, ec);
  }
  if (ec || endpoints.empty()) {
    // Which of the causes it is, since each has its own fix.
    const std::string why =
        endpoints.empty() ? "not an address this machine can resolve"
        : ec == net::error::address_in_use
            ? cat("port ", port,
                  " is in use by another process; choose another --port, or --port "
                  "0 for any free one")
        : ec == net::error::access_denied && port < 1024
            ? cat("permission denied: port ", port,
                  " is below 1024, which needs root (or CAP_NET_BIND_SERVICE); choose a port of "
                  "1024 or more")
        : ec == net::error::access_denied ? "permission denied by the system's security policy"
        : ec == boost::system::errc::address_not_available ? "not an address of this machine"
                                                           : ec.message();
    fail(ErrorKind::kIo, "cannot listen on ", address, ":", port, ": ", why);
  }
  rlimit files{};
  if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY) {
    const std::size_t reserved = kFilesReserved + kFilesPerWorker * s.options.workers;
    const std::size_t allowed = files.rlim_cur > reserved + 8 ? files.rlim_cur - reserved : 8;
    s.cap = std::min(kServeMaxConnections, allowed);
  }
  return s.acceptor.local_endpoint().port();
}

void HttpServer::run() {
  Impl& s = *impl_;
  for (auto& loop : s.loops) s.guards.push_back(net::make_work_guard(*loop));
  net::post(*s.loops[0], [&s] { s.accept(); });
  std::vector<std::thread> threads;
  for (std::size_t i = 1; i < s.loops.size(); ++i) {
    threads.emplace_back([&s, i] { s.loops[i]->run(); });
  }
  s.loops[0]->run();
  for (auto& t : threads) t.join();
  s.pool.join();
  s.solvers.join();
}

void HttpServer::stop() {
  net::post(*impl_->loops[0], [s = impl_.get()] {
    if (!s->stopping) s->shut_down();
  });
}

// --- requests, responses and the route table ---

std::string cutoff_message(Cutoff why) {
  switch (why) {
    case Cutoff::kDeadline:
      return cat("stopped after ", kServeComputeSeconds,
                 " s, the most a request may compute (docs/serve.md, \"Bounds\")");
    case Cutoff::kClientLeft:
      return "stopped: the client closed the connection";
    case Cutoff::kShutdown:
      return "stopped: the server is stopping";
    case Cutoff::kNone:
      break;
  }
  return "stopped";
}

std::optional<std::string> HttpRequest::param(std::string_view name) const {
  std::string_view rest = query;
  while (!rest.empty()) {
    const std::size_t amp = rest.find('&');
    const std::string_view pair = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
    const std::size_t eq = pair.find('=');
    if (percent_decode(pair.substr(0, eq), true) != name) continue;
    return eq == std::string_view::npos ? std::string() : percent_decode(pair.substr(eq + 1), true);
  }
  return std::nullopt;
}

std::vector<std::pair<std::string, std::string>> HttpRequest::params() const {
  std::vector<std::pair<std::string, std::string>> out;
  std::string_view rest = query;
  while (!rest.empty()) {
    const std::size_t amp = rest.find('&');
    const std::string_view pair = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
    if (pair.empty()) continue;
    const std::size_t eq = pair.find('=');
    out.emplace_back(
        percent_decode(pair.substr(0, eq), true),
        eq == std::string_view::npos ? std::string() : percent_decode(pair.substr(eq + 1), true));
  }
  return out;
}

void HttpResponse::set_header(std::string_view name, std::string value) {
  for (auto& [n, v] : headers) {
    if (iequals(n, name)) {
      v = std::move(value);
      return;
    }
  }
  headers.emplace_back(std::string(name), std::move(value));
}

const std::string* HttpResponse::header(std::string_view name) const {
  for (const auto& [n, v] : headers) {
    if (iequals(n, name)) return &v;
  }
  return nullptr;
}

void RouteTable::exact(std::string path, Handler handler, Pace pace) {
  exact_.push_back({std::move(path), std::move(handler), pace});
}

bool RouteTable::has(std::string_view path) const {
  return std::any_of(exact_.begin(), exact_.end(), [&](const Route& r) { return r.path == path; });
}

void RouteTable::prefix(std::string prefix, Handler handler, Pace pace) {
  prefix_.push_back({std::move(prefix), std::move(handler), pace});
  std::stable_sort(prefix_.begin(), prefix_.end(),
                   [](const Route& a, const Route& b) { return a.path.size() > b.path.size(); });
}

const RouteTable::Route* RouteTable::find(const HttpRequest& request) const {
  if (request.method != "GET" && request.method != "HEAD") return nullptr;
  for (const Route& r : exact_) {
    if (r.path == request.path) return &r;
  }
  for (const Route& r : prefix_) {
    if (request.path.size() > r.path.size() && request.path.starts_with(r.path)) return &r;
  }
  return nullptr;
}

Pace RouteTable::pace_of(const HttpRequest& request) const {
  const Route* route = find(request);
  return route ? route->pace : Pace::kQuick;
}

void RouteTable::default_header(std::string name, std::string value) {
  defaults_.emplace_back(std::move(name), std::move(value));
}

void RouteTable::complete(HttpResponse& response) const {
  for (const auto& [name, value] : defaults_) {
    if (!response.header(name)) response.headers.emplace_back(name, value);
  }
}

HttpResponse RouteTable::error(const HttpRequest& request, int status,
                               const std::string& message) const {
  HttpResponse response;
  try {
    response =
        error_ ? error_(request, status, message) : HttpResponse{status, "text/plain", message, {}};
  } catch (...) {
    // The error handler itself failed (out of memory): the bare status.
    response = HttpResponse{status, "text/plain", message, {}};
  }
  response.status = status;
  complete(response);
  return response;
}

HttpResponse RouteTable::answer(const HttpRequest& request) const {
  if (request.method != "GET" && request.method != "HEAD") {
    HttpResponse response = error(request, 405, "only GET and HEAD are served");
    response.set_header("Allow", "GET, HEAD");
    return response;
  }
  const Route* route = find(request);
  if (!route) return error(request, 404, "no such page on this server");
  HttpResponse response;
  try {
    response = route->handler(request);
  } catch (const std::bad_alloc&) {
    return error(request, 503, "out of memory");
  } catch (...) {
    return error(request, 500, "internal error");
  }
  complete(response);
  return response;
}

}  // namespace webrank::serve
