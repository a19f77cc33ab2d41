// Building, opening and verifying link databases; what a failed build leaves behind.
#include "webrank/store/database.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>

#include "test_graphs.hpp"
#include "webrank/ingest/build.hpp"
#include "webrank/store/rank_store.hpp"
#include "webrank/store/summary.hpp"
#include "webrank/util/error.hpp"
#include "writer/page_order.hpp"

namespace webrank::testing {
namespace fs = std::filesystem;
namespace {

Database build(const TempDir& dir, const std::string& text, bool weighted = false,
               const std::string& name = "web.db") {
  BuildOptions o;
  o.inputs = {dir.write(name + ".tsv", text)};
  o.output = dir / name;
  o.weighted = weighted;
  build_database(o);
  Database db = Database::open(dir / name);
  db.verify();
  return db;
}

std::vector<std::string> out_labels(const Database& db, const std::string& label) {
  std::vector<std::string> out;
  for (PageId t : db.graph().out.neighbors(*db.find(label))) out.emplace_back(db.label(t));
  return out;
}

TEST(Database, IdsFollowFirstAppearanceAndLinksMerge) {
  TempDir dir;
  Database db = build(dir, "# web\n10 3\n3 10\n10 3\n7\n3 3\n10 7\n");
  EXPECT_EQ(db.num_pages(), 3u);
  EXPECT_EQ(db.num_links(), 4u);  // 10->3 once, 3->10, 3->3, 10->7
  EXPECT_EQ(db.label(0), "10");
  EXPECT_EQ(db.label(1), "3");
  EXPECT_EQ(db.label(2), "7");
  EXPECT_EQ(db.stats().self_links, 1u);
  EXPECT_EQ(db.stats().dangling_pages, 1u);  // 7
  EXPECT_EQ(out_labels(db, "10"), (std::vector<std::string>{"3", "7"}));
  EXPECT_EQ(out_labels(db, "3"), (std::vector<std::string>{"10", "3"}));
  EXPECT_FALSE(db.find("4").has_value());
  // Backlinks are the transpose, sorted by source id.
  const GraphView& g = db.graph();
  EXPECT_EQ(std::vector<PageId>(g.in.neighbors(1).begin(), g.in.neighbors(1).end()),
            (std::vector<PageId>{0, 1}));
}

TEST(Database, WeightsOfIdenticalLinksAdd) {
  TempDir dir;
  Database db = build(dir, "a\tb\t1.5\na\tb\t2\na\tc\t0.5\n", true);
  ASSERT_TRUE(db.stats().weighted);
  const GraphView& g = db.graph();
  const PageId a = *db.find("a");
  ASSERT_EQ(g.out.degree(a), 2u);
  EXPECT_DOUBLE_EQ(g.out.neighbor_weights(a)[0], 3.5);
  EXPECT_DOUBLE_EQ(g.out.neighbor_weights(a)[1], 0.5);
  EXPECT_DOUBLE_EQ(g.in.neighbor_weights(*db.find("b"))[0], 3.5);
}

TEST(Database, LabelLookupOverManyPages) {
  TempDir dir;
  std::string text;
  for (int i = 0; i < 50000; ++i)
    text += "http://host" + std::to_string(i % 97) + "/page " + std::to_string(i) + "\tx\n";
  Database db = build(dir, text);
  EXPECT_EQ(db.num_pages(), 50001u);
  for (int i = 0; i < 50000; i += 4999) {
    const std::string url = "http://host" + std::to_string(i % 97) + "/page " + std::to_string(i);
    ASSERT_TRUE(db.find(url).has_value()) << url;
    EXPECT_EQ(db.label(*db.find(url)), url);
  }
  EXPECT_FALSE(db.find("http://host1/page 2").has_value());
}

std::string open_error(const fs::path& p) {
  try {
    Database db = Database::open(p);
    db.verify();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Database, DamageIsReportedWithFileAndByteOffset) {
  for (const char* section : {"fwd.targets", "bwd.offsets", "labels.bytes", "labels.index"}) {
    TempDir dir;
    build(dir, "a b\nb c\nc a\nd a\n");
    const fs::path file = dir / "web.db" / section;
    // Flip one payload byte: caught by the block checksums.
    {
      std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
      f.seekp(64);
      char c;
      f.read(&c, 1);
      f.seekp(64);
      c ^= 0x20;
      f.write(&c, 1);
    }
    std::string e = open_error(dir / "web.db");
    EXPECT_NE(e.find(section), std::string::npos) << e;
    EXPECT_NE(e.find("byte"), std::string::npos) << e;
    // Truncate: caught at open by the size check.
    fs::resize_file(file, fs::file_size(file) - 3);
    e = open_error(dir / "web.db");
    EXPECT_NE(e.find(section), std::string::npos) << e;
    EXPECT_NE(e.find("truncated"), std::string::npos) << e;
  }
}

TEST(Database, MissingOrForeignFiles) {
  TempDir dir;
  build(dir, "a b\n");
  build(dir, "x y\ny z\n", false, "other.db");
  fs::copy_file(dir / "other.db" / "fwd.targets", dir / "web.db" / "fwd.targets",
                fs::copy_options::overwrite_existing);
  EXPECT_NE(open_error(dir / "web.db").find("fwd.targets"), std::string::npos);
  fs::remove(dir / "other.db" / "labels.index");
  EXPECT_NE(open_error(dir / "other.db").find("labels.index"), std::string::npos);
  EXPECT_NE(open_error(dir / "nothing.db").find("no such directory"), std::string::npos);
  std::ofstream(dir / "web.db" / "manifest.json") << "{\"format\": \"webrank-db\", ";
  EXPECT_NE(open_error(dir / "web.db").find("manifest.json: byte"), std::string::npos);
}

std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(Build, FailureLeavesNothingAndKeepsTheOldDatabase) {
  TempDir dir;
  build(dir, "a b\n");
  const auto before = entries(dir.path());
  BuildOptions o;
  o.inputs = {dir.write("bad.tsv", "a b\nc d e f\n")};
  o.output = dir / "web.db";
  o.force = true;
  EXPECT_THROW(build_database(o), Error);
  auto after = entries(dir.path());
  after.erase(std::remove(after.begin(), after.end(), "bad.tsv"), after.end());
  EXPECT_EQ(after, before);
  EXPECT_EQ(Database::open(dir / "web.db").num_pages(), 2u);

  o.output = dir / "new.db";
  EXPECT_THROW(build_database(o), Error);
  EXPECT_FALSE(fs::exists(dir / "new.db"));

  o.inputs = {dir.write("empty.tsv", "# nothing\n\n")};
  try {
    build_database(o);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("empty.tsv: no links or pages"), std::string::npos);
  }
  EXPECT_FALSE(fs::exists(dir / "new.db"));
}

TEST(Build, ReplacesOnlyWithForceAndOnlyDatabases) {
  TempDir dir;
  build(dir, "a b\n");
  BuildOptions o;
  o.inputs = {dir.write("two.tsv", "a b\nb c\n")};
  o.output = dir / "web.db";
  EXPECT_THROW(build_database(o), Error);
  o.force = true;
  build_database(o);
  EXPECT_EQ(Database::open(dir / "web.db").num_pages(), 3u);
  fs::create_directory(dir / "precious");
  o.output = dir / "precious";
  EXPECT_THROW(build_database(o), Error);
  EXPECT_TRUE(fs::exists(dir / "precious"));
}

TEST(Build, StaleTemporariesOfDeadProcessesAreRemoved) {
  TempDir dir;
  // PID 2^22+1 is above Linux's pid_max default range, so no such process exists.
  fs::create_directory(dir / ".web.db.webrank-tmp.4194305");
  fs::create_directory(dir / ".web.db.webrank-tmp.4194305.12");   // numbered per write
  fs::create_directory(dir / ".web.db.webrank-tmp.4194305.old");  // a database moved aside: kept
  build(dir, "a b\n");
  EXPECT_FALSE(fs::exists(dir / ".web.db.webrank-tmp.4194305"));
  EXPECT_FALSE(fs::exists(dir / ".web.db.webrank-tmp.4194305.12"));
  EXPECT_TRUE(fs::exists(dir / ".web.db.webrank-tmp.4194305.old"));
}

// Builds the same web in input order and in `order`; checks that only the ids changed and
// returns the reordered database's labels in id order.
std::vector<std::string> check_reordered(PageOrder order, const std::string& text) {
  TempDir dir;
  const std::string input = dir.write("w.tsv", text);
  BuildOptions o;
  o.inputs = {input};
  o.output = dir / "input.db";
  build_database(o);
  o.output = dir / "ordered.db";
  o.order = order;
  build_database(o);
  const Database a = Database::open(dir / "input.db"), b = Database::open(dir / "ordered.db");
  b.verify();
  EXPECT_EQ(a.num_pages(), b.num_pages());
  EXPECT_EQ(a.num_links(), b.num_links());
  RankOptions r;
  r.tol = 1e-14;
  const RankResult ra = compute_rank(a.graph(), r), rb = compute_rank(b.graph(), r);
  double l1 = 0;
  for (PageId u = 0; u < a.num_pages(); ++u) {
    const std::string_view label = a.label(u);
    const PageId v = *b.find(label);
    EXPECT_EQ(b.label(v), label);
    EXPECT_EQ(a.graph().out.degree(u), b.graph().out.degree(v));
    l1 += std::abs(ra.ranks[u] - rb.ranks[v]);
  }
  EXPECT_LT(l1, 1e-12) << to_string(order);
  if (order == PageOrder::kDegree) {
    for (PageId u = 0; u + 1 < b.num_pages(); ++u) {
      EXPECT_GE(b.graph().out.degree(u), b.graph().out.degree(u + 1));
    }
  }
  std::vector<std::string> labels;
  for (PageId u = 0; u < b.num_pages(); ++u) labels.emplace_back(b.label(u));
  return labels;
}

TEST(Build, DegreeOrderChangesIdsNotLabelsLinksOrRanks) {
  std::string text;
  std::mt19937 rng(3);
  for (int i = 0; i < 3000; ++i) {
    text += "p" + std::to_string(rng() % 400) + "\tp" + std::to_string(rng() % 500) + "\n";
  }
  check_reordered(PageOrder::kDegree, text);
}

TEST(Build, UrlOrderGroupsSitesByReversedHost) {
  std::string text;
  std::mt19937 rng(5);
  const std::vector<std::string> sites = {"http://www.b.example.com", "https://a.example.com",
                                          "http://example.org:8080", "http://c.example.com"};
  for (int i = 0; i < 2000; ++i) {
    const auto page = [&] {
      return sites[rng() % sites.size()] + "/p" + std::to_string(rng() % 50);
    };
    text += page() + "\t" + page() + "\n";
  }
  text += "plain-label\thttp://c.example.com/p1\n";
  const std::vector<std::string> labels = check_reordered(PageOrder::kUrl, text);
  std::vector<std::string> keys;
  for (const auto& l : labels) keys.push_back(url_order_key(l));
  EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
  EXPECT_EQ(labels.back(), "plain-label");  // labels that are not URLs come last
  // com.example.a < com.example.b < com.example.c < org.example
  EXPECT_EQ(labels.front().rfind("https://a.example.com/", 0), 0u) << labels.front();
  EXPECT_EQ(url_order_key("http://www.b.example.com/x?q=1"),
            "\x01"
            "com.example.b/x?q=1");
  EXPECT_EQ(url_order_key("https://user@Host.org:81"),
            "\x01"
            "org.Host:81/");
  EXPECT_EQ(url_order_key("42"),
            "\x02"
            "42");
}

TEST(RankStore, RoundTripAndTsv) {
  TempDir dir;
  Database db = build(dir, "a b\nb a\nb c\n");
  RankOptions o;
  o.tol = 1e-14;
  RankResult r = compute_rank(db.graph(), o);
  save_ranks(db, "pr", r, o);
  StoredRanks s = load_ranks(db, "pr");
  EXPECT_EQ(s.values, r.ranks);
  EXPECT_TRUE(s.record.converged);
  EXPECT_EQ(s.record.deltas, r.deltas);
  EXPECT_EQ(db.rank_names(), std::vector<std::string>{"pr"});
  write_rank_tsv(db, r.ranks, (dir / "pr.tsv").string());
  std::ifstream in(dir / "pr.tsv");
  std::string label;
  double value;
  in >> label >> value;
  EXPECT_EQ(label, "a");
  EXPECT_EQ(value, r.ranks[0]);  // 17 significant digits round-trip exactly
  write_rank_tsv(db, r.ranks, (dir / "scaled.tsv").string(), 3.0);
  std::ifstream scaled(dir / "scaled.tsv");
  scaled >> label >> value;
  EXPECT_DOUBLE_EQ(value, 3.0 * r.ranks[0]);
  // Through a symlink the target is replaced and the link kept.
  fs::create_symlink(dir / "scaled.tsv", dir / "link.tsv");
  write_rank_tsv(db, r.ranks, (dir / "link.tsv").string());
  EXPECT_TRUE(fs::is_symlink(dir / "link.tsv"));
  std::ifstream relinked(dir / "scaled.tsv");
  relinked >> label >> value;
  EXPECT_EQ(value, r.ranks[0]);
  EXPECT_THROW(load_ranks(db, "missing"), Error);
  EXPECT_THROW(save_ranks(db, "../escape", r, o), Error);
}

TEST(RankStore, FingerprintChangesWithEveryStoredVectorOnly) {
  TempDir dir;
  Database db = build(dir, "a b\nb a\nb c\n");
  const std::string none = ranks_fingerprint(db);
  EXPECT_EQ(none, ranks_fingerprint(db));
  RankOptions o;
  RankResult r = compute_rank(db.graph(), o);
  save_ranks(db, "pr", r, o);
  const std::string one = ranks_fingerprint(db);
  EXPECT_NE(one, none);
  (void)load_ranks(db, "pr");  // reading changes nothing
  EXPECT_EQ(ranks_fingerprint(db), one);
  save_ranks(db, "pr", r, o);  // the same values stored again: new files
  const std::string again = ranks_fingerprint(db);
  EXPECT_NE(again, one);
  save_ranks(db, "other", r, o);
  EXPECT_NE(ranks_fingerprint(db), again);
  delete_ranks(db, "other");
  EXPECT_EQ(ranks_fingerprint(db), again);
}

// Threads of one process storing, reading, summarizing and deleting one vector at once: each
// read sees the vector whole or not at all (not found), never a damaged pair, and a summary of
// the database never fails on a file another thread renamed or removed meanwhile.
TEST(RankStore, ConcurrentWritesReadsAndDeletesOfOneName) {
  TempDir dir;
  std::string text;
  for (int i = 0; i < 300; ++i) text += cat(i, ' ', (i * 7 + 1) % 300, '\n');
  const Database db = build(dir, text);
  RankOptions o;
  const RankResult r = compute_rank(db.graph(), o);
  std::atomic<bool> stop{false};
  std::atomic<int> reads{0}, deletes{0}, writes{0};
  std::mutex mutex;
  std::vector<std::string> unexpected;
  const auto loop = [&](const std::function<void()>& step, std::atomic<int>& done) {
    while (!stop) {
      try {
        step();
        ++done;
      } catch (const Error& e) {
        if (e.kind() == ErrorKind::kNotFound) continue;
        const std::lock_guard lock(mutex);
        unexpected.push_back(e.what());
      } catch (const std::exception& e) {
        const std::lock_guard lock(mutex);
        unexpected.push_back(std::string("not a webrank::Error: ") + e.what());
      }
    }
  };
  std::vector<std::thread> threads;
  for (int i = 0; i < 2; ++i)
    threads.emplace_back(
        loop, [&] { save_ranks(db, "m", r, o); }, std::ref(writes));
  threads.emplace_back(
      loop, [&] { (void)load_ranks(db, "m"); }, std::ref(reads));
  threads.emplace_back(
      loop, [&] { (void)map_ranks(db, "m"); }, std::ref(reads));
  threads.emplace_back(
      loop,
      [&] {
        for (const RankVectorSummary& v : summarize(db).ranks) {
          if (!v.error.empty()) throw Error(ErrorKind::kCorrupt, "summary: " + v.error);
        }
      },
      std::ref(reads));
  threads.emplace_back(
      loop, [&] { delete_ranks(db, "m"); }, std::ref(deletes));
  std::this_thread::sleep_for(std::chrono::seconds(2));
  stop = true;
  for (auto& t : threads) t.join();
  EXPECT_TRUE(unexpected.empty()) << unexpected.size() << " failures, the first: "
                                  << (unexpected.empty() ? "" : unexpected.front());
  EXPECT_GT(writes.load(), 0);
  EXPECT_GT(reads.load(), 0);
  EXPECT_GT(deletes.load(), 0);
}

}  // namespace
}  // namespace webrank::testing
