// Title, text and link extraction (src/crawl/html_extract.hpp) on clean, broken and deeply
// nested HTML.
#include "web/html_extract.hpp"

#include <gtest/gtest.h>

namespace webrank::web {
namespace {

TEST(CrawlHtml, TitleTextLinksAnchorsNofollowBase) {
  const ExtractedPage p = extract_html(
      "<html><head><title>  The\n  Title </title><base href='http://b.org/dir/'>"
      "<style>.x{}</style></head><body><p>Hello <b>big</b> world</p>"
      "<script>document.write('<a href=x>')</script>"
      "<a href='one.html#top'>First <i>link</i></a>"
      "<a href='/two' rel='external NOFOLLOW'>Second</a>"
      "<a href='mailto:x@y.z'>mail</a><a>no href</a>"
      "<a href='three'><img src=i.png alt='Logo'></a>"
      "<map><area href='four' alt='Area'></map>"
      "<iframe src='//c.org/frame'></iframe><frameset><frame src='five'></frameset>"
      "</body></html>",
      "http://a.org/page.html");
  EXPECT_EQ(p.title, "The Title");
  EXPECT_EQ(p.text.find("document"), std::string::npos);
  EXPECT_EQ(p.text.find(".x{}"), std::string::npos);
  EXPECT_NE(p.text.find("Hello big world"), std::string::npos) << p.text;
  ASSERT_EQ(p.links.size(), 5u);
  EXPECT_EQ(p.links[0].target, "http://b.org/dir/one.html");
  EXPECT_EQ(p.links[0].anchor, "First link");
  EXPECT_FALSE(p.links[0].nofollow);
  EXPECT_EQ(p.links[1].target, "http://b.org/two");
  EXPECT_TRUE(p.links[1].nofollow);
  EXPECT_EQ(p.links[2].target, "http://b.org/dir/three");
  EXPECT_EQ(p.links[2].anchor, "Logo");
  EXPECT_EQ(p.links[3].target, "http://b.org/dir/four");
  EXPECT_EQ(p.links[3].anchor, "Area");
  EXPECT_EQ(p.links[4].target, "http://c.org/frame");
}

// `&nbsp;` in a title or an anchor is the space it looks like (one collapsed with its neighbours);
// the page's text keeps it.
TEST(CrawlHtml, NoBreakSpacesInTitlesAndAnchorsAreSpaces) {
  const ExtractedPage p = extract_html(
      "<html><head><title>Chapter&nbsp;24.&nbsp;&nbsp;Routine Tasks &nbsp;</title></head>"
      "<body><p>a&nbsp;b</p><a href='x'>see&nbsp;also</a><a href='y'><img alt='A&nbsp;B'></a>"
      "</body></html>",
      "http://a.org/");
  EXPECT_EQ(p.title, "Chapter 24. Routine Tasks");
  ASSERT_EQ(p.links.size(), 2u);
  EXPECT_EQ(p.links[0].anchor, "see also");
  EXPECT_EQ(p.links[1].anchor, "A B");
  EXPECT_NE(p.text.find("a\xc2\xa0"
                        "b"),
            std::string::npos);
}

TEST(CrawlHtml, MetaRobotsNofollowMarksEveryLink) {
  const ExtractedPage p = extract_html(
      "<meta name=ROBOTS content='noindex, nofollow'><a href=a>a</a>", "http://x.org/");
  ASSERT_EQ(p.links.size(), 1u);
  EXPECT_TRUE(p.links[0].nofollow);
}

TEST(CrawlHtml, BrokenMarkupStillYieldsLinks) {
  const ExtractedPage p = extract_html(
      "<title>T</title><a href=x>unclosed <div><a href=\"y\" <p>text</b></i><a href='z'>z",
      "http://x.org/");
  EXPECT_FALSE(p.title.empty());
  bool z = false;
  for (const auto& l : p.links) z = z || l.target == "http://x.org/z";
  EXPECT_TRUE(z);
}

TEST(CrawlHtml, DeepNestingDoesNotOverflow) {
  std::string html;
  for (int i = 0; i < 500; ++i) html += "<div><br><img src=x />";
  html += "<a href=deep>deep</a>";
  for (int i = 0; i < 100000; ++i) html += "<div>";
  html += "<a href=deeper>deeper</a>";
  const ExtractedPage p = extract_html(html, "http://x.org/");
  // Cut where it nests deeper than kMaxHtmlDepth: what came before is kept.
  ASSERT_EQ(p.links.size(), 1u);
  EXPECT_EQ(p.links[0].target, "http://x.org/deep");
}

TEST(CrawlHtml, IsHtml) {
  EXPECT_TRUE(is_html("text/html; charset=utf-8", ""));
  EXPECT_TRUE(is_html("application/xhtml+xml", ""));
  EXPECT_FALSE(is_html("image/png", "<html>"));
  EXPECT_TRUE(is_html("", "  <!DOCTYPE html><html>"));
  EXPECT_FALSE(is_html("", "plain"));
}

}  // namespace
}  // namespace webrank::web
