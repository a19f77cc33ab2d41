// The crawl frontier: the URLs seen so far, the ones waiting to be fetched in one queue per
// host, per-host politeness, and the scope, limit and trap rules that decide what is fetched.
//
// Contract:
// - add() takes a normalized URL once (the seen set); it is queued only when it is in scope
//   (a URL prefix of `prefixes`, or a host of `hosts`; both empty = everything), within
//   max_depth and max_url_length, and not caught by a trap heuristic. Every URL offered is a
//   page of the web whether it is fetched or not; add() says why it was not queued.
// - The seen set holds 64-bit hashes of the URLs, not the URLs (8 bytes a URL where a string set
//   took about 100: a 10M-URL crawl's set is 128 MiB, not 1 GiB); two URLs of one hash, about
//   one chance in 10^11 for a pair in a 10M-URL crawl, would make the second one seen.
// - Trap heuristics: a path segment repeated more than max_segment_repeats times or a path of
//   more than max_path_segments segments (/a/a/a/..., symlink loops); more than
//   max_query_variants distinct queries on one host+path (endless query variants, sorting and
//   filter combinations); a query parameter that looks like a session id (sid, sessionid,
//   jsessionid, phpsessid, session_id, sessid, or a ;jsessionid= path parameter) on a URL whose
//   form without it was already seen; and the endless URL spaces of calendars and the like, told
//   from large numbered sites by how they are reached: the "shape" of a URL is the URL with every
//   run of digits in its path and query replaced by 0 (the scheme, host and port kept), and its
//   "shape depth" the number of links in a row, ending at it, from a page of its shape to the next
//   (0 when the link came from a page of another shape). A calendar is walked one day at a time,
//   its shape depth growing with every URL; the pages of a numbered site are reached in few
//   steps from its index and from each other (logarithmically many in its size). So a URL is a
//   trap when more than max_shape_variants URLs of its shape were seen and its shape depth is
//   more than twice the base-2 logarithm of that count: a numbered site of 1M pages whose pages
//   link to each other is crawled whole, a calendar stops after about 1,000 URLs (tests in
//   tests/unit/crawl_frontier_test.cpp).
// - next() returns a queued URL of a host that may be fetched now: at least `delay` seconds
//   since its last fetch ended (the host's robots.txt Crawl-delay, when set with set_delay(),
//   overrides it, capped at 30 s) and no fetch of it in flight; with no delay, fewer than
//   per_host fetches in flight. Fetches of robots.txt count (fetched()). Hosts take turns, in O(log
//   hosts) a call (a heap of hosts by the time they are due). done() ends a fetch of the host;
//   retry() puts a URL back to be fetched again no sooner than the given time.
// - Memory: queued URLs past `memory` bytes are spilled to a file (set_spill_file()), per host in
//   order, and read back as their host's queue runs short; queued() counts both, spilled() those
//   on disk. The file is scratch (a resumed crawl rebuilds its frontier from the journal) and is
//   removed with the frontier.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

#include "web/url.hpp"

#include "webrank/crawl/crawl.hpp"

namespace webrank::crawl {

using Clock = std::chrono::steady_clock;

struct FrontierItem {
  std::string url;
  int depth = 0;
  int redirects = 0;        // redirects followed to get here
  int attempts = 0;         // fetches tried so far
  int shape_depth = 0;      // links in a row from pages of this URL's shape (contract above)
  std::uint64_t shape = 0;  // the hash of the URL's shape (shape_of())
};

enum class AddResult { kQueued, kSeen, kOutOfScope, kTooDeep, kTooLong, kTrap, kUnusable };
const char* to_string(AddResult r);

class Frontier {
 public:
  explicit Frontier(FrontierOptions o);
  ~Frontier();
  Frontier(const Frontier&) = delete;
  Frontier& operator=(const Frontier&) = delete;

  // `from`: the page the link was found on (its shape and shape depth decide the new URL's);
  // none for seeds and the URLs of a recrawl.
  AddResult add(const std::string& url, int depth, int redirects = 0,
                const FrontierItem* from = nullptr);
  // Marks `url` seen without queueing it (pages already fetched, on --resume), and counts it
  // toward the trap limits as add() would have.
  void mark_seen(const std::string& url);
  bool seen(const std::string& url) const;

