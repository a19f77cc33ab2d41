// The crawl frontier (src/crawl/frontier.hpp): seen set, scope, depth and URL-length limits,
// trap heuristics, per-host politeness and connection caps, retries.
#include "crawl/frontier.hpp"

#include <gtest/gtest.h>

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
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(f.add("http://a.org/cal/2024/" + std::to_string(i + 1), 0), AddResult::kQueued);
  EXPECT_EQ(f.add("http://a.org/cal/2024/6", 0), AddResult::kTrap);
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
  EXPECT_EQ(f.add("http://a.org/cal/2024/6", 0), AddResult::kTrap);
  for (int i = 0; i < 3; ++i)
    f.mark_seen("http://a.org/list?sort=" + std::string(1, char('a' + i)));
  EXPECT_EQ(f.add("http://a.org/list?sort=z", 0), AddResult::kTrap);
  EXPECT_EQ(f.add("http://a.org/other", 0), AddResult::kQueued);
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
