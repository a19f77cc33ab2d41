#include "crawl/frontier.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>

#include "webrank/util/error.hpp"

#include "web/url.hpp"

namespace webrank::crawl {
namespace {

bool session_param(std::string_view name) {
  std::string n(name);
  for (char& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return n == "sid" || n == "sessionid" || n == "jsessionid" || n == "phpsessid" ||
         n == "session_id" || n == "sessid" || n == "session";
}

// The URL without session-id parameters (query and ;jsessionid path parameters); equal to the
// URL when it has none.
std::string without_session(const std::string& url) {
  std::string r = url;
  if (const std::size_t j = r.find(";jsessionid="); j != std::string::npos) {
    const std::size_t end = r.find_first_of("?#/", j + 1);
    r.erase(j, end == std::string::npos ? std::string::npos : end - j);
  }
  const std::size_t q = r.find('?');
  if (q == std::string::npos) return r;
  std::string query = r.substr(q + 1), kept;
  std::size_t i = 0;
  while (i <= query.size()) {
    std::size_t amp = query.find('&', i);
    if (amp == std::string::npos) amp = query.size();
    const std::string param = query.substr(i, amp - i);
    const std::string name = param.substr(0, param.find('='));
    if (!param.empty() && !session_param(name)) kept += (kept.empty() ? "" : "&") + param;
    i = amp + 1;
  }
  return r.substr(0, q) + (kept.empty() ? "" : "?" + kept);
}

std::uint64_t hash_of(std::string_view s) {
  const std::uint64_t h = std::hash<std::string_view>{}(s);
  return h ? h : 1;  // 0 marks an empty slot of the seen set
}

// A queued URL in the spill file: its fields, then its bytes.
struct SpilledItem {
  std::uint32_t url_bytes;
  std::int32_t depth, redirects, attempts, shape_depth;
  std::uint64_t shape;
};

}  // namespace

const char* to_string(AddResult r) {
  switch (r) {
    case AddResult::kQueued:
      return "queued";
    case AddResult::kSeen:
      return "seen";
    case AddResult::kOutOfScope:
      return "out of scope";
    case AddResult::kTooDeep:
      return "too deep";
    case AddResult::kTooLong:
      return "URL too long";
    case AddResult::kTrap:
      return "trap";
    case AddResult::kUnusable:
      return "unusable URL";
  }
  return "?";
}

std::string host_key(const std::string& url) {
  const std::optional<web::Url> u = web::parse_url(url);
  return u ? u->origin() : "";
}

std::uint64_t shape_of(std::string_view url) {
  // The scheme, host and port as they are: numbered hosts (127.1.0.7, www2, ...) are different
  // sites, not one shape.
  const std::size_t scheme = url.find("://");
  const std::size_t rest = scheme == std::string_view::npos
                               ? 0
                               : std::min(url.size(), url.find_first_of("/?#", scheme + 3));
  std::string s(url.substr(0, rest));
  bool digits = false;
  for (std::size_t i = rest; i < url.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(url[i]))) {
      digits = true;
      s += '0';
      while (i + 1 < url.size() && std::isdigit(static_cast<unsigned char>(url[i + 1]))) ++i;
    } else {
      s += url[i];
    }
  }
  return digits ? hash_of(s) : 0;
}

Frontier::Frontier(FrontierOptions o) : o_(std::move(o)), seen_(std::size_t{1} << 16, 0) {}

Frontier::~Frontier() {
  if (spill_fd_ >= 0) {
    ::close(spill_fd_);
    std::error_code ec;
    std::filesystem::remove(spill_path_, ec);
  }
}

bool Frontier::insert_seen(std::uint64_t h) {
  if (4 * (seen_count_ + 1) > 3 * seen_.size()) {  // grow at 3/4 full
    std::vector<std::uint64_t> old(seen_.size() * 2, 0);
    old.swap(seen_);
    seen_count_ = 0;
    for (std::uint64_t x : old)
      if (x) insert_seen(x);
  }
  const std::size_t mask = seen_.size() - 1;
  for (std::size_t i = h & mask;; i = (i + 1) & mask) {
    if (seen_[i] == h) return false;
    if (seen_[i] == 0) {
      seen_[i] = h;
      ++seen_count_;
      return true;
    }
  }
}