  // `host_ok` may hold a host back (its robots.txt is still being fetched): the host is then
  // skipped until unhold() is called for it.
  std::optional<FrontierItem> next(Clock::time_point now,
                                   const std::function<bool(const std::string&)>& host_ok = {});
  void unhold(const std::string& host);
  // Ends a fetch of `host`: its next fetch waits for the politeness delay.
  void done(const std::string& host, Clock::time_point now);
  // A fetch of `host` outside the queues ended (robots.txt): the next one waits for the delay.
  void fetched(const std::string& host, Clock::time_point now);
  // Ends a fetch that did not happen (robots.txt said no): no delay.
  void release(const std::string& host);
  void retry(FrontierItem item, Clock::time_point not_before);
  void set_delay(const std::string& host, double seconds);
  // Where queued URLs past the memory budget go (none: all are kept in memory).
  void set_spill_file(std::filesystem::path file);

  std::size_t queued() const { return queued_; }
  // URLs of one host waiting (in memory or on disk).
  std::size_t queued(const std::string& host) const;
  std::size_t spilled() const { return spilled_; }
  std::size_t in_flight() const { return in_flight_; }
  std::uint64_t trapped() const { return trapped_; }
  // The earliest time a queued URL may become fetchable (for sleeping), if any is queued.
  std::optional<Clock::time_point> next_ready() const;

 private:
  struct Chunk {  // a run of one host's queued URLs in the spill file
    std::uint64_t offset = 0, bytes = 0;
    std::uint32_t count = 0;
  };
  struct Host {
    std::string name;
    std::deque<FrontierItem> queue;  // the head of the queue, in memory
    std::deque<Chunk> chunks;        // then these, on disk
    std::vector<FrontierItem> tail;  // then these, in memory until spilled
    std::size_t count = 0;           // all three
    Clock::time_point ready{};
    int active = 0;
    double delay = -1;       // < 0: the default
    bool scheduled = false;  // in due_ or runnable_
    bool held = false;       // host_ok said no
  };
  struct Due {
    Clock::time_point at;
    std::uint32_t host;
    bool operator>(const Due& o) const { return at > o.at; }
  };
  int connections(const Host& h) const;  // fetches of the host at once: per_host, 1 with a delay
  bool in_scope(const std::string& url) const;
  bool trapped(const std::string& url, const web::Url& u, FrontierItem& item);
  // Counts `url` among its query and shape variants; true past either limit.
  bool count_variants(const web::Url& u, FrontierItem& item);
  std::uint32_t host_id(const std::string& host);
  void push(Host& h, FrontierItem item, bool front = false);
  FrontierItem pop(Host& h);
  void schedule(std::uint32_t id);
  void spill();
  void refill(Host& h);
  static std::size_t cost(const FrontierItem& item) {
    return sizeof(FrontierItem) + item.url.capacity() + 16;
  }

  FrontierOptions o_;
  std::vector<std::uint64_t> seen_;  // open addressing, 0 = empty slot
  std::size_t seen_count_ = 0;
  bool insert_seen(std::uint64_t h);
  bool contains_seen(std::uint64_t h) const;
  std::vector<Host> hosts_;
  std::unordered_map<std::string, std::uint32_t> host_ids_;
  std::deque<std::uint32_t> runnable_;  // due now, in turn
  std::priority_queue<Due, std::vector<Due>, std::greater<Due>> due_;
  std::unordered_map<std::uint64_t, std::uint32_t> query_variants_, shape_variants_;
  std::multimap<Clock::time_point, FrontierItem> retries_;
  std::size_t queued_ = 0, spilled_ = 0, in_flight_ = 0, memory_ = 0, live_chunks_ = 0;
  std::uint64_t trapped_ = 0;
  std::filesystem::path spill_path_;
  int spill_fd_ = -1;
  std::uint64_t spill_end_ = 0;
};

// The politeness unit of a URL: scheme://host[:port] ("file://" for all file: URLs).
std::string host_key(const std::string& url);
// The hash of a URL's shape (the contract above); 0 for a URL without digits (each its own
// shape: never more than one URL, never counted).
std::uint64_t shape_of(std::string_view url);

}  // namespace webrank::crawl
