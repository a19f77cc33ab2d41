#include "crawl/fetcher.hpp"

#include <strings.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <optional>

#include "crawl/curl_library.hpp"
#include "webrank/util/error.hpp"

namespace webrank::crawl {
namespace {

struct Transfer {
  CURL* easy = nullptr;
  FetchResult result;
  std::uint64_t max_bytes = 0;
  std::vector<std::string> headers;      // of the last response
  curl_slist* request_fields = nullptr;  // extra request fields (owned)
  Transfer() = default;
  Transfer(const Transfer&) = delete;
  Transfer& operator=(const Transfer&) = delete;
  ~Transfer() {  // after the easy handle that used them
    if (request_fields) curl().slist_free_all(request_fields);
  }
  std::chrono::steady_clock::time_point start;
};

std::size_t on_body(char* data, std::size_t size, std::size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const std::size_t bytes = size * n;
  const std::size_t room =
      t->max_bytes - std::min<std::uint64_t>(t->max_bytes, t->result.body.size());
  if (bytes > room) {
    t->result.body.append(data, room);
    t->result.truncated = true;
    return 0;  // stops the transfer (CURLE_WRITE_ERROR, treated as success below)
  }
  t->result.body.append(data, bytes);
  return bytes;
}

std::size_t on_header(char* data, std::size_t size, std::size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  std::string line(data, size * n);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  if (line.starts_with("HTTP/")) t->headers.clear();  // a new response (after 100 Continue)
  if (!line.empty()) t->headers.push_back(std::move(line));
  return size * n;
}

bool header_is(const std::string& line, const char* name) {
  const std::size_t n = std::strlen(name);
  return line.size() > n && line[n] == ':' && strncasecmp(line.data(), name, n) == 0;
}

std::string header_value(const std::string& line) {
  std::size_t i = line.find(':') + 1;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  return line.substr(i);
}

}  // namespace

// Transfers are driven by libcurl's socket interface over epoll: each wait costs the sockets
// that are ready, not every transfer in flight (curl_multi_poll and curl_multi_perform walk all
// of them on every call, which dominated the loop with hundreds of connections).
struct Fetcher::Impl {
  FetcherOptions o;
  CURLM* multi = nullptr;
  int epoll_fd = -1, wake_fd = -1;
  // libcurl's timer: when it wants curl_multi_socket_action(CURL_SOCKET_TIMEOUT) called.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  std::map<CURL*, std::unique_ptr<Transfer>> transfers;
  // Handles of ended transfers, reset for the next ones: a new handle costs a few kilobytes of
  // allocations, which were a tenth of the transfer thread's time.
  std::vector<CURL*> idle;
  // Connections open (in use or kept by libcurl for reuse), and how many may be kept idle.
  std::size_t open_sockets = 0, keep_idle = 0;

  static curl_socket_t on_open(void* user, curlsocktype, curl_sockaddr* a) {
    const curl_socket_t s = ::socket(a->family, a->socktype | SOCK_CLOEXEC, a->protocol);
    if (s != CURL_SOCKET_BAD) ++static_cast<Impl*>(user)->open_sockets;
    return s;
  }
  static int on_close(void* user, curl_socket_t s) {
    --static_cast<Impl*>(user)->open_sockets;
    return ::close(s);
  }

