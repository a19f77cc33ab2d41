// simweb: a simulated web of many hosts served from one process on loopback, for measuring and
// testing crawlers at scale (bench/crawl-scale, tests/cli/test_crawl_scale.py; docs/benchmarks.md).
//
//   simweb [--hosts 1000] [--pages 100000] [--zipf 1.0] [--latency-ms 100] [--log FILE] ...
//
// Host i (0-based) is the address 127.1.0.1 + i (every 127.0.0.0/8 address routes to lo on
// Linux), all on one port; each address has its own listening socket, so the host is known from
// the address a connection came in on and the crawler needs no resolver. The port (chosen by the
// kernel unless --port is given) is printed on stdout, one line, once every host listens.
//
// Everything is a function of the host and the path (no files, no state), so two runs are the
// same web:
// - host sizes follow a Zipf-Mandelbrot law: host i gets pages in proportion to
//   1 / (i + 1 + q)^zipf, q = --head-offset (default hosts/10: a power-law tail with a head
//   flattened, since with a pure Zipf law the largest host alone decides how long a polite crawl
//   takes); --pages in all, at least one per host;
// - /            the home page: links to /p/0 and a few other hosts' homes;
// - /p/K         page K of the host (K < its size): links to /p/(2K+1) and /p/(2K+2) (every page
//                is reachable in log2(size) steps), --links more pages of the host chosen by a
//                hash, one page of another host, and on every seventh page a redirect (/r/M), a
//                missing page (/missing/M) and, on hosts whose robots.txt disallows it,
//                /private/M; a title and --words words of text;
// - /r/M         301 to /p/M;  /missing/M: 404;  /private/M: a page robots.txt disallows;
// - /robots.txt  on hosts i % 10 == 3: "Disallow: /private/"; on hosts i % 20 == 7 of the
//                smaller half also "Crawl-delay: --crawl-delay"; elsewhere 404;
// - slow hosts   (i % 50 == 11 of the smaller half) answer after --slow-factor times the latency.
// Every answer waits --latency-ms first (a timer: the server's CPU is not spent waiting).
//
// The log (--log) has one line per request: arrival and answer times in seconds since the server
// started (steady clock), host index, status, path (tab-separated), so that politeness can be
// checked from the server's side. It is written when the server stops (SIGTERM, SIGINT,
// --max-requests or --max-seconds) and every second before.
#include <arpa/inet.h>
#include <fcntl.h>
#include <unistd.h>

#include <utility>  // before Asio: Boost 1.74's awaitable.hpp uses std::exchange without it

#include <boost/asio.hpp>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
  int hosts = 1000;
  std::uint64_t pages = 100000;
  double zipf = 1.0;
  double head_offset = -1;  // < 0: hosts / 10
  int links = 5;
  int words = 80;
  double latency_ms = 100;
  double slow_factor = 5;
  double crawl_delay = 0.5;
  int port = 0;
  std::string log;
  std::uint64_t max_requests = 0;  // 0: unbounded
  double max_seconds = 0;          // 0: unbounded
  bool sizes = false;              // print the total, then each host's size, and exit
};

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finalizer
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
std::uint64_t hash3(std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  return mix(a * 0x100000001b3ull ^ mix(b * 31 + mix(c)));
}

const char* const kWords[] = {
    "page",    "rank",   "link",    "web",     "graph",  "crawl",   "search",  "engine", "host",
    "site",    "index",  "query",   "vector",  "matrix", "random",  "surfer",  "node",   "edge",
    "anchor",  "text",   "title",   "archive", "forum",  "thread",  "news",    "story",  "report",
    "library", "paper",  "science", "school",  "course", "student", "teacher", "river",  "mountain",
    "city",    "street", "market",  "garden",  "music",  "film",    "book",    "letter", "winter",
    "summer",  "spring", "autumn",  "light",   "stone",  "water",   "fire",    "cloud",  "storm"};
constexpr std::size_t kWordCount = sizeof kWords / sizeof kWords[0];

