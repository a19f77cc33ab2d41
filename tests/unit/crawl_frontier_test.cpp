// The crawl frontier (src/crawl/frontier.hpp): seen set, scope, depth and URL-length limits,
// trap heuristics, per-host politeness and connection caps, retries.
#include "crawl/frontier.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <map>

namespace webrank::crawl {
namespace {

using std::chrono::milliseconds;

TEST(CrawlFrontier, SeenScopeLimits) {
  FrontierOptions o;
  o.hosts = {"a.org"};
  o.prefixes = {"http://b.org/docs/"};
  o.max_depth = 2;
  o.max_url_length = 40;
  Frontier f(o);
  EXPECT_EQ(f.add("http://a.org/", 0), AddResult::kQueued);
  EXPECT_EQ(f.add("http://a.org/", 1), AddResult::kSeen);
  EXPECT_EQ(f.add("http://b.org/docs/x", 1), AddResult::kQueued);
  EXPECT_EQ(f.add("http://b.org/other", 1), AddResult::kOutOfScope);
  EXPECT_EQ(f.add("http://a.org:8080/", 1), AddResult::kOutOfScope);
  EXPECT_EQ(f.add("http://a.org/deep", 3), AddResult::kTooDeep);
  EXPECT_EQ(f.add("http://a.org/" + std::string(40, 'x'), 1), AddResult::kTooLong);
  EXPECT_EQ(f.queued(), 2u);
}

TEST(CrawlFrontier, Traps) {
  FrontierOptions o;
  o.max_query_variants = 3;
  o.max_shape_variants = 5;
  Frontier f(o);
  EXPECT_EQ(f.add("http://a.org/x/x/x/", 0), AddResult::kQueued);
  EXPECT_EQ(f.add("http://a.org/x/x/x/x/", 0), AddResult::kTrap);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(f.add("http://a.org/list?sort=" + std::string(1, char('a' + i)), 0),
              AddResult::kQueued);
  EXPECT_EQ(f.add("http://a.org/list?sort=z", 0), AddResult::kTrap);
  // A calendar: each day found on the day before (its shape depth grows by one a day). Past 5
  // URLs of its shape, a URL deeper than twice the log2 of their count is a trap.
  Frontier cal(o);
  FrontierItem day;
  int days = 0;
  for (; days < 100; ++days) {
    const std::string url = "http://a.org/cal/2024/" + std::to_string(days + 1);
    if (cal.add(url, 0, 0, &day) == AddResult::kTrap) break;
    day = *cal.next(Clock::now());
    cal.release(host_key(url));
  }
  EXPECT_EQ(days, 6);  // the 7th: 7 URLs of the shape, depth 6 > 2 log2(7) = 5.6
  // The same shape on another host is another site.
  EXPECT_EQ(cal.add("http://b.org/cal/2024/9", 0, 0, &day), AddResult::kQueued);
  EXPECT_EQ(f.add("http://a.org/page?sid=123&x=1", 0), AddResult::kQueued);
  EXPECT_EQ(f.add("http://a.org/page?sid=456&x=1", 0), AddResult::kTrap);
  EXPECT_EQ(f.add("http://a.org/p;jsessionid=A1", 0), AddResult::kQueued);
  EXPECT_EQ(f.add("http://a.org/p;jsessionid=B2", 0), AddResult::kTrap);
}

// A resumed crawl marks its journaled pages seen: they count toward the trap limits as they did
// when they were first added, so the resumed crawl stops where an uninterrupted one would.
TEST(CrawlFrontier, PagesMarkedSeenCountTowardTheTraps) {
  FrontierOptions o;
  o.max_query_variants = 3;
  o.max_shape_variants = 5;
  Frontier f(o);
  for (int i = 0; i < 5; ++i) f.mark_seen("http://a.org/cal/2024/" + std::to_string(i + 1));
  f.mark_seen("http://a.org/cal/2024/1");  // seen twice: counted once
  FrontierItem deep;                       // a page of the calendar's shape, 40 days into it
  deep.shape = shape_of("http://a.org/cal/2024/40");
  deep.shape_depth = 40;
  EXPECT_EQ(f.add("http://a.org/cal/2024/6", 0, 0, &deep), AddResult::kTrap);
  for (int i = 0; i < 3; ++i)
    f.mark_seen("http://a.org/list?sort=" + std::string(1, char('a' + i)));
  EXPECT_EQ(f.add("http://a.org/list?sort=z", 0), AddResult::kTrap);
  EXPECT_EQ(f.add("http://a.org/other", 0), AddResult::kQueued);
}

// Crawls a generated web through the frontier alone (no fetching): `links(k)` are the pages page
// k of one host links to (paths made by `path`); returns the pages fetched and counts the traps.
template <typename Links, typename Path>
std::size_t crawl_site(Frontier& f, const std::string& first, Links links, Path path) {
  f.add(first, 0);
  std::size_t fetched = 0;
  const auto now = Clock::now();
  while (std::optional<FrontierItem> item = f.next(now)) {
    ++fetched;
    for (const std::string& to : links(item->url)) f.add(path(to), item->depth + 1, 0, &*item);
    f.release(host_key(item->url));
  }
  return fetched;
}

// A numbered site of 1M pages (/p/0 .. /p/999999, as forums, issue trackers and archives number
// theirs) is not a trap, however many URLs of one shape it has: its pages are reached in a few
// steps from each other. Each page links to two "next" pages (a tree: every page is reachable)
// and five others.
TEST(CrawlFrontier, NumberedSiteOf1MPagesIsCrawledWhole) {
  constexpr std::uint64_t kPages = 1000000;
  FrontierOptions o;
  o.delay = 0;
  o.per_host = 1 << 30;
  Frontier f(o);
  const std::string base = "http://site.org/p/";
  const auto links = [&](const std::string& url) {
    const std::uint64_t k = std::stoull(url.substr(base.size()));
    std::vector<std::uint64_t> to;
    for (std::uint64_t c = 2 * k + 1; c <= 2 * k + 2; ++c)
      if (c < kPages) to.push_back(c);
    for (std::uint64_t m = 1; m <= 5; ++m) to.push_back((k * 2654435761u + m * 40503u) % kPages);
    std::vector<std::string> out;
    for (std::uint64_t t : to) out.push_back(std::to_string(t));
    return out;
  };
  const std::size_t fetched =
      crawl_site(f, base + "0", links, [&](const std::string& k) { return base + k; });
  EXPECT_EQ(fetched, kPages);
  EXPECT_EQ(f.trapped(), 0u);
}

// Calendars are endless and are still caught: one whose days link to the next and previous day,
// and one whose pages link to the next and previous day, month and year.
TEST(CrawlFrontier, CalendarsAreCaught) {
  FrontierOptions o;
  o.delay = 0;
  o.per_host = 1 << 30;
  o.max_depth = 1 << 30;
  {
    Frontier f(o);
    const std::string base = "http://a.org/day/";
    const auto links = [&](const std::string& url) {
      const long d = std::stol(url.substr(base.size()));
      return std::vector<std::string>{std::to_string(d + 1), std::to_string(d - 1 + 100000)};
    };
    const std::size_t fetched =
        crawl_site(f, base + "50000", links, [&](const std::string& d) { return base + d; });
    EXPECT_LE(fetched, 1010u);
    EXPECT_GT(f.trapped(), 0u);
  }
  {
    Frontier f(o);
    const std::string base = "http://a.org/cal/";
    const auto links = [&](const std::string& url) {
      int y = 0, m = 0, d = 0;
      std::sscanf(url.c_str() + base.size(), "%d/%d/%d", &y, &m, &d);
      std::vector<std::string> out;
      for (const auto& [dy, dm, dd] : std::vector<std::array<int, 3>>{
               {1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}}) {
        out.push_back(std::to_string(y + dy) + "/" + std::to_string((m + dm + 12) % 12 + 1) + "/" +
                      std::to_string((d + dd + 28) % 28 + 1));
      }
      return out;
    };
    const std::size_t fetched =
        crawl_site(f, base + "2024/6/15", links, [&](const std::string& p) { return base + p; });
    EXPECT_LE(fetched, 20000u);
    EXPECT_GT(f.trapped(), 0u);
  }
}

// Past its memory budget the frontier keeps the queues on disk, each host's in order.
TEST(CrawlFrontier, SpillsPastItsMemoryAndKeepsTheOrder) {
  const std::filesystem::path spill =
      std::filesystem::temp_directory_path() / ("frontier-test-" + std::to_string(::getpid()));
  FrontierOptions o;
  o.delay = 0;
  o.per_host = 1;
  o.memory = 20000;  // about 100 URLs
  std::vector<std::string> order;
  {
    Frontier f(o);
    f.set_spill_file(spill);
    for (int i = 0; i < 3000; ++i)
      f.add("http://h" + std::to_string(i % 3) + ".org/page-" + std::to_string(i), 0);
    EXPECT_EQ(f.queued(), 3000u);
    EXPECT_GT(f.spilled(), 2500u);
    EXPECT_TRUE(std::filesystem::exists(spill));
    const auto now = Clock::now();
    while (std::optional<FrontierItem> item = f.next(now)) {
      order.push_back(item->url);
      f.release(host_key(item->url));
      if (order.size() == 10)  // added while some are on disk: after them
        f.add("http://h0.org/late", 0);
    }
    EXPECT_EQ(f.queued(), 0u);
    EXPECT_EQ(f.spilled(), 0u);
  }
  EXPECT_FALSE(std::filesystem::exists(spill));  // removed with the frontier
  ASSERT_EQ(order.size(), 3001u);
  std::vector<int> last(3, -1);
  for (const std::string& url : order) {
    if (url == "http://h0.org/late") {
      EXPECT_EQ(last[0], 2997);  // after every page of its host queued before it
      continue;
    }
    const int i = std::stoi(url.substr(url.find('-') + 1));
    EXPECT_GT(i, last[i % 3]) << url;
    last[i % 3] = i;
  }
}

TEST(CrawlFrontier, PolitenessPerHost) {
  FrontierOptions o;
  o.delay = 1.0;
  o.per_host = 1;
  Frontier f(o);
  for (const char* u : {"http://a.org/1", "http://a.org/2", "http://b.org/1"}) f.add(u, 0);
  const auto t0 = Clock::now();
  auto first = f.next(t0);
  auto second = f.next(t0);
  ASSERT_TRUE(first && second);
  EXPECT_NE(host_key(first->url), host_key(second->url));  // hosts take turns
  EXPECT_FALSE(f.next(t0));                                // one connection per host
  f.done(host_key("http://a.org/"), t0);
  EXPECT_FALSE(f.next(t0 + milliseconds(500)));  // the delay has not passed
  auto third = f.next(t0 + milliseconds(1001));
  ASSERT_TRUE(third);
  EXPECT_EQ(third->url, "http://a.org/2");
  f.set_delay(host_key("http://b.org/"), 0);  // robots.txt Crawl-delay overrides
  EXPECT_EQ(f.queued(), 0u);
}

TEST(CrawlFrontier, ADelayMeansOneFetchOfAHostAtATime) {
  // A delay counts from the answer before: a second fetch in flight would not wait for it.
  FrontierOptions o;
  o.delay = 0;
  o.per_host = 2;
  Frontier f(o);
  for (const char* u : {"http://a.org/1", "http://a.org/2", "http://a.org/3", "http://b.org/1",
                        "http://b.org/2", "http://b.org/3"})
    f.add(u, 0);
  f.set_delay(host_key("http://b.org/"), 0.5);  // b's robots.txt has a Crawl-delay
  const auto t0 = Clock::now();
  std::map<std::string, int> taken;
  while (auto item = f.next(t0)) ++taken[host_key(item->url)];
  EXPECT_EQ(taken[host_key("http://a.org/")], 2);  // no delay: per_host at once
  EXPECT_EQ(taken[host_key("http://b.org/")], 1);
  f.done(host_key("http://b.org/"), t0);
  EXPECT_FALSE(f.next(t0 + milliseconds(499)));
  auto next = f.next(t0 + milliseconds(501));
  ASSERT_TRUE(next);
  EXPECT_EQ(host_key(next->url), host_key("http://b.org/"));
  EXPECT_FALSE(f.next(t0 + milliseconds(2000)));  // b's fetch is in flight; a's two too
}

TEST(CrawlFrontier, RetriesWaitForTheirBackoff) {
  Frontier f(FrontierOptions{});
  f.add("http://a.org/", 0);
  const auto t0 = Clock::now();
  FrontierItem item = *f.next(t0);
  f.done(host_key(item.url), t0);
  item.attempts = 1;
  f.retry(item, t0 + milliseconds(2000));
  EXPECT_EQ(f.queued(), 1u);
  EXPECT_FALSE(f.next(t0 + milliseconds(1000)));
  auto again = f.next(t0 + milliseconds(2001));
  ASSERT_TRUE(again);
  EXPECT_EQ(again->attempts, 1);
  EXPECT_EQ(f.queued(), 0u);
}

}  // namespace
}  // namespace webrank::crawl