  static int on_socket(CURL*, curl_socket_t s, int what, void* user, void*) {
    auto* self = static_cast<Impl*>(user);
    if (what == CURL_POLL_REMOVE) {
      ::epoll_ctl(self->epoll_fd, EPOLL_CTL_DEL, s, nullptr);
      return 0;
    }
    epoll_event ev{};
    ev.events = ((what & CURL_POLL_IN) ? EPOLLIN : 0u) | ((what & CURL_POLL_OUT) ? EPOLLOUT : 0u);
    ev.data.fd = s;
    if (::epoll_ctl(self->epoll_fd, EPOLL_CTL_MOD, s, &ev) != 0 && errno == ENOENT)
      ::epoll_ctl(self->epoll_fd, EPOLL_CTL_ADD, s, &ev);
    return 0;
  }
  static int on_timer(CURLM*, long timeout_ms, void* user) {
    auto* self = static_cast<Impl*>(user);
    if (timeout_ms < 0) {
      self->deadline.reset();
    } else {
      self->deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    }
    return 0;
  }
};

Fetcher::Fetcher(FetcherOptions o) : impl_(std::make_unique<Impl>()) {
  impl_->o = std::move(o);
  impl_->multi = curl().multi_init();
  if (!impl_->multi) fail(ErrorKind::kInternal, "crawl: cannot initialize libcurl");
  impl_->epoll_fd = ::epoll_create1(EPOLL_CLOEXEC);
  impl_->wake_fd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (impl_->epoll_fd < 0 || impl_->wake_fd < 0)
    fail(ErrorKind::kIo, "crawl: cannot create an event loop: ", std::strerror(errno));
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.fd = impl_->wake_fd;
  ::epoll_ctl(impl_->epoll_fd, EPOLL_CTL_ADD, impl_->wake_fd, &ev);
  CURLM* m = impl_->multi;
  // Transfers in flight are capped by the caller (max_connections); connections are kept open
  // after their transfers, for the next fetch of their host, up to four times as many (within
  // half the process's file descriptors). libcurl's own caps would make it look through every
  // connection it holds for one to close on each new one (a linear scan measured at a seventh
  // of the transfer thread's time with 1,000 connections) whenever the hosts outnumber them.
  rlimit files{};
  const long fd_room = ::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY
                           ? static_cast<long>(files.rlim_cur / 2)
                           : 4096;
  const long cap = std::max(static_cast<long>(impl_->o.max_connections),
                            std::min(4L * impl_->o.max_connections, fd_room));
  curl().multi_setopt(m, CURLMOPT_MAXCONNECTS, cap);
  // Past its cap libcurl looks through every connection it keeps for the oldest to close, on
  // every transfer's end: with 10,000 hosts (more than it may keep) that scan took two thirds
  // of the transfer thread. So fewer are kept than the cap: a transfer whose connection would
  // go past keep_idle, or whose host has nothing more queued, closes it when it ends.
  impl_->keep_idle = static_cast<std::size_t>(
      std::max(cap - static_cast<long>(impl_->o.max_connections), cap / 2));
  curl().multi_setopt(m, CURLMOPT_SOCKETFUNCTION, &Impl::on_socket);
  curl().multi_setopt(m, CURLMOPT_SOCKETDATA, impl_.get());
  curl().multi_setopt(m, CURLMOPT_TIMERFUNCTION, &Impl::on_timer);
  curl().multi_setopt(m, CURLMOPT_TIMERDATA, impl_.get());
}

Fetcher::~Fetcher() {
  abort_all();
  for (CURL* e : impl_->idle) curl().easy_cleanup(e);
  curl().multi_cleanup(impl_->multi);
  ::close(impl_->epoll_fd);
  ::close(impl_->wake_fd);
}

void Fetcher::start(const std::string& url, std::uint64_t tag,
                    const std::vector<std::string>& fields, bool keep) {
  auto t = std::make_unique<Transfer>();
  t->result.tag = tag;
  t->result.url = url;
  t->max_bytes = impl_->o.max_bytes;
  t->start = std::chrono::steady_clock::now();
  CURL* e = nullptr;
  if (!impl_->idle.empty()) {
    e = impl_->idle.back();
    impl_->idle.pop_back();
  } else {
    e = curl().easy_init();
    if (!e) fail(ErrorKind::kInternal, "crawl: cannot create a libcurl handle");
  }
  t->easy = e;
  curl().easy_setopt(e, CURLOPT_URL, url.c_str());
  curl().easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
  curl().easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl().easy_setopt(e, CURLOPT_USERAGENT, impl_->o.user_agent.c_str());
  curl().easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(impl_->o.timeout * 1000));
  curl().easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(impl_->o.connect_timeout * 1000));
  curl().easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
  // Each host is resolved once a crawl (the multi handle's cache is shared by its transfers) and
  // kept: with an expiry libcurl walks its whole DNS cache on every new connection, a sixteenth
  // of the transfer thread's time with 1,000 hosts.
  curl().easy_setopt(e, CURLOPT_DNS_CACHE_TIMEOUT, -1L);
  curl().easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
  curl().easy_setopt(e, CURLOPT_WRITEDATA, t.get());
  curl().easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
  curl().easy_setopt(e, CURLOPT_HEADERDATA, t.get());
  curl().easy_setopt(e, CURLOPT_PRIVATE, t.get());
  curl().easy_setopt(e, CURLOPT_OPENSOCKETFUNCTION, &Impl::on_open);
  curl().easy_setopt(e, CURLOPT_OPENSOCKETDATA, impl_.get());
  curl().easy_setopt(e, CURLOPT_CLOSESOCKETFUNCTION, &Impl::on_close);
  curl().easy_setopt(e, CURLOPT_CLOSESOCKETDATA, impl_.get());
  const std::size_t kept =
      impl_->open_sockets - std::min(impl_->open_sockets, impl_->transfers.size());
  if (!keep || kept >= impl_->keep_idle) curl().easy_setopt(e, CURLOPT_FORBID_REUSE, 1L);
  for (const std::string& f : fields) {
    if (curl_slist* l = curl().slist_append(t->request_fields, f.c_str())) t->request_fields = l;
  }
  if (t->request_fields) curl().easy_setopt(e, CURLOPT_HTTPHEADER, t->request_fields);
  curl().multi_add_handle(impl_->multi, e);
  impl_->transfers.emplace(e, std::move(t));
}