class Web {
 public:
  explicit Web(const Options& o) : o_(o), sizes_(o.hosts) {
    const double q = o.head_offset >= 0 ? o.head_offset : o.hosts / 10.0;
    std::vector<double> cum(o.hosts + 1, 0.0);
    for (int i = 0; i < o.hosts; ++i) cum[i + 1] = cum[i] + std::pow(i + 1 + q, -o.zipf);
    for (int i = 0; i < o.hosts; ++i) {  // cumulative rounding: the sizes add up to --pages
      const auto a = static_cast<std::uint64_t>(std::llround(o.pages * cum[i] / cum[o.hosts]));
      const auto b = static_cast<std::uint64_t>(std::llround(o.pages * cum[i + 1] / cum[o.hosts]));
      sizes_[i] = std::max<std::uint64_t>(1, b - a);
    }
  }
  std::uint64_t size(int host) const { return sizes_[host]; }
  // Slow hosts and Crawl-delay hosts are among the smaller half: the largest hosts, not one slow
  // one, bound how long a polite crawl of the whole web takes.
  bool slow(int host) const { return host % 50 == 11 && host >= o_.hosts / 2; }
  bool disallows(int host) const { return host % 10 == 3; }
  bool crawl_delay(int host) const { return host % 20 == 7 && host >= o_.hosts / 2; }

  static std::string address(int host) {
    const std::uint32_t a = (127u << 24 | 1u << 16) + 1u + static_cast<std::uint32_t>(host);
    return std::to_string(a >> 24) + "." + std::to_string((a >> 16) & 255) + "." +
           std::to_string((a >> 8) & 255) + "." + std::to_string(a & 255);
  }

  // The answer to GET path on host: status, extra header lines, body.
  int answer(int host, std::string_view path, std::string& fields, std::string& body) const {
    if (path == "/robots.txt") {
      if (!disallows(host) && !crawl_delay(host)) return not_found(body);
      body = "User-agent: *\n";
      if (disallows(host)) body += "Disallow: /private/\n";
      if (crawl_delay(host)) body += "Crawl-delay: " + format(o_.crawl_delay) + "\n";
      fields = "Content-Type: text/plain\r\n";
      return 200;
    }
    fields = "Content-Type: text/html; charset=utf-8\r\n";
    if (path == "/") return home(host, body);
    std::uint64_t k = 0;
    if (number(path, "/p/", k)) return k < size(host) ? page(host, k, body) : not_found(body);
    if (number(path, "/r/", k)) {
      fields += "Location: /p/" + std::to_string(k) + "\r\n";
      body = "<a href=\"/p/" + std::to_string(k) + "\">moved</a>";
      return 301;
    }
    if (number(path, "/private/", k)) {
      body = "<title>private " + std::to_string(k) + "</title>";
      return 200;
    }
    return not_found(body);
  }

