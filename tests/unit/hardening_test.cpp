// Hostile inputs and lying databases (docs/hardening.md): the manifest's own checksum and its
// cross-checks, JSON of text that is not UTF-8, the longest line a reader buffers, claimed sizes
// checked before anything is allocated. Every input is made here.
#include <fstream>
#include <nlohmann/json.hpp>

#include "ingest/edge_list_reader.hpp"
#include "store/manifest_seal.hpp"
#include "test_graphs.hpp"
#include "util/input_stream.hpp"
#include "webrank/ingest/build.hpp"
#include "webrank/json.hpp"
#include "webrank/store/database.hpp"
#include "webrank/util/error.hpp"

namespace webrank::testing {
namespace fs = std::filesystem;
namespace {

std::string open_error(const fs::path& db, bool verify) {
  try {
    Database d = Database::open(db);
    if (verify) d.verify();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

nlohmann::json read_json(const fs::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

void write_json(const fs::path& p, const nlohmann::json& j) {
  std::ofstream(p) << j.dump(2) << "\n";
}

fs::path build_db(const TempDir& dir, const std::string& text, bool weighted) {
  BuildOptions o;
  o.inputs = {dir.write("web.tsv", text)};
  o.output = dir / "web.db";
  o.weighted = weighted;
  build_database(o);
  return dir / "web.db";
}

TEST(ManifestSeal, SealedManifestsOpenAndAnyEditedValueIsCaught) {
  TempDir dir;
  const fs::path db = build_db(dir, "a\tb\t1\nb\tc\t2\nc\tc\t1\nd\n", true);
  const fs::path mfile = db / "manifest.json";
  const nlohmann::json pristine = read_json(mfile);
  ASSERT_TRUE(pristine.contains(kManifestChecksumKey));
  EXPECT_EQ(open_error(db, true), "");
  // Re-indenting keeps the same JSON value: still valid.
  std::ofstream(mfile) << pristine.dump(7);
  EXPECT_EQ(open_error(db, true), "");
  const std::pair<const char*, nlohmann::json> edits[] = {
      {"dangling_pages", 0}, {"self_links", 0}, {"weighted", false}, {"page_data", true},
      {"pages", 3},          {"links", 2},      {"inputs", "x"},     {kManifestChecksumKey, "0"}};
  for (const auto& [key, value] : edits) {
    nlohmann::json m = pristine;
    m[key] = value;
    write_json(mfile, m);
    const std::string e = open_error(db, false);
    EXPECT_NE(e.find("manifest.json: damaged"), std::string::npos) << key << ": " << e;
  }
  nlohmann::json m = pristine;
  m.erase(kManifestChecksumKey);
  write_json(mfile, m);
  EXPECT_NE(open_error(db, false).find("manifest_xxh3"), std::string::npos);
}

// A manifest edited and sealed again (a writer bug, or someone who knows the checksum) is still
// caught: its flags against the sections at open, its counts against the links by verify().
TEST(ManifestSeal, ResealedLiesAreCaughtByTheCrossChecks) {
  TempDir dir;
  const fs::path db = build_db(dir, "a\tb\t1\nb\tc\t2\nc\tc\t1\nd\n", true);
  const fs::path mfile = db / "manifest.json";
  const nlohmann::json pristine = read_json(mfile);
  struct Case {
    const char* key;
    nlohmann::json value;
    bool at_open;
    const char* says;
  };
  const Case cases[] = {{"weighted", false, true, "\"weighted\": false"},
                        {"page_data", true, true, "\"page_data\": true"},
                        {"dangling_pages", 0, false, "\"dangling_pages\": 0"},
                        {"self_links", 0, false, "\"self_links\": 0"}};
  for (const Case& c : cases) {
    nlohmann::json m = pristine;
    m[c.key] = c.value;
    seal_manifest(m);
    write_json(mfile, m);
    if (!c.at_open) {
      EXPECT_EQ(open_error(db, false), "") << c.key;
    }
    const std::string e = open_error(db, true);
    EXPECT_NE(e.find(c.says), std::string::npos) << c.key << ": " << e;
  }
  write_json(mfile, pristine);
  EXPECT_EQ(open_error(db, true), "");
}

TEST(JsonText, InvalidUtf8BecomesReplacementCharactersWithTheRawBytesBeside) {
  nlohmann::json j;
  set_text(j, "label", "caf\xC3\xA9 \xF0\x9F\x98\x80");
  EXPECT_EQ(j["label"], "caf\xC3\xA9 \xF0\x9F\x98\x80");
  EXPECT_FALSE(j.contains("label_hex"));
  // A stray continuation byte, a truncated sequence, an overlong form, a surrogate, > U+10FFFF.
  const std::vector<std::string> bads = {"a\x80z",           "a\xC3",
                                         "\xC0\xAF",         "\xED\xA0\x80",
                                         "\xF4\x90\x80\x80", std::string("\xFF\x00", 2)};
  for (const std::string& bad : bads) {
    nlohmann::json k;
    set_text(k, "label", bad);
    const std::string s = k["label"];
    EXPECT_NE(s.find("\xEF\xBF\xBD"), std::string::npos);
    EXPECT_EQ(k["label_hex"].get<std::string>().size(), 2 * bad.size());
    EXPECT_NO_THROW((void)json_text(k));
    EXPECT_TRUE(nlohmann::json::accept(k.dump()));
  }
  nlohmann::json k;
  set_text(k, "t", "\xFF");
  EXPECT_EQ(k["t_hex"], "ff");
  // The last resort of every front end: a raw string never makes printing throw.
  EXPECT_NO_THROW((void)json_text(nlohmann::json{{"x", "\xFF"}}));
}

TEST(LineLimit, ALineLongerThanTheLimitFailsBeforeItIsAllBuffered) {
  TempDir dir;
  const std::string path = (dir / "long.txt").string();
  {
    std::ofstream out(path, std::ios::binary);
    out << "a b\n";
    const std::string block(1 << 20, 'x');
    for (std::size_t i = 0; i <= kMaxLineBytes >> 20; ++i) out << block;
    out << "\n";
  }
  auto in = open_input(path);
  LineReader reader(*in);
  std::string_view line;
  ASSERT_TRUE(reader.next(line));
  try {
    reader.next(line);
    FAIL() << "a line over the limit was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("long.txt:2: longer than 64 MiB"), std::string::npos)
        << e.what();
  }
}

TEST(LineLimit, ANulByteFailsAtOnceEvenWithoutALineEnd) {
  TempDir dir;
  const std::string path = (dir / "nul.txt").string();
  {
    std::ofstream out(path, std::ios::binary);
    out << "a b\nc d\n";
  }
  fs::resize_file(path, 1ull << 33);  // 8 GiB, sparse: NUL bytes to the end, no line end
  auto in = open_input(path);
  LineReader reader(*in);
  std::string_view line;
  ASSERT_TRUE(reader.next(line));
  ASSERT_TRUE(reader.next(line));
  try {
    reader.next(line);
    FAIL() << "NUL bytes were read as text";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("nul.txt:3: contains a NUL byte"), std::string::npos)
        << e.what();
  }
  EXPECT_LE(in->raw_position(), std::uint64_t{16} << 20);
}

TEST(ReadFilePrefix, ReadsAtMostTheLimit) {
  TempDir dir;
  const std::string path = dir.write("f.html", "0123456789");
  bool truncated = true;
  EXPECT_EQ(read_file_prefix(path, 20, &truncated), "0123456789");
  EXPECT_FALSE(truncated);
  EXPECT_EQ(read_file_prefix(path, 10, &truncated), "0123456789");
  EXPECT_FALSE(truncated);
  EXPECT_EQ(read_file_prefix(path, 4, &truncated), "0123");
  EXPECT_TRUE(truncated);
  fs::resize_file(path, 1ull << 34);  // 16 GiB, sparse
  EXPECT_EQ(read_file_prefix(path, 1 << 20, &truncated).size(), 1u << 20);
  EXPECT_TRUE(truncated);
}

}  // namespace
}  // namespace webrank::testing
