// Page data of crawled webs (include/webrank/store/page_data.hpp, docs/format.md): what the builder
// stores from page records and the Database accessors return; nothing for other databases;
// damage in the page sections is caught like anywhere else.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "ingest/edge_list_reader.hpp"
#include "store/manifest_seal.hpp"
#include "test_graphs.hpp"
#include "web/url.hpp"
#include "webrank/ingest/build.hpp"
#include "webrank/ingest/update.hpp"
#include "webrank/store/database.hpp"
#include "webrank/store/page_data.hpp"
#include "webrank/util/error.hpp"
#include "writer/page_data_builder.hpp"

namespace webrank::testing {
namespace fs = std::filesystem;
namespace {

Database import_dir(const TempDir& dir) {
  BuildOptions o;
  o.inputs = {(dir / "site").string()};
  o.format = "html-dir";
  o.output = dir / "site.db";
  build_database(o);
  Database db = Database::open(dir / "site.db");
  db.verify();
  return db;
}

// A column spilled to a file as pages come (a crawl's) writes what one held in memory writes:
// pages set out of order, twice, empty, or never; the spill file is gone once written.
TEST(PageData, SpilledStringsWriteTheSameSectionsAsStringsInMemory) {
  TempDir dir;
  fs::create_directories(dir / "memory");
  fs::create_directories(dir / "spilled");
  const std::vector<std::pair<PageId, std::string>> sets = {
      {3, "third"}, {5, ""}, {1, std::string(100000, 'x')}, {6, "six"}, {3, "third, again"}};
  nlohmann::json manifests[2];
  for (int spilled = 0; spilled < 2; ++spilled) {
    const fs::path out = dir / (spilled ? "spilled" : "memory");
    PageStrings column;
    column.grow(2);
    column.set(0, "kept");
    if (spilled) column.spill_to(out / ".spill");
    for (const auto& [id, text] : sets) {
      column.grow(id + 1);
      column.set(id, text);
    }
    column.grow(9);
    column.write(out, layout::kPageTextOffsets, layout::kPageTextBytes, 9, manifests[spilled]);
    EXPECT_FALSE(fs::exists(out / ".spill"));
  }
  EXPECT_EQ(manifests[0], manifests[1]);
  for (const char* file : {layout::kPageTextOffsets.file, layout::kPageTextBytes.file}) {
    std::ifstream a(dir / "memory" / file, std::ios::binary),
        b(dir / "spilled" / file, std::ios::binary);
    const std::string x{std::istreambuf_iterator<char>(a), {}},
        y{std::istreambuf_iterator<char>(b), {}};
    EXPECT_EQ(x, y) << file;
  }
  EXPECT_EQ(manifests[1]["sections"][layout::kPageTextBytes.file]["count"], 4 + 100000 + 12 + 3);
}

TEST(PageData, StoredAndReadBack) {
  TempDir dir;
  fs::create_directories(dir / "site");
  dir.write("site/a.html",
            "<title>Page A</title><p>Alpha text</p><a href='b.html'>to B</a>"
            "<a href='c.html' rel=nofollow>to C</a><a href='b.html#x'>B again</a>");
  dir.write("site/b.html", "<title>Page B</title><a href='a.html'>back to A</a>");
  dir.write("site/dup.html", "<title>Page B</title><a href='a.html'>back to A</a>");
  const Database db = import_dir(dir);
  ASSERT_TRUE(db.has_page_data());
  const std::string base = web::file_url(fs::absolute(dir / "site").lexically_normal().string());
  const PageId a = *db.find(base + "/a.html"), b = *db.find(base + "/b.html"),
               c = *db.find(base + "/c.html"), dup = *db.find(base + "/dup.html");
  EXPECT_EQ(db.status(a), 200);
  EXPECT_EQ(db.title(a), "Page A");
  EXPECT_EQ(db.text(a), "Alpha text to B to C B again");
  EXPECT_EQ(db.final_url(a), base + "/a.html");
  EXPECT_EQ(db.anchor_text(b), "to B\nB again");
  EXPECT_EQ(db.anchor_text(a), "back to A\nback to A");
  // c was only linked: a page with no known out-links, not fetched
  EXPECT_EQ(db.status(c), 0);
  EXPECT_FALSE(db.title(c));
  EXPECT_FALSE(db.content_hash(c));
  EXPECT_EQ(db.anchor_text(c), "to C");
  // exact duplicates share the content hash
  EXPECT_EQ(db.content_hash(b), db.content_hash(dup));
  EXPECT_NE(db.content_hash(a), db.content_hash(b));
  // the nofollow link is recorded, not ranked
  ASSERT_EQ(db.nofollow_links(a).size(), 1u);
  EXPECT_EQ(db.nofollow_links(a)[0], c);
  EXPECT_EQ(db.num_nofollow_links(), 1u);
  const auto out = db.graph().out.neighbors(a);
  EXPECT_EQ(std::vector<PageId>(out.begin(), out.end()), std::vector<PageId>{b});
  // the stored copy is the HTML as read; none for a page that was not fetched
  ASSERT_TRUE(db.has_stored_html());
  EXPECT_EQ(db.html(b), "<title>Page B</title><a href='a.html'>back to A</a>");
  EXPECT_FALSE(db.html(c));
}

TEST(PageData, LinksToItselfAreKeptApartFromAnchorTexts) {
  // A one-page manual's table of contents links each of its sections by name: those texts name
  // sections, not the page (Node.js' all.html would be named "Buffer" by its own contents).
  TempDir dir;
  fs::create_directories(dir / "site");
  dir.write("site/all.html",
            "<title>Manual</title><a href='#buffer'>Buffer</a><a href='all.html#fs'>File "
            "system</a><a href='other.html'>Other</a><p id=buffer>Buffer text</p>");
  dir.write("site/other.html", "<title>Other</title><a href='all.html#buffer'>Buffer</a>");
  const Database db = import_dir(dir);
  const std::string base = web::file_url(fs::absolute(dir / "site").lexically_normal().string());
  const PageId all = *db.find(base + "/all.html"), other = *db.find(base + "/other.html");
  // from other.html, then, apart, its own table of contents
  EXPECT_EQ(db.anchor_text(all), "Buffer\n\nBuffer\nFile system");
  EXPECT_EQ(split_anchor_text(*db.anchor_text(all)).others, "Buffer");
  EXPECT_EQ(split_anchor_text(*db.anchor_text(all)).own_sections, "Buffer\nFile system");
  EXPECT_EQ(db.anchor_text(other), "Other");
  EXPECT_EQ(db.text(all), "Buffer File system Other Buffer text");  // still its own text
}

// What a recrawl sends back (ETag, Last-Modified; none for files) and the body's size; a database
// written before they were kept opens without them, and an update gives it them.
TEST(PageData, ValidatorsAndDatabasesWithoutThem) {
  TempDir dir;
  fs::create_directories(dir / "site");
  dir.write("site/a.html", "<title>A</title><a href='b.html'>b</a>");
  const std::string base = web::file_url(fs::absolute(dir / "site").lexically_normal().string());
  {
    const Database db = import_dir(dir);
    const auto v = db.validators(*db.find(base + "/a.html"));
    ASSERT_TRUE(v);
    EXPECT_EQ(v->etag, "");
    EXPECT_EQ(v->last_modified, "");
    EXPECT_EQ(v->body_bytes, fs::file_size(dir / "site/a.html"));
    EXPECT_FALSE(db.validators(*db.find(base + "/b.html")));  // not fetched
  }
  // As written before validators were kept: no such sections, no manifest flag.
  const fs::path mfile = dir / "site.db" / "manifest.json";
  nlohmann::json m;
  std::ifstream(mfile) >> m;
  m.erase("page_validators");
  for (const char* f : {"pages.etag.offsets", "pages.etag.bytes", "pages.last_modified.offsets",
                        "pages.last_modified.bytes", "pages.body_bytes"}) {
    ASSERT_TRUE(m["sections"].contains(f)) << f;
    m["sections"].erase(f);
  }
  m.erase("manifest_xxh3");
  seal_manifest(m);
  std::ofstream(mfile) << m.dump(2) << "\n";
  {
    const Database db = Database::open(dir / "site.db");
    db.verify();
    EXPECT_FALSE(db.validators(*db.find(base + "/a.html")));
    EXPECT_EQ(db.title(*db.find(base + "/a.html")), "A");
  }
  dir.write("add.tsv", base + "/a.html\tnew\n");
  UpdateOptions u;
  u.add = {(dir / "add.tsv").string()};
  update_database(dir / "site.db", u);
  {
    const Database db = Database::open(dir / "site.db");
    const auto v = db.validators(*db.find(base + "/a.html"));
    ASSERT_TRUE(v);
    EXPECT_EQ(v->body_bytes, 0u);  // unknown: fetched before sizes were kept
    EXPECT_EQ(db.html(*db.find(base + "/a.html")), "<title>A</title><a href='b.html'>b</a>");
  }
  // The flag without the sections is damage.
  std::ifstream(mfile) >> m;
  ASSERT_EQ(m.value("page_validators", false), true);
  m["sections"].erase("pages.etag.offsets");
  m.erase("manifest_xxh3");
  seal_manifest(m);
  std::ofstream(mfile) << m.dump(2) << "\n";
  try {
    Database::open(dir / "site.db");
    ADD_FAILURE() << "opened";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kCorrupt);
    EXPECT_NE(std::string(e.what()).find("page_validators"), std::string::npos) << e.what();
  }
}

TEST(PageData, StoredCopyIsCappedAndDamageIsNamed) {
  TempDir dir;
  fs::create_directories(dir / "site");
  const std::string big = "<title>Big</title><p>" + std::string(kMaxStoredHtmlBytes, 'x');
  dir.write("site/big.html", big);
  {
    const Database db = import_dir(dir);
    const std::string base = web::file_url(fs::absolute(dir / "site").lexically_normal().string());
    const auto html = db.html(*db.find(base + "/big.html"));
    ASSERT_TRUE(html);
    EXPECT_EQ(*html, big.substr(0, kMaxStoredHtmlBytes));
  }
  // A damaged frame: the checksum catches it on verify; read without verifying, html() names the
  // file and byte instead of returning garbage.
  const fs::path bytes = dir / "site.db" / "pages.html.bytes";
  std::fstream f(bytes, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(64);
  f.put('\xff');
  f.put('\xff');
  f.close();
  const Database db = Database::open(dir / "site.db");
  EXPECT_THROW(db.verify(), Error);
  try {
    (void)db.html(0);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kCorrupt);
    EXPECT_NE(std::string(e.what()).find("pages.html.bytes: byte 64"), std::string::npos)
        << e.what();
  }
}

TEST(PageData, RedirectChainsEndWhereTheyEnd) {
  struct Sink : RecordSink {
    void page(std::string_view) override {}
    void link(std::string_view, std::string_view, double) override {}
  };
  TempDir dir;
  // Three hops journaled as WARC responses: /1 -> /2 -> /3 (200).
  std::string warc;
  auto rec = [&](const std::string& url, const std::string& http) {
    warc += "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: " + url +
            "\r\nContent-Length: " + std::to_string(http.size()) + "\r\n\r\n" + http + "\r\n\r\n";
  };
  rec("http://x.org/1", "HTTP/1.1 301 Moved\r\nLocation: /2\r\n\r\n");
  rec("http://x.org/2", "HTTP/1.1 302 Found\r\nLocation: http://x.org/3\r\n\r\n");
  rec("http://x.org/3", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<title>three</title>");
  BuildOptions o;
  o.inputs = {dir.write("r.warc", warc)};
  o.output = dir / "r.db";
  build_database(o);
  const Database db = Database::open(dir / "r.db");
  EXPECT_EQ(db.status(*db.find("http://x.org/1")), 301);
  EXPECT_EQ(db.final_url(*db.find("http://x.org/1")), "http://x.org/3");
  EXPECT_EQ(db.final_url(*db.find("http://x.org/2")), "http://x.org/3");
  EXPECT_EQ(db.title(*db.find("http://x.org/3")), "three");
  EXPECT_EQ(db.num_links(), 2u);  // a redirect is a link
}

TEST(PageData, AbsentFromOtherDatabases) {
  TempDir dir;
  BuildOptions o;
  o.inputs = {dir.write("e.tsv", "a\tb\n")};
  o.output = dir / "e.db";
  build_database(o);
  const Database db = Database::open(dir / "e.db");
  EXPECT_FALSE(db.has_page_data());
  EXPECT_FALSE(db.status(0));
  EXPECT_FALSE(db.title(0));
  EXPECT_FALSE(db.anchor_text(0));
  EXPECT_TRUE(db.nofollow_links(0).empty());
  EXPECT_FALSE(fs::exists(dir / "e.db" / "pages.status"));
}

TEST(PageData, DamageIsCaught) {
  TempDir dir;
  fs::create_directories(dir / "site");
  dir.write("site/a.html", "<title>Page A</title><a href='b.html'>to B</a>");
  { import_dir(dir); }
  const fs::path f = dir / "site.db" / "pages.title.bytes";
  {
    std::fstream io(f, std::ios::in | std::ios::out | std::ios::binary);
    io.seekp(66);
    io.put('#');
  }
  const Database db = Database::open(dir / "site.db");
  try {
    db.verify();
    FAIL() << "damage not caught";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("pages.title.bytes"), std::string::npos) << e.what();
  }
  fs::remove(dir / "site.db" / "pages.status");
  EXPECT_THROW(Database::open(dir / "site.db"), Error);
}

}  // namespace
}  // namespace webrank::testing
