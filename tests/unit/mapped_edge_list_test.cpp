// The parallel edge-list readers (a mapped file, or a stream read into buffers; chunks parsed on
// all threads) against the sequential reader: the same records in the same order, the same line
// counts and the same errors, wherever the chunk boundaries fall; and builds byte-identical
// databases.
#include "ingest/mapped_edge_list.hpp"

#include <omp.h>

#include <fstream>
#include <random>

#include "test_graphs.hpp"
#include "util/input_stream.hpp"
#include "webrank/ingest/build.hpp"
#include "webrank/util/error.hpp"

namespace webrank::testing {
namespace {
namespace fs = std::filesystem;

struct Recorder : RecordSink {
  std::vector<std::string> events;
  void page(std::string_view l) override { events.push_back("page " + std::string(l)); }
  void link(std::string_view s, std::string_view t, double w) override {
    events.push_back(std::string(s) + "->" + std::string(t) + " " + std::to_string(w));
  }
};

struct Outcome {
  std::vector<std::string> events;
  std::uint64_t lines = 0;
  std::string error;
  bool operator==(const Outcome&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Outcome& o) {
  os << o.lines << " lines, error '" << o.error << "', events:";
  for (const auto& e : o.events) os << " [" << e << "]";
  return os;
}

template <typename Read>
Outcome run(Read read) {
  Outcome o;
  Recorder r;
  try {
    o.lines = read(r);
  } catch (const Error& e) {
    o.error = e.what();
  }
  o.events = std::move(r.events);
  if (!o.error.empty()) o.lines = 0;  // not returned on failure
  return o;
}

Outcome streamed(const std::string& path, bool weighted) {
  return run([&](Recorder& r) { return read_edge_list_stream(path, weighted, r, nullptr); });
}

Outcome mapped(const std::string& path, bool weighted, std::size_t chunk) {
  return run([&](Recorder& r) { return read_mapped_edge_list(path, weighted, r, nullptr, chunk); });
}

Outcome decompressed(const std::string& path, bool weighted, std::size_t chunk) {
  return run(
      [&](Recorder& r) { return read_streamed_edge_list(path, weighted, r, nullptr, chunk); });
}

// Every chunk size from 1 byte (a chunk per line) to past the file, on 1 and several threads,
// for the mapped file and for its gzip version read through buffers.
void expect_same_as_stream(const std::string& path, bool weighted) {
  const Outcome expected = streamed(path, weighted);
  const std::size_t size = fs::file_size(path);
  const std::string gz = path + ".gz";
  {
    std::ifstream in(path, std::ios::binary);
    std::ofstream(gz, std::ios::binary)
        << gzip(std::string(std::istreambuf_iterator<char>(in), {}));
  }
  Outcome expected_gz = streamed(gz, weighted);
  for (int threads : {1, 3}) {
    omp_set_num_threads(threads);
    for (std::size_t chunk = 1; chunk <= size + 1; chunk += chunk < 16 ? 1 : chunk / 3) {
      EXPECT_EQ(mapped(path, weighted, chunk), expected)
          << path << " chunk " << chunk << " threads " << threads;
      EXPECT_EQ(decompressed(gz, weighted, chunk), expected_gz)
          << gz << " chunk " << chunk << " threads " << threads;
    }
  }
  omp_set_num_threads(omp_get_num_procs());
}

TEST(MappedEdgeList, SameRecordsAsTheStreamingReader) {
  TempDir dir;
  const std::vector<std::string> inputs = {
      "1\t2\n2\t3\n3\t1\n",
      "1 2\n2  3\n  3\t1  \n1\t2\n",  // blanks, tabs with blanks, a repeated link
      "\xEF\xBB\xBF"
      "5\t6\r\n6\t7\r\n7\t5",  // BOM, CRLF, no final newline
      "# comment\n% comment\n\n   # indented\n10\t20\n%C3%81ed%C3%A1n\t20\n",
      "http://a/x y\thttp://b/\nhttp://b/\thttp://a/x y\n1\thttp://c/\n",
      "solo\n7\n7\t8\n8\n",                                       // one-field page lines
      "007\t7\n0\t00\n4294967295\t4294967294\n12345678901\t1\n",  // not canonical numbers
      "1\t2\n\n\n3\t4\n\r\n \t \n5\t6\n",
      "1\t2\r",  // a last line with only '\r' after it
      "",
      "\xEF\xBB\xBF",
      "\n\n\n",
      "a\tb\t2.5\n",  // a third field: an error unless weighted
  };
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string path = dir.write("in" + std::to_string(i) + ".tsv", inputs[i]);
    expect_same_as_stream(path, false);
  }
  const std::string w = dir.write("w.tsv", "1\t2\t0.5\n2 3 1e3\n2\t3\n3\ta\t7\nx y 0\n");
  expect_same_as_stream(w, true);
}

TEST(MappedEdgeList, BadLinesReportTheGlobalLineNumber) {
  TempDir dir;
  std::string good;
  for (int i = 0; i < 200; ++i) good += std::to_string(i) + "\t" + std::to_string(i + 1) + "\n";
  const std::vector<std::pair<std::string, bool>> bad = {
      {"a\t\tb\n", false},
      {"a b c d\n", false},
      {"a b c\n", false},
      {"a b -1\n", true},
      {"a b nan\n", true},
      {"a b x\n", true},
      {std::string("a\0b\n", 4), false},
      {"# ok\n1\t\t2\n", false},
  };
  for (std::size_t i = 0; i < bad.size(); ++i) {
    const std::string path =
        dir.write("bad" + std::to_string(i) + ".tsv", good + bad[i].first + good);
    const Outcome expected = streamed(path, bad[i].second);
    ASSERT_NE(expected.error, "") << path;
    EXPECT_NE(expected.error.find(path + ":"), std::string::npos) << expected.error;
    for (std::size_t chunk : {1, 7, 100, 1000, 100000}) {
      EXPECT_EQ(mapped(path, bad[i].second, chunk), expected) << path << " chunk " << chunk;
      EXPECT_EQ(decompressed(path, bad[i].second, chunk), expected) << path << " chunk " << chunk;
    }
  }
}

TEST(MappedEdgeList, LargeMixedInput) {
  TempDir dir;
  std::mt19937 rng(7);
  std::string text;
  for (int i = 0; i < 30000; ++i) {
    const int kind = static_cast<int>(rng() % 20);
    const auto a = rng() % 5000, b = rng() % 5000;
    if (kind == 0) {
      text += "http://h" + std::to_string(a) + "/\t" + std::to_string(b) + "\n";
    } else if (kind == 1) {
      text += std::to_string(a) + "\n";
    } else if (kind == 2) {
      text += "# " + std::to_string(a) + "\n";
    } else if (kind == 3) {
      text += std::to_string(a) + " " + std::to_string(b) + "\r\n";
    } else {
      text += std::to_string(a) + "\t" + std::to_string(b) + "\n";
    }
  }
  const std::string path = dir.write("mixed.tsv", text);
  const Outcome expected = streamed(path, false);
  for (std::size_t chunk : {std::size_t{1}, std::size_t{333}, std::size_t{4096}, text.size()}) {
    EXPECT_EQ(mapped(path, false, chunk), expected) << chunk;
    EXPECT_EQ(decompressed(path, false, chunk), expected) << chunk;
  }
}

// The numeric fast path reads numbers 8 bytes at a time: every length from 1 to 11 digits, the
// largest page id and past it, leading zeros, and each number followed by every kind of byte
// (separators, line ends, letters, bytes past 0x7F, another digit), far from and near the
// chunk's end, must give the general rule's records.
TEST(MappedEdgeList, NumbersOfEveryLengthAndEveryFollowingByte) {
  TempDir dir;
  std::mt19937_64 rng(11);
  const std::vector<std::string> special = {"0",          "00",         "01",         "9",
                                            "99999999",   "100000000",  "012345678",  "4294967294",
                                            "4294967295", "4294967296", "99999999999"};
  // What may follow a number without making the line an error.
  const std::vector<std::string> after_source = {" ",    "  ",   "\n", "\r\n", "x", "\xC3\xA9",
                                                 "\x80", "\xB5", ":",  "/",    "0", "\t "};
  const std::vector<std::string> after_target = {" ",    "\r", "x", "\xC3\xA9", "\x80",
                                                 "\xB0", ":",  "/", "0"};
  auto number = [&] {
    if (rng() % 4 == 0) return special[rng() % special.size()];
    const int digits = 1 + static_cast<int>(rng() % 10);
    std::string n = std::to_string(1 + rng() % 9);
    while (static_cast<int>(n.size()) < digits) n += static_cast<char>('0' + rng() % 10);
    return n;
  };
  std::string text;
  for (int i = 0; i < 6000; ++i) {
    text += number();
    text += rng() % 8 == 0 ? after_source[rng() % after_source.size()]
                           : std::string(rng() % 5 ? "\t" : " ");
    text += number();
    if (rng() % 8 == 0) text += after_target[rng() % after_target.size()];
    text += "\n";
  }
  const std::string path = dir.write("numbers.tsv", text);
  const Outcome expected = streamed(path, false);
  ASSERT_GT(expected.events.size(), 1000u) << expected;
  for (std::size_t chunk :
       {std::size_t{1}, std::size_t{10}, std::size_t{37}, std::size_t{4096}, text.size()}) {
    EXPECT_EQ(mapped(path, false, chunk), expected) << chunk;
  }
}

TEST(MappedEdgeList, OnlyPlainRegularFilesAreMapped) {
  TempDir dir;
  EXPECT_TRUE(is_plain_file(dir.write("p.tsv", "a\tb\n")));
  EXPECT_TRUE(is_plain_file(dir.write("empty.tsv", "")));
  EXPECT_FALSE(is_plain_file(dir.write("g.tsv", gzip("a\tb\n"))));
  EXPECT_FALSE(is_plain_file(dir.write("z.tsv", zstd("a\tb\n"))));
  EXPECT_FALSE(is_plain_file("-"));
  EXPECT_FALSE(is_plain_file(dir.path().string()));
  EXPECT_FALSE(is_plain_file((dir / "missing.tsv").string()));
}

std::string file_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Every file of two database directories, byte for byte.
void expect_identical_databases(const fs::path& a, const fs::path& b) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(a)) names.push_back(e.path().filename().string());
  std::size_t count = 0;
  for (const auto& e : fs::directory_iterator(b)) {
    (void)e;
    ++count;
  }
  EXPECT_EQ(names.size(), count);
  for (const auto& name : names) {
    if (name == "manifest.json") continue;  // names the inputs
    EXPECT_EQ(file_bytes(a / name), file_bytes(b / name)) << name;
  }
}