bool Frontier::contains_seen(std::uint64_t h) const {
  const std::size_t mask = seen_.size() - 1;
  for (std::size_t i = h & mask;; i = (i + 1) & mask) {
    if (seen_[i] == h) return true;
    if (seen_[i] == 0) return false;
  }
}

bool Frontier::seen(const std::string& url) const {
  return contains_seen(hash_of(url));
}

bool Frontier::in_scope(const std::string& url) const {
  if (o_.prefixes.empty() && o_.hosts.empty()) return true;
  const std::optional<web::Url> u = web::parse_url(url);
  const std::string host = u ? u->authority() : "";
  for (const auto& p : o_.prefixes) {
    if (url.starts_with(p)) return true;
  }
  for (const auto& h : o_.hosts) {
    if (host == h) return true;
  }
  return false;
}

bool Frontier::trapped(const std::string& url, const web::Url& u, FrontierItem& item) {
  // Repeating path segments and absurd depth.
  std::map<std::string_view, int> counts;
  int segments = 0;
  std::string_view path = u.path;
  std::size_t i = 1;
  while (i < path.size()) {
    std::size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    if (j > i) {
      ++segments;
      if (++counts[path.substr(i, j - i)] > o_.max_segment_repeats) return true;
    }
    i = j + 1;
  }
  if (segments > o_.max_path_segments) return true;
  // Session ids: the same page again under a fresh id.
  const std::string plain = without_session(url);
  if (plain != url && !insert_seen(hash_of(plain))) return true;
  return count_variants(u, item);
}

bool Frontier::count_variants(const web::Url& u, FrontierItem& item) {
  if (u.has_query && ++query_variants_[hash_of(u.origin() + u.path)] >
                         static_cast<std::uint32_t>(o_.max_query_variants))
    return true;
  if (item.shape == 0) return false;
  const std::uint32_t n = ++shape_variants_[item.shape];
  if (n <= static_cast<std::uint32_t>(o_.max_shape_variants)) return false;
  return item.shape_depth > 2 * std::log2(static_cast<double>(n));
}

std::uint32_t Frontier::host_id(const std::string& host) {
  const auto [it, added] = host_ids_.try_emplace(host, static_cast<std::uint32_t>(hosts_.size()));
  if (added) {
    hosts_.emplace_back();
    hosts_.back().name = host;
  }
  return it->second;
}

std::size_t Frontier::queued(const std::string& host) const {
  const auto it = host_ids_.find(host);
  return it == host_ids_.end() ? 0 : hosts_[it->second].count;
}

AddResult Frontier::add(const std::string& url, int depth, int redirects,
                        const FrontierItem* from) {
  if (!insert_seen(hash_of(url))) return AddResult::kSeen;
  if (url.size() > o_.max_url_length) return AddResult::kTooLong;
  if (depth > o_.max_depth) return AddResult::kTooDeep;
  if (!in_scope(url)) return AddResult::kOutOfScope;
  const std::optional<web::Url> u = web::parse_url(url);
  FrontierItem item{url, depth, redirects, 0, 0, shape_of(url)};
  if (from && item.shape != 0 && from->shape == item.shape)
    item.shape_depth = from->shape_depth + 1;
  if (!u || trapped(url, *u, item)) {
    ++trapped_;
    return AddResult::kTrap;
  }
  const std::uint32_t id = host_id(u->origin());
  push(hosts_[id], std::move(item));
  ++queued_;
  schedule(id);
  return AddResult::kQueued;
}

void Frontier::mark_seen(const std::string& url) {
  if (!insert_seen(hash_of(url))) return;
  // Counted as add() counted it before the interruption, so that a resumed crawl stops at the
  // same trap limits as an uninterrupted one.
  if (const std::optional<web::Url> u = web::parse_url(url)) {
    FrontierItem item;
    item.shape = shape_of(url);
    count_variants(*u, item);
  }
  const std::string plain = without_session(url);
  if (plain != url) insert_seen(hash_of(plain));
}

