// The crawl frontier: the URLs seen so far, the ones waiting to be fetched in one queue per
// host, per-host politeness, and the scope, limit and trap rules that decide what is fetched.
//
// Contract:
// - add() takes a normalized URL once (the seen set); it is queued only when it is in scope
//   (a URL prefix of `prefixes`, or a host of `hosts`; both empty = everything), within
//   max_depth and max_url_length, and not caught by a trap heuristic. Every URL offered is a
//   page of the web whether it is fetched or not; add() says why it was not queued.
// - Trap heuristics: a path segment repeated more than max_segment_repeats times or a path of
//   more than max_path_segments segments (/a/a/a/..., symlink loops); more than
//   max_query_variants distinct queries on one host+path (endless query variants, sorting and
//   filter combinations); more than max_shape_variants URLs of one "shape" (the URL with every
//   run of digits replaced by 0: calendars, pagination, numbered archives); a query parameter
//   that looks like a session id (sid, sessionid, jsessionid, phpsessid, session_id, sessid, or
//   a ;jsessionid= path parameter) on a URL whose form without it was already seen.
// - next() returns a queued URL of a host that may be fetched now: fewer than per_host
//   fetches in flight and at least `delay` seconds since its last fetch ended (the host's
//   robots.txt Crawl-delay, when set with set_delay(), overrides it, capped at 30 s). Hosts
//   take turns. done() ends a fetch of the host; retry() puts a URL back to be fetched again no
//   sooner than the given time.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "web/url.hpp"

#include "webrank/crawl/crawl.hpp"

namespace webrank::crawl {

using Clock = std::chrono::steady_clock;

struct FrontierItem {
  std::string url;
  int depth = 0;
  int redirects = 0;  // redirects followed to get here
  int attempts = 0;   // fetches tried so far
};

enum class AddResult { kQueued, kSeen, kOutOfScope, kTooDeep, kTooLong, kTrap, kUnusable };
const char* to_string(AddResult r);

class Frontier {
 public:
  explicit Frontier(FrontierOptions o);

  AddResult add(const std::string& url, int depth, int redirects = 0);
  // Marks `url` seen without queueing it (pages already fetched, on --resume), and counts it
  // toward the trap limits as add() would have.
  void mark_seen(const std::string& url);
  bool seen(const std::string& url) const { return seen_.count(url) != 0; }

  // `host_ok` may hold a host back (its robots.txt is still being fetched).
  std::optional<FrontierItem> next(Clock::time_point now,
                                   const std::function<bool(const std::string&)>& host_ok = {});
  // Ends a fetch of `host`: its next fetch waits for the politeness delay.
  void done(const std::string& host, Clock::time_point now);
  // Ends a fetch that did not happen (robots.txt said no): no delay.
  void release(const std::string& host);
  void retry(FrontierItem item, Clock::time_point not_before);
  void set_delay(const std::string& host, double seconds);

  std::size_t queued() const { return queued_; }
  std::size_t in_flight() const { return in_flight_; }
  std::uint64_t trapped() const { return trapped_; }
  // The earliest time a queued URL may become fetchable (for sleeping), if any is queued.
  std::optional<Clock::time_point> next_ready() const;

 private:
  struct Host {
    std::deque<FrontierItem> queue;
    Clock::time_point ready{};
    int active = 0;
    double delay = -1;  // < 0: the default
  };
  bool in_scope(const std::string& url) const;
  bool trapped(const std::string& url);
  // Counts `url` among its query and shape variants; true past either limit.
  bool count_variants(const std::string& url, const web::Url& u);

  FrontierOptions o_;
  std::unordered_set<std::string> seen_;
  std::unordered_map<std::string, Host> hosts_;
  std::vector<std::string> order_;  // round robin over hosts
  std::size_t turn_ = 0;
  std::unordered_map<std::string, int> query_variants_, shape_variants_;
  std::multimap<Clock::time_point, FrontierItem> retries_;
  std::size_t queued_ = 0, in_flight_ = 0;
  std::uint64_t trapped_ = 0;
};

// The politeness unit of a URL: scheme://host[:port] ("file://" for all file: URLs).
std::string host_key(const std::string& url);

}  // namespace webrank::crawl
