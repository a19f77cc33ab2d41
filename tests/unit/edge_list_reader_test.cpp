// The edge-list field rule, weights, line reading and compressed inputs.
#include "ingest/edge_list_reader.hpp"

#include "test_graphs.hpp"
#include "webrank/util/error.hpp"

namespace webrank::testing {
namespace {

std::vector<std::string> split(std::string_view line) {
  std::string_view f[4];
  int empty = 0;
  int n = split_fields(line, f, 4, &empty);
  if (n < 0) return {"<empty field " + std::to_string(empty) + ">"};
  std::vector<std::string> out;
  for (int i = 0; i < std::min(n, 4); ++i) out.emplace_back(f[i]);
  return out;
}

TEST(SplitFields, TabsWinOverSpaces) {
  EXPECT_EQ(split("http://a/x y\thttp://b/\r"),
            (std::vector<std::string>{"http://a/x y", "http://b/"}));
  EXPECT_EQ(split("  1   2  "), (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(split("a\tb\t0.5"), (std::vector<std::string>{"a", "b", "0.5"}));
  EXPECT_EQ(split(" a \t b "), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(split("solo"), (std::vector<std::string>{"solo"}));
}

TEST(SplitFields, CommentsAndBlankLines) {
  EXPECT_TRUE(split("# comment\tx").empty());
  EXPECT_TRUE(split("   % matrix market").empty());
  EXPECT_TRUE(split("").empty());
  EXPECT_TRUE(split(" \t \r").empty());
  EXPECT_EQ(split("a#b c"), (std::vector<std::string>{"a#b", "c"}));  // '#' inside a label
  EXPECT_TRUE(split("%%MatrixMarket matrix coordinate").empty());
  EXPECT_TRUE(split("%comment").empty());
  EXPECT_EQ(split("%C3%81ed%C3%A1n	Bede"),
            (std::vector<std::string>{"%C3%81ed%C3%A1n", "Bede"}));
}

TEST(SplitFields, EmptyTabField) {
  EXPECT_EQ(split("a\t\tb"), (std::vector<std::string>{"<empty field 2>"}));
}

TEST(ParseWeight, AcceptsOnlyFiniteNonNegativeNumbers) {
  EXPECT_DOUBLE_EQ(parse_weight("2.5", "f:1"), 2.5);
  EXPECT_DOUBLE_EQ(parse_weight("1e3", "f:1"), 1000);
  EXPECT_DOUBLE_EQ(parse_weight("0", "f:1"), 0);
  for (const char* bad : {"-1", "nan", "inf", "x", "1.5x", ""}) {
    EXPECT_THROW(parse_weight(bad, "f:1"), Error) << bad;
  }
  try {
    parse_weight("-2", "web.tsv:7");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("web.tsv:7"), std::string::npos);
  }
}

struct Recorder : RecordSink {
  std::vector<std::string> events;
  void page(std::string_view l) override { events.push_back("page " + std::string(l)); }
  void link(std::string_view s, std::string_view t, double w) override {
    events.push_back(std::string(s) + "->" + std::string(t) + " " + std::to_string(w));
  }
};

std::vector<std::string> read(const std::string& path, bool weighted = false) {
  Recorder r;
  read_edge_list(path, weighted, r, nullptr);
  return r.events;
}

TEST(ReadEdgeList, CrLfBomAndMissingFinalNewline) {
  TempDir dir;
  auto f = dir.write("e.tsv", "\xEF\xBB\xBF# header\r\na b\r\nc\r\nd e");
  EXPECT_EQ(read(f), (std::vector<std::string>{"a->b 1.000000", "page c", "d->e 1.000000"}));
}

TEST(ReadEdgeList, LongLinesSurviveBufferRefills) {
  TempDir dir;
  std::string big(9 << 20, 'x');  // longer than the 4 MiB read buffer
  auto f = dir.write("e.tsv", "a\t" + big + "\n" + big + "\tb\n");
  auto events = read(f);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1].size(), big.size() + std::string("->b 1.000000").size());
}

std::string error_of(const std::string& path, bool weighted = false) {
  try {
    read(path, weighted);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(ReadEdgeList, ErrorsNameFileAndLine) {
  TempDir dir;
  auto f = dir.write("bad.tsv", "a b\nc d e f\n");
  EXPECT_NE(error_of(f).find("bad.tsv:2: 4 fields"), std::string::npos) << error_of(f);
  auto g = dir.write("w.tsv", "a b\nc d 1.5\n");
  EXPECT_NE(error_of(g).find("w.tsv:2: 3 fields"), std::string::npos);
  EXPECT_NE(error_of(g).find("--weighted"), std::string::npos);
  EXPECT_EQ(error_of(g, true), "");
  auto h = dir.write("nul.tsv", std::string("a b\nc\0d\n", 8));
  EXPECT_NE(error_of(h).find("nul.tsv:2"), std::string::npos);
  EXPECT_NE(error_of((dir / "missing.tsv").string()).find("missing.tsv: cannot open"),
            std::string::npos);
  EXPECT_NE(error_of(dir.path().string()).find("is a directory"), std::string::npos);
}

TEST(ReadEdgeList, CompressionDetectedByMagicNotName) {
  TempDir dir;
  const std::string text = "# c\na\tb\nb\tc\n";
  const auto plain = read(dir.write("p.tsv", text));
  EXPECT_EQ(read(dir.write("g.data", gzip(text))), plain);
  EXPECT_EQ(read(dir.write("z.data", zstd(text))), plain);
  EXPECT_EQ(read(dir.write("two.gz", gzip("a\tb\n") + gzip("b\tc\n"))), plain);  // multi-member
}

TEST(ReadEdgeList, DamagedCompressedInputsNameTheFile) {
  TempDir dir;
  std::string text;
  for (int i = 0; i < 20000; ++i)
    text += std::to_string(i) + "\t" + std::to_string(i * 7 % 1000) + "\n";
  const std::string gz = gzip(text), zs = zstd(text);
  auto trunc_gz = dir.write("t.gz", gz.substr(0, gz.size() / 2));
  EXPECT_NE(error_of(trunc_gz).find("t.gz: byte"), std::string::npos) << error_of(trunc_gz);
  EXPECT_NE(error_of(trunc_gz).find("truncated"), std::string::npos);
  auto trunc_zs = dir.write("t.zst", zs.substr(0, zs.size() / 2));
  EXPECT_NE(error_of(trunc_zs).find("truncated"), std::string::npos) << error_of(trunc_zs);
  std::string bad = gz;
  bad[bad.size() / 2] ^= 0x55;
  bad[bad.size() / 2 + 1] ^= 0x55;
  auto bad_gz = dir.write("b.gz", bad);
  EXPECT_NE(error_of(bad_gz).find("b.gz"), std::string::npos);
  EXPECT_NE(error_of(bad_gz), "");
}

}  // namespace
}  // namespace webrank::testing