 private:
  static std::string format(double x) {
    char b[32];
    std::snprintf(b, sizeof b, "%g", x);
    return b;
  }
  static bool number(std::string_view path, std::string_view prefix, std::uint64_t& k) {
    if (!path.starts_with(prefix) || path.size() == prefix.size()) return false;
    k = 0;
    for (char c : path.substr(prefix.size())) {
      if (c < '0' || c > '9') return false;
      k = k * 10 + static_cast<std::uint64_t>(c - '0');
    }
    return true;
  }
  static int not_found(std::string& body) {
    body = "<title>not found</title><a href=\"/\">home</a>";
    return 404;
  }
  std::string url(int host, std::uint64_t k) const {
    return "http://" + address(host) + ":" + std::to_string(port_) + "/p/" + std::to_string(k);
  }
  int home(int host, std::string& body) const {
    body = "<!DOCTYPE html><html><head><title>Host " + std::to_string(host) +
           "</title></head><body><h1>Host " + std::to_string(host) +
           "</h1><a href=\"/p/0\">start</a>\n";
    for (int m = 1; m <= 3; ++m) {
      const int other = static_cast<int>(hash3(host, 0xffff, m) % o_.hosts);
      body += "<a href=\"http://" + address(other) + ":" + std::to_string(port_) + "/\">host " +
              std::to_string(other) + "</a>\n";
    }
    body += "</body></html>";
    return 200;
  }
  int page(int host, std::uint64_t k, std::string& body) const {
    const std::uint64_t n = size(host);
    body.reserve(2048);
    body = "<!DOCTYPE html><html><head><title>Host " + std::to_string(host) + " page " +
           std::to_string(k) + "</title></head><body><h1>Page " + std::to_string(k) + "</h1><p>";
    for (int w = 0; w < o_.words; ++w) {
      body += kWords[hash3(host, k, 1000 + w) % kWordCount];
      body += w % 12 == 11 ? ".</p><p>" : " ";
    }
    body += "</p>\n";
    auto link = [&](const std::string& href, const char* text) {
      body += "<a href=\"" + href + "\">" + text + "</a>\n";
    };
    for (std::uint64_t c = 2 * k + 1; c <= 2 * k + 2; ++c)
      if (c < n) link("/p/" + std::to_string(c), "next");
    for (int m = 0; m < o_.links; ++m) link("/p/" + std::to_string(hash3(host, k, m) % n), "see");
    const int other = static_cast<int>(hash3(host, k, 99) % o_.hosts);
    link(url(other, hash3(host, k, 98) % size(other)), "elsewhere");
    if (k % 7 == 3) {
      link("/r/" + std::to_string(hash3(host, k, 97) % n), "moved");
      link("/missing/" + std::to_string(k), "gone");
      if (disallows(host)) link("/private/" + std::to_string(k), "private");
    }
    link("/", "home");
    body += "</body></html>";
    return 200;
  }

  const Options& o_;
  std::vector<std::uint64_t> sizes_;

 public:
  int port_ = 0;
};

struct Server {
  asio::io_context io{1};
  Options o;
  std::unique_ptr<Web> web;
  std::vector<std::unique_ptr<tcp::acceptor>> acceptors;
  Clock::time_point start = Clock::now();
  std::string log_buffer;
  int log_fd = -1;
  std::uint64_t requests = 0;
  bool stopping = false;

  double now() const { return std::chrono::duration<double>(Clock::now() - start).count(); }
  void flush_log() {
    if (log_fd < 0 || log_buffer.empty()) return;
    std::size_t at = 0;
    while (at < log_buffer.size()) {
      const ssize_t n = ::write(log_fd, log_buffer.data() + at, log_buffer.size() - at);
      if (n <= 0) break;
      at += static_cast<std::size_t>(n);
    }
    log_buffer.clear();
  }
  void stop() {
    if (stopping) return;
    stopping = true;
    flush_log();
    io.stop();
  }
};

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(Server& s, tcp::socket socket, int host)
      : s_(s), socket_(std::move(socket)), host_(host), timer_(s.io) {}
  void start() { read(); }

 private:
  void read() {
    // A request whose head is complete is answered before more is read (no pipelining).
    const std::size_t end = buffer_.find("\r\n\r\n");
    if (end != std::string::npos) return handle(end + 4);
    if (buffer_.size() > 65536) return;  // not HTTP: drop the connection
    auto self = shared_from_this();
    socket_.async_read_some(asio::buffer(chunk_),
                            [this, self](boost::system::error_code ec, std::size_t n) {
                              if (ec) return;
                              buffer_.append(chunk_, n);
                              read();
                            });
  }
  void handle(std::size_t head_end) {
    const double arrival = s_.now();
    const std::string_view head(buffer_.data(), head_end);
    const std::size_t sp1 = head.find(' '), sp2 = head.find(' ', sp1 + 1);
    std::string path(sp1 == std::string_view::npos || sp2 == std::string_view::npos
                         ? std::string_view("/")
                         : head.substr(sp1 + 1, sp2 - sp1 - 1));
    if (const std::size_t q = path.find('?'); q != std::string::npos) path.resize(q);
    close_ = head.find("\r\nConnection: close") != std::string_view::npos ||
             head.find("\r\nconnection: close") != std::string_view::npos ||
             head.find(" HTTP/1.0\r\n") != std::string_view::npos;
    buffer_.erase(0, head_end);
    std::string fields, body;
    const int status = s_.web->answer(host_, path, fields, body);
    const char* reason = status == 200 ? "OK" : status == 301 ? "Moved Permanently" : "Not Found";
    out_ = "HTTP/1.1 " + std::to_string(status) + " " + reason + "\r\n" + fields +
           "Content-Length: " + std::to_string(body.size()) + "\r\n" +
           (close_ ? "Connection: close\r\n" : "") + "\r\n" + body;
    const double wait = s_.o.latency_ms * (s_.web->slow(host_) ? s_.o.slow_factor : 1) / 1000;
    auto self = shared_from_this();
    timer_.expires_after(std::chrono::microseconds(static_cast<std::int64_t>(wait * 1e6)));
    timer_.async_wait([this, self, arrival, status, path](boost::system::error_code) {
      // The answer's time is taken before it is written: the crawler cannot have read it
      // sooner. (Taken in the write's handler, it came a fraction of a millisecond after the
      // crawler had the answer on a loaded machine, and a polite crawler looked too early.)
      const double done = s_.now();
      asio::async_write(
          socket_, asio::buffer(out_),
          [this, self, arrival, done, status, path](boost::system::error_code ec, std::size_t) {
            log(arrival, done, status, path);
            if (ec || close_) return;
            read();
          });
    });
  }
  void log(double arrival, double done, int status, const std::string& path) {
    char line[64];
    std::snprintf(line, sizeof line, "%.6f\t%.6f\t%d\t%d\t", arrival, done, host_, status);
    s_.log_buffer += line;
    s_.log_buffer += path;
    s_.log_buffer += '\n';
    if (s_.log_buffer.size() > (1 << 20)) s_.flush_log();
    if (s_.o.max_requests && ++s_.requests >= s_.o.max_requests) s_.stop();
  }

  Server& s_;
  tcp::socket socket_;
  int host_;
  asio::steady_timer timer_;
  std::string buffer_, out_;
  char chunk_[4096];
  bool close_ = false;
};

