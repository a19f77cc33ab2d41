#include "crawl/frontier.hpp"

#include <algorithm>
#include <cctype>

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

std::string shape(const std::string& url) {
  std::string s;
  s.reserve(url.size());
  for (std::size_t i = 0; i < url.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(url[i]))) {
      s += '0';
      while (i + 1 < url.size() && std::isdigit(static_cast<unsigned char>(url[i + 1]))) ++i;
    } else {
      s += url[i];
    }
  }
  return s;
}

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

Frontier::Frontier(FrontierOptions o) : o_(std::move(o)) {}

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

bool Frontier::trapped(const std::string& url) {
  const std::optional<web::Url> u = web::parse_url(url);
  if (!u) return true;
  // Repeating path segments and absurd depth.
  std::map<std::string_view, int> counts;
  int segments = 0;
  std::string_view path = u->path;
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
  if (plain != url) {
    if (seen_.count(plain)) return true;
    seen_.insert(plain);
  }
  return count_variants(url, *u);
}

bool Frontier::count_variants(const std::string& url, const web::Url& u) {
  if (u.has_query && ++query_variants_[u.origin() + u.path] > o_.max_query_variants) return true;
  if (++shape_variants_[shape(url)] > o_.max_shape_variants) return true;
  return false;
}

AddResult Frontier::add(const std::string& url, int depth, int redirects) {
  if (!seen_.insert(url).second) return AddResult::kSeen;
  if (url.size() > o_.max_url_length) return AddResult::kTooLong;
  if (depth > o_.max_depth) return AddResult::kTooDeep;
  if (!in_scope(url)) return AddResult::kOutOfScope;
  const std::string host = host_key(url);
  if (trapped(url)) {
    ++trapped_;
    return AddResult::kTrap;
  }
  Host& h = hosts_[host];
  if (h.queue.empty() && h.active == 0 &&
      std::find(order_.begin(), order_.end(), host) == order_.end())
    order_.push_back(host);
  h.queue.push_back({url, depth, redirects, 0});
  ++queued_;
  return AddResult::kQueued;
}

void Frontier::mark_seen(const std::string& url) {
  if (!seen_.insert(url).second) return;
  // Counted as add() counted it before the interruption, so that a resumed crawl stops at the
  // same trap limits as an uninterrupted one.
  if (const std::optional<web::Url> u = web::parse_url(url)) count_variants(url, *u);
  const std::string plain = without_session(url);
  if (plain != url) seen_.insert(plain);
}

void Frontier::retry(FrontierItem item, Clock::time_point not_before) {
  retries_.emplace(not_before, std::move(item));
  ++queued_;
}

void Frontier::set_delay(const std::string& host, double seconds) {
  hosts_[host].delay = std::min(seconds, 30.0);
}

void Frontier::release(const std::string& host) {
  Host& h = hosts_[host];
  if (h.active > 0) --h.active;
  if (in_flight_ > 0) --in_flight_;
}

std::optional<FrontierItem> Frontier::next(Clock::time_point now,
                                           const std::function<bool(const std::string&)>& host_ok) {
  // Retries whose back-off has passed go back to the front of their host's queue.
  while (!retries_.empty() && retries_.begin()->first <= now) {
    FrontierItem item = std::move(retries_.begin()->second);
    retries_.erase(retries_.begin());
    const std::string host = host_key(item.url);
    if (std::find(order_.begin(), order_.end(), host) == order_.end()) order_.push_back(host);
    hosts_[host].queue.push_front(std::move(item));
  }
  for (std::size_t k = 0; k < order_.size(); ++k) {
    const std::size_t idx = (turn_ + k) % order_.size();
    Host& h = hosts_[order_[idx]];
    if (h.queue.empty() || h.active >= o_.per_host || h.ready > now) continue;
    if (host_ok && !host_ok(order_[idx])) continue;
    FrontierItem item = std::move(h.queue.front());
    h.queue.pop_front();
    ++h.active;
    --queued_;
    ++in_flight_;
    turn_ = idx + 1;
    return item;
  }
  return std::nullopt;
}

void Frontier::done(const std::string& host, Clock::time_point now) {
  Host& h = hosts_[host];
  if (h.active > 0) --h.active;
  if (in_flight_ > 0) --in_flight_;
  const double d = h.delay >= 0 ? h.delay : o_.delay;
  h.ready = now + std::chrono::microseconds(static_cast<std::int64_t>(d * 1e6));
}

std::optional<Clock::time_point> Frontier::next_ready() const {
  std::optional<Clock::time_point> best;
  for (const auto& [name, h] : hosts_) {
    if (!h.queue.empty() && (!best || h.ready < *best)) best = h.ready;
  }
  if (!retries_.empty() && (!best || retries_.begin()->first < *best))
    best = retries_.begin()->first;
  return best;
}

}  // namespace webrank::crawl