void Frontier::push(Host& h, FrontierItem item, bool front) {
  memory_ += cost(item);
  ++h.count;
  if (front) {
    h.queue.push_front(std::move(item));
  } else if (h.chunks.empty()) {  // nothing on disk: the tail is empty too
    h.queue.push_back(std::move(item));
  } else {
    h.tail.push_back(std::move(item));
  }
  if (!spill_path_.empty() && memory_ > o_.memory) spill();
}

FrontierItem Frontier::pop(Host& h) {
  if (h.queue.empty()) refill(h);
  FrontierItem item = std::move(h.queue.front());
  h.queue.pop_front();
  memory_ -= cost(item);
  --h.count;
  return item;
}

// Writes every host's queued URLs past the first few (enough to keep it busy until the next
// refill) to the end of the spill file, one chunk per host: a host's queue stays in order (its
// memory head, its chunks, its memory tail).
void Frontier::spill() {
  if (spill_fd_ < 0) {
    spill_fd_ = ::open(spill_path_.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (spill_fd_ < 0)
      fail(ErrorKind::kIo, spill_path_.string(), ": cannot create: ", std::strerror(errno));
  }
  const std::size_t keep = static_cast<std::size_t>(std::max(4, 2 * o_.per_host));
  std::string buffer;
  for (Host& h : hosts_) {
    std::vector<FrontierItem> out;
    if (h.chunks.empty()) {
      if (h.queue.size() <= keep) continue;
      out.assign(std::make_move_iterator(h.queue.begin() + static_cast<std::ptrdiff_t>(keep)),
                 std::make_move_iterator(h.queue.end()));
      h.queue.resize(keep);
    } else {
      if (h.tail.empty()) continue;
      out.swap(h.tail);
    }
    buffer.clear();
    for (const FrontierItem& item : out) {
      const SpilledItem s{static_cast<std::uint32_t>(item.url.size()),
                          item.depth,
                          item.redirects,
                          item.attempts,
                          item.shape_depth,
                          item.shape};
      buffer.append(reinterpret_cast<const char*>(&s), sizeof s);
      buffer += item.url;
      memory_ -= cost(item);
    }
    for (std::size_t at = 0; at < buffer.size();) {
      const ssize_t n = ::pwrite(spill_fd_, buffer.data() + at, buffer.size() - at,
                                 static_cast<off_t>(spill_end_ + at));
      if (n <= 0)
        fail(ErrorKind::kIo, spill_path_.string(), ": cannot write: ", std::strerror(errno));
      at += static_cast<std::size_t>(n);
    }
    h.chunks.push_back({spill_end_, buffer.size(), static_cast<std::uint32_t>(out.size())});
    spill_end_ += buffer.size();
    spilled_ += out.size();
    ++live_chunks_;
  }
}

void Frontier::refill(Host& h) {
  if (!h.chunks.empty()) {
    const Chunk c = h.chunks.front();
    h.chunks.pop_front();
    std::string buffer(c.bytes, '\0');
    for (std::size_t at = 0; at < buffer.size();) {
      const ssize_t n = ::pread(spill_fd_, buffer.data() + at, buffer.size() - at,
                                static_cast<off_t>(c.offset + at));
      if (n <= 0)
        fail(ErrorKind::kIo, spill_path_.string(), ": cannot read: ", std::strerror(errno));
      at += static_cast<std::size_t>(n);
    }
    for (std::size_t at = 0; at < buffer.size();) {
      SpilledItem s;
      std::memcpy(&s, buffer.data() + at, sizeof s);
      at += sizeof s;
      FrontierItem item{
          buffer.substr(at, s.url_bytes), s.depth, s.redirects, s.attempts, s.shape_depth, s.shape};
      at += s.url_bytes;
      memory_ += cost(item);
      h.queue.push_back(std::move(item));
    }
    spilled_ -= c.count;
    if (--live_chunks_ == 0) {  // nothing on disk is wanted any more: start the file over
      spill_end_ = 0;
      // Truncating only gives the disk space back: if it fails, the old bytes are overwritten.
      if (::ftruncate(spill_fd_, 0) != 0) errno = 0;
    }
  }
  if (h.chunks.empty()) {
    for (FrontierItem& item : h.tail) h.queue.push_back(std::move(item));
    h.tail.clear();
  }
}

int Frontier::connections(const Host& h) const {
  // A delay is between a fetch's answer and the next request: with a second fetch in flight,
  // the next request could not wait for its answer.
  return (h.delay >= 0 ? h.delay : o_.delay) > 0 ? 1 : o_.per_host;
}

void Frontier::schedule(std::uint32_t id) {
  Host& h = hosts_[id];
  if (h.scheduled || h.held || h.count == 0 || h.active >= connections(h)) return;
  h.scheduled = true;
  due_.push({h.ready, id});
}

void Frontier::retry(FrontierItem item, Clock::time_point not_before) {
  retries_.emplace(not_before, std::move(item));
  ++queued_;
}

void Frontier::set_delay(const std::string& host, double seconds) {
  hosts_[host_id(host)].delay = std::min(seconds, 30.0);
}

void Frontier::set_spill_file(std::filesystem::path file) {
  spill_path_ = std::move(file);
}

void Frontier::release(const std::string& host) {
  const std::uint32_t id = host_id(host);
  Host& h = hosts_[id];
  if (h.active > 0) --h.active;
  if (in_flight_ > 0) --in_flight_;
  schedule(id);
}

void Frontier::unhold(const std::string& host) {
  const std::uint32_t id = host_id(host);
  hosts_[id].held = false;
  schedule(id);
}

std::optional<FrontierItem> Frontier::next(Clock::time_point now,
                                           const std::function<bool(const std::string&)>& host_ok) {
  // Retries whose back-off has passed go back to the front of their host's queue.
  while (!retries_.empty() && retries_.begin()->first <= now) {
    FrontierItem item = std::move(retries_.begin()->second);
    retries_.erase(retries_.begin());
    const std::uint32_t id = host_id(host_key(item.url));
    push(hosts_[id], std::move(item), /*front=*/true);
    schedule(id);
  }
  while (!due_.empty() && due_.top().at <= now) {
    runnable_.push_back(due_.top().host);
    due_.pop();
  }
  while (!runnable_.empty()) {
    const std::uint32_t id = runnable_.front();
    runnable_.pop_front();
    Host& h = hosts_[id];
    h.scheduled = false;
    if (h.ready > now) {  // its delay grew while it waited (a fetch of it ended)
      schedule(id);
      continue;
    }
    if (h.count == 0 || h.active >= connections(h)) continue;  // done() schedules it again
    if (host_ok && !host_ok(h.name)) {
      h.held = true;
      continue;
    }
    FrontierItem item = pop(h);
    ++h.active;
    --queued_;
    ++in_flight_;
    schedule(id);  // its next turn comes after every other host due now
    return item;
  }
  return std::nullopt;
}

void Frontier::done(const std::string& host, Clock::time_point now) {
  const std::uint32_t id = host_id(host);
  Host& h = hosts_[id];
  if (h.active > 0) --h.active;
  if (in_flight_ > 0) --in_flight_;
  fetched(host, now);
  schedule(id);
}

void Frontier::fetched(const std::string& host, Clock::time_point now) {
  Host& h = hosts_[host_id(host)];
  const double d = h.delay >= 0 ? h.delay : o_.delay;
  h.ready = std::max(h.ready, now + std::chrono::microseconds(static_cast<std::int64_t>(d * 1e6)));
}

std::optional<Clock::time_point> Frontier::next_ready() const {
  std::optional<Clock::time_point> best;
  if (!runnable_.empty()) best = Clock::time_point{};
  if (!due_.empty() && (!best || due_.top().at < *best)) best = due_.top().at;
  if (!retries_.empty() && (!best || retries_.begin()->first < *best))
    best = retries_.begin()->first;
  return best;
}

}  // namespace webrank::crawl