void accept(Server& s, tcp::acceptor& a, int host) {
  a.async_accept([&s, &a, host](boost::system::error_code ec, tcp::socket socket) {
    if (!ec) {
      socket.set_option(tcp::no_delay(true), ec);
      std::make_shared<Connection>(s, std::move(socket), host)->start();
    }
    if (ec != asio::error::operation_aborted) accept(s, a, host);
  });
}

void every_second(Server& s, asio::steady_timer& t) {
  t.expires_after(std::chrono::seconds(1));
  t.async_wait([&s, &t](boost::system::error_code ec) {
    if (ec) return;
    s.flush_log();
    if (s.o.max_seconds > 0 && s.now() >= s.o.max_seconds) return s.stop();
    every_second(s, t);
  });
}

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "simweb: %s\nusage: simweb [--hosts N] [--pages N] [--zipf A] [--head-offset Q] "
               "[--links N] [--words N] [--latency-ms MS] [--slow-factor F] [--crawl-delay S] "
               "[--port P] [--log FILE] [--max-requests N] [--max-seconds S] [--sizes]\n",
               why);
  std::exit(2);
}

void help() {
  std::printf(
      "simweb: a simulated web of many hosts on 127.1.0.1 + i, one port for all; prints the port\n"
      "once every host listens (bench/simweb/simweb.cpp says what each host serves)\n\n"
      "  --hosts N          hosts (1000)\n"
      "  --pages N          pages over all hosts, by a power law (100000)\n"
      "  --zipf A           the law's exponent (1.0)\n"
      "  --head-offset Q    flattens the largest hosts (hosts / 10)\n"
      "  --links N          links of a page to others of its host, besides the tree (5)\n"
      "  --words N          words of text a page (80)\n"
      "  --latency-ms MS    wait before every answer (100)\n"
      "  --slow-factor F    slow hosts wait F times as long (5)\n"
      "  --crawl-delay S    the Crawl-delay of the hosts whose robots.txt has one (0.5)\n"
      "  --port P           the port (0: the kernel chooses)\n"
      "  --log FILE         one line per request: arrival, answer time, host, status, path\n"
      "  --max-requests N   stop after N requests (0: never)\n"
      "  --max-seconds S    stop after S seconds (0: never)\n"
      "  --sizes            print the total, then each host's page count, and exit\n\n"
      "Seeds for a crawl: http://127.1.0.(1 + i):PORT/ for i < hosts. Stop it with SIGTERM.\n");
  std::exit(0);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") help();
    if (a == "--sizes") {
      o.sizes = true;
      continue;
    }
    if (i + 1 >= argc) usage(("no value for " + a).c_str());
    const char* v = argv[++i];
    if (a == "--hosts")
      o.hosts = std::atoi(v);
    else if (a == "--pages")
      o.pages = std::strtoull(v, nullptr, 10);
    else if (a == "--zipf")
      o.zipf = std::atof(v);
    else if (a == "--head-offset")
      o.head_offset = std::atof(v);
    else if (a == "--links")
      o.links = std::atoi(v);
    else if (a == "--words")
      o.words = std::atoi(v);
    else if (a == "--latency-ms")
      o.latency_ms = std::atof(v);
    else if (a == "--slow-factor")
      o.slow_factor = std::atof(v);
    else if (a == "--crawl-delay")
      o.crawl_delay = std::atof(v);
    else if (a == "--port")
      o.port = std::atoi(v);
    else if (a == "--log")
      o.log = v;
    else if (a == "--max-requests")
      o.max_requests = std::strtoull(v, nullptr, 10);
    else if (a == "--max-seconds")
      o.max_seconds = std::atof(v);
    else
      usage(("unknown option " + a).c_str());
  }
  if (o.hosts < 1 || o.hosts > 65000) usage("--hosts must be 1 to 65000");
  if (o.pages < 1) usage("--pages must be at least 1");
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  Server s;
  s.o = parse(argc, argv);
  s.web = std::make_unique<Web>(s.o);
  if (s.o.sizes) {
    std::uint64_t total = 0;
    for (int i = 0; i < s.o.hosts; ++i) total += s.web->size(i);
    std::printf("hosts %d pages %llu largest %llu smallest %llu\n", s.o.hosts,
                static_cast<unsigned long long>(total),
                static_cast<unsigned long long>(s.web->size(0)),
                static_cast<unsigned long long>(s.web->size(s.o.hosts - 1)));
    for (int i = 0; i < s.o.hosts; ++i)
      std::printf("%llu%c", static_cast<unsigned long long>(s.web->size(i)),
                  i + 1 == s.o.hosts ? '\n' : ' ');
    return 0;
  }
  if (!s.o.log.empty()) {
    s.log_fd = ::open(s.o.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (s.log_fd < 0) usage(("cannot write " + s.o.log + ": " + std::strerror(errno)).c_str());
  }
  int port = s.o.port;
  for (int i = 0; i < s.o.hosts; ++i) {
    const tcp::endpoint ep(asio::ip::make_address(Web::address(i)),
                           static_cast<unsigned short>(port));
    auto a = std::make_unique<tcp::acceptor>(s.io);
    boost::system::error_code ec;
    a->open(ep.protocol(), ec);
    if (!ec) a->set_option(tcp::acceptor::reuse_address(true), ec);
    if (!ec) a->bind(ep, ec);
    if (!ec) a->listen(4096, ec);
    if (ec) {
      std::fprintf(stderr, "simweb: cannot listen on %s:%d: %s\n", Web::address(i).c_str(), port,
                   ec.message().c_str());
      return 1;
    }
    if (port == 0) port = a->local_endpoint().port();
    accept(s, *a, i);
    s.acceptors.push_back(std::move(a));
  }
  s.web->port_ = port;
  asio::signal_set signals(s.io, SIGTERM, SIGINT);
  signals.async_wait([&s](boost::system::error_code, int) { s.stop(); });
  asio::steady_timer tick(s.io);
  every_second(s, tick);
  std::printf("%d\n", port);
  std::fflush(stdout);
  s.io.run();
  s.flush_log();
  return 0;
}
