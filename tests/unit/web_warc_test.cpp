// WARC records (src/crawl/warc.hpp): what the writer writes the reader reads back, a journal
// cut short is read up to its last complete record, and damage is an error naming the byte.
#include "web/warc.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_graphs.hpp"
#include "web/http_message.hpp"
#include "webrank/util/error.hpp"

namespace webrank::web {
namespace {
using webrank::testing::TempDir;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(CrawlWarc, WriterAndReaderRoundTrip) {
  TempDir dir;
  const std::string path = (dir / "j.warc.gz").string();
  {
    WarcWriter w(path);
    w.write("response", "http://x.org/", "application/http; msgtype=response",
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=b>b</a>");
    w.write("resource", "file:///tmp/a.html", "text/html", std::string(100000, 'x'),
            {{"WARC-Concurrent-To", "<urn:x>"}});
  }
  WarcReader r(path);
  WarcRecord rec;
  ASSERT_TRUE(r.next(rec));
  EXPECT_EQ(rec.version, "WARC/1.1");
  EXPECT_EQ(rec.type(), "response");
  EXPECT_EQ(rec.target_uri(), "http://x.org/");
  const HttpResponse h = parse_http_response(rec.block, "here");
  EXPECT_EQ(h.status, 200);
  EXPECT_EQ(h.header("content-type"), "text/html");
  EXPECT_EQ(h.body, "<a href=b>b</a>");
  ASSERT_TRUE(r.next(rec));
  EXPECT_EQ(rec.block.size(), 100000u);
  EXPECT_EQ(rec.field("warc-concurrent-to"), "<urn:x>");
  EXPECT_FALSE(r.next(rec));
}

TEST(CrawlWarc, TruncatedJournalIsReadUpToItsLastRecord) {
  TempDir dir;
  const std::string path = (dir / "j.warc.gz").string();
  {
    WarcWriter w(path);
    for (int i = 0; i < 3; ++i) w.write("resource", "file:///" + std::to_string(i), "", "abc");
  }
  const std::string all = slurp(path);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << all.substr(0, all.size() - 20);
  {
    WarcReader r(path, /*tolerate_truncated_tail=*/true);
    WarcRecord rec;
    int n = 0;
    while (r.next(rec)) ++n;
    EXPECT_EQ(n, 2);
    EXPECT_TRUE(r.truncated());
  }
  WarcReader strict(path);
  WarcRecord rec;
  EXPECT_THROW(
      {
        while (strict.next(rec)) {
        }
      },
      Error);
}

TEST(CrawlWarc, DamageNamesTheByte) {
  TempDir dir;
  const std::string path = dir.write("bad.warc",
                                     "WARC/1.0\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n"
                                     "WARC/1.0\r\nContent-Length: 99\r\n\r\nshort");
  WarcReader r(path);
  WarcRecord rec;
  ASSERT_TRUE(r.next(rec));
  try {
    r.next(rec);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.warc: byte 38:"), std::string::npos) << e.what();
  }
  const std::string p2 = dir.write("notwarc.warc", "hello\n");
  WarcReader r2(p2);
  EXPECT_THROW(r2.next(rec), Error);
  const std::string p3 = dir.write("nolen.warc", "WARC/1.0\r\nWARC-Type: x\r\n\r\n");
  WarcReader r3(p3);
  EXPECT_THROW(r3.next(rec), Error);
  // A folded header line of blanks only (found by fuzz_warc) adds nothing to its field.
  const std::string p4 = dir.write(
      "folded.warc", "WARC/1.0\r\nWARC-Type: x\r\n\t\r\n y\r\nContent-Length: 1\r\n\r\nz");
  WarcReader r4(p4);
  ASSERT_TRUE(r4.next(rec));
  EXPECT_EQ(rec.field("WARC-Type"), "x y");
  EXPECT_EQ(rec.block, "z");
}

TEST(CrawlWarc, HttpChunkedAndGzipBodies) {
  const HttpResponse c = parse_http_response(
      "HTTP/1.1 200\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n",
      "w");
  EXPECT_EQ(c.status, 200);
  EXPECT_EQ(c.body, "abcde");
  // Stored de-chunked with the header kept: taken as it is.
  const HttpResponse d =
      parse_http_response("HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n<html>", "w");
  EXPECT_EQ(d.body, "<html>");
  // A folded header line of blanks only (found by fuzz_http): adds nothing to the header.
  const HttpResponse f =
      parse_http_response("HTTP/1.1 200 OK\r\nX-A: a\r\n\t\r\n b\r\n\r\nbody", "w");
  EXPECT_EQ(f.header("X-A"), "a b");
  EXPECT_EQ(f.body, "body");
  EXPECT_THROW(parse_http_response("HTTPX/1.1 200 OK\r\n\r\n", "w"), Error);
  EXPECT_THROW(parse_http_response("HTTP/1.1 2x0 OK\r\n\r\n", "w"), Error);
  EXPECT_THROW(parse_http_response("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\nnotgzip", "w"),
               Error);
}

}  // namespace
}  // namespace webrank::web