std::vector<FetchResult> Fetcher::poll(int wait_ms) {
  std::vector<FetchResult> done;
  int running = 0;
  Impl& im = *impl_;
  int wait = std::max(0, wait_ms);
  if (im.deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        *im.deadline - std::chrono::steady_clock::now());
    wait = std::clamp(static_cast<int>(left.count()), 0, wait);
  }
  epoll_event events[256];
  const int n = ::epoll_wait(im.epoll_fd, events, 256, wait);
  for (int i = 0; i < n; ++i) {
    const int fd = events[i].data.fd;
    if (fd == im.wake_fd) {
      std::uint64_t count = 0;
      if (::read(im.wake_fd, &count, sizeof count) < 0) errno = 0;  // EAGAIN: already drained
      continue;
    }
    const std::uint32_t e = events[i].events;
    const int flags = ((e & EPOLLIN) ? CURL_CSELECT_IN : 0) |
                      ((e & EPOLLOUT) ? CURL_CSELECT_OUT : 0) |
                      ((e & (EPOLLERR | EPOLLHUP)) ? CURL_CSELECT_ERR : 0);
    curl().multi_socket_action(im.multi, fd, flags, &running);
  }
  if (im.deadline && *im.deadline <= std::chrono::steady_clock::now()) {
    im.deadline.reset();  // the call below sets the next one
    curl().multi_socket_action(im.multi, CURL_SOCKET_TIMEOUT, 0, &running);
  }
  int left = 0;
  while (CURLMsg* m = curl().multi_info_read(impl_->multi, &left)) {
    if (m->msg != CURLMSG_DONE) continue;
    CURL* e = m->easy_handle;
    auto it = impl_->transfers.find(e);
    if (it == impl_->transfers.end()) continue;
    Transfer& t = *it->second;
    FetchResult r = std::move(t.result);
    const CURLcode code = m->data.result;
    long status = 0;
    curl().easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
    r.status = static_cast<int>(status);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t.start).count();
    if (code != CURLE_OK && !(code == CURLE_WRITE_ERROR && r.truncated)) {
      r.error = curl().easy_strerror(code);
    } else if (status == 0) {
      r.error = "no HTTP response";
    }
    for (const std::string& h : t.headers) {
      if (header_is(h, "Transfer-Encoding")) continue;
      if (header_is(h, "Content-Type") && r.content_type.empty()) r.content_type = header_value(h);
      if (header_is(h, "Location") && r.location.empty()) r.location = header_value(h);
      r.header_block += h + "\r\n";
    }
    curl().multi_remove_handle(impl_->multi, e);
    curl().easy_reset(e);
    impl_->idle.push_back(e);
    impl_->transfers.erase(it);  // its request fields after the handle let go of them
    done.push_back(std::move(r));
  }
  return done;
}

void Fetcher::wakeup() {
  const std::uint64_t one = 1;
  if (::write(impl_->wake_fd, &one, sizeof one) < 0) errno = 0;  // the counter is full: awake
}

std::size_t Fetcher::active() const {
  return impl_->transfers.size();
}

void Fetcher::abort_all() {
  for (auto& [e, t] : impl_->transfers) {
    curl().multi_remove_handle(impl_->multi, e);
    curl().easy_cleanup(e);
  }
  impl_->transfers.clear();
}

}  // namespace webrank::crawl