TEST(MappedEdgeList, BuildsTheSameDatabaseAsTheStreamingReader) {
  TempDir dir;
  std::mt19937 rng(11);
  std::string numeric, labels, weighted;
  for (int i = 0; i < 50000; ++i) {
    const auto a = rng() % 3000, b = rng() % 3000;
    numeric += std::to_string(a) + "\t" + std::to_string(b) + "\n";
    labels += (i % 7 ? std::to_string(a) : "http://x/" + std::to_string(a)) + "\t" +
              std::to_string(b) + "\n";
    weighted += std::to_string(a) + " " + std::to_string(b) + " " + std::to_string(rng() % 97) +
                "." + std::to_string(rng() % 10) + "\n";
  }
  int k = 0;
  for (const auto& [text, w] : std::vector<std::pair<std::string, bool>>{
           {numeric, false}, {labels, false}, {weighted, true}, {numeric, true}}) {
    const std::string name = "in" + std::to_string(k++);
    BuildOptions plain;
    plain.inputs = {dir.write(name + ".tsv", text)};
    plain.output = dir / (name + "-plain.db");
    plain.weighted = w;
    build_database(plain);
    BuildOptions gz = plain;
    gz.inputs = {dir.write(name + ".tsv.gz", gzip(text))};
    gz.output = dir / (name + "-gz.db");
    build_database(gz);
    expect_identical_databases(plain.output, gz.output);
  }
}

}  // namespace
}  // namespace webrank::testing
