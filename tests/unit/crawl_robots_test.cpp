// robots.txt rules (src/crawl/robots.hpp), after RFC 9309's examples: group choice, longest
// match, Allow on ties, wildcards and $, Crawl-delay.
#include "crawl/robots.hpp"

#include <gtest/gtest.h>

namespace webrank::crawl {
namespace {

TEST(CrawlRobots, GroupsAndLongestMatch) {
  const Robots r = Robots::parse(
      "# comment\n"
      "User-agent: otherbot\nDisallow: /\n\n"
      "User-agent: *\nDisallow: /private/\nAllow: /private/open\nDisallow: /*.pdf$\n"
      "Crawl-delay: 1.5\n");
  EXPECT_TRUE(r.allowed("/"));
  EXPECT_TRUE(r.allowed("/public/x.html"));
  EXPECT_FALSE(r.allowed("/private/x.html"));
  EXPECT_TRUE(r.allowed("/private/open/x.html"));
  EXPECT_FALSE(r.allowed("/docs/a.pdf"));
  EXPECT_TRUE(r.allowed("/docs/a.pdf?x=1"));
  EXPECT_TRUE(r.allowed("/robots.txt"));
  ASSERT_TRUE(r.crawl_delay());
  EXPECT_DOUBLE_EQ(*r.crawl_delay(), 1.5);
}

TEST(CrawlRobots, OwnGroupWinsOverStar) {
  const Robots r = Robots::parse(
      "User-agent: *\nDisallow: /\n\nUser-agent: WebRank\nUser-agent: other\nDisallow: /x\n");
  EXPECT_TRUE(r.allowed("/a"));
  EXPECT_FALSE(r.allowed("/x/y"));
  EXPECT_FALSE(r.crawl_delay());
}

TEST(CrawlRobots, EmptyDisallowAndTies) {
  EXPECT_TRUE(Robots::parse("User-agent: *\nDisallow:\n").allowed("/anything"));
  EXPECT_TRUE(Robots::parse("User-agent: *\nDisallow: /a\nAllow: /a\n").allowed("/a/b"));
  EXPECT_TRUE(Robots::parse("Disallow: /\n").allowed("/"));  // no group: no rules
  EXPECT_FALSE(Robots::disallow_all().allowed("/x"));
  EXPECT_TRUE(Robots::allow_all().allowed("/x"));
}

TEST(CrawlRobots, Patterns) {
  EXPECT_TRUE(robots_pattern_matches("/fish", "/fish.html"));
  EXPECT_TRUE(robots_pattern_matches("/fish*", "/fish/salmon"));
  EXPECT_FALSE(robots_pattern_matches("/fish", "/Fish.asp"));
  EXPECT_TRUE(robots_pattern_matches("/*.php", "/folder/filename.php?parameters"));
  EXPECT_TRUE(robots_pattern_matches("/*.php$", "/filename.php"));
  EXPECT_FALSE(robots_pattern_matches("/*.php$", "/filename.php5"));
  EXPECT_TRUE(robots_pattern_matches("/fish*.php", "/fishheads/catfish.php?p"));
  EXPECT_FALSE(robots_pattern_matches("/fish*.php", "/fish.PHP"));
}

}  // namespace
}  // namespace webrank::crawl
