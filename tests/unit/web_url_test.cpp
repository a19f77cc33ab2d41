// URL resolution and normalization (src/crawl/url.hpp): RFC 3986 §5.4's reference examples
// and the normalizations the crawler relies on to give every page one label.
#include "web/url.hpp"

#include <gtest/gtest.h>

namespace webrank::web {
namespace {

std::string R(const char* base, const char* ref) {
  return resolve_url(base, ref).value_or("<none>");
}

TEST(CrawlUrl, Rfc3986NormalExamples) {
  const char* b = "http://a/b/c/d;p?q";
  EXPECT_EQ(R(b, "g"), "http://a/b/c/g");
  EXPECT_EQ(R(b, "./g"), "http://a/b/c/g");
  EXPECT_EQ(R(b, "g/"), "http://a/b/c/g/");
  EXPECT_EQ(R(b, "/g"), "http://a/g");
  EXPECT_EQ(R(b, "//g"), "http://g/");
  EXPECT_EQ(R(b, "?y"), "http://a/b/c/d;p?y");
  EXPECT_EQ(R(b, "g?y"), "http://a/b/c/g?y");
  EXPECT_EQ(R(b, "#s"), "http://a/b/c/d;p?q");
  EXPECT_EQ(R(b, "g#s"), "http://a/b/c/g");
  EXPECT_EQ(R(b, ";x"), "http://a/b/c/;x");
  EXPECT_EQ(R(b, ""), "http://a/b/c/d;p?q");
  EXPECT_EQ(R(b, "."), "http://a/b/c/");
  EXPECT_EQ(R(b, "./"), "http://a/b/c/");
  EXPECT_EQ(R(b, ".."), "http://a/b/");
  EXPECT_EQ(R(b, "../g"), "http://a/b/g");
  EXPECT_EQ(R(b, "../.."), "http://a/");
  EXPECT_EQ(R(b, "../../g"), "http://a/g");
}

TEST(CrawlUrl, Rfc3986AbnormalExamples) {
  const char* b = "http://a/b/c/d;p?q";
  EXPECT_EQ(R(b, "../../../g"), "http://a/g");
  EXPECT_EQ(R(b, "/./g"), "http://a/g");
  EXPECT_EQ(R(b, "/../g"), "http://a/g");
  EXPECT_EQ(R(b, "g."), "http://a/b/c/g.");
  EXPECT_EQ(R(b, "..g"), "http://a/b/c/..g");
  EXPECT_EQ(R(b, "./../g"), "http://a/b/g");
  EXPECT_EQ(R(b, "g/./h"), "http://a/b/c/g/h");
  EXPECT_EQ(R(b, "g/../h"), "http://a/b/c/h");
  EXPECT_EQ(R(b, "g?y/./x"), "http://a/b/c/g?y/./x");
}

TEST(CrawlUrl, Normalization) {
  EXPECT_EQ(normalize_url("HTTP://Example.COM:80/a/../b/./c"), "http://example.com/b/c");
  EXPECT_EQ(normalize_url("https://x.org:443"), "https://x.org/");
  EXPECT_EQ(normalize_url("http://x.org:8080/"), "http://x.org:8080/");
  EXPECT_EQ(normalize_url("http://x.org/%7euser/%2f%zz a"), "http://x.org/~user/%2F%25zz%20a");
  EXPECT_EQ(normalize_url("http://user:pw@x.org/"), "http://x.org/");
  EXPECT_EQ(normalize_url("http://x.org/caf\xc3\xa9"), "http://x.org/caf%C3%A9");
  EXPECT_EQ(normalize_url("  http://x.org/a\n b\t "), "http://x.org/a%20b");
  EXPECT_EQ(normalize_url("file://localhost/tmp/a b.html"), "file:///tmp/a%20b.html");
  EXPECT_EQ(normalize_url("http://x.org/?"), "http://x.org/?");
  for (const char* bad : {"mailto:a@b.c", "javascript:void(0)", "data:text/html,x", "http://",
                          "http://x.org:99999/", "http://x.org:8a/", "ftp://x.org/", "rel/a",
                          "http://x.org:80://x.org/a"}) {  // a second port (found by fuzz_url)
    EXPECT_FALSE(normalize_url(bad)) << bad;
  }
}

TEST(CrawlUrl, NormalizingTwiceChangesNothing) {
  for (const char* u :
       {"HTTP://A.b/%7e/../x%41?q=%7e&r=a b", "http://[::1]:80/x", "file:///a/b/"}) {
    const std::string once = normalize_url(u).value();
    EXPECT_EQ(normalize_url(once).value(), once) << u;
  }
}

TEST(CrawlUrl, FilePathsRoundTrip) {
  EXPECT_EQ(file_url("/tmp/a b/c#d.html"), "file:///tmp/a%20b/c%23d.html");
  EXPECT_EQ(file_path("file:///tmp/a%20b/c%23d.html").value(), "/tmp/a b/c#d.html");
  EXPECT_FALSE(file_path("http://x/"));
  const Url u = parse_url("http://Host:81/p?q").value();
  EXPECT_EQ(u.authority(), "host:81");
  EXPECT_EQ(u.path_and_query(), "/p?q");
}

}  // namespace
}  // namespace webrank::web
