// Writers of one database (docs/format.md, "Versions"): threads of one process storing vectors
// at once, vectors tied to the version of the database they were computed on, files that are not
// regular files, and rank sources whose sum overflows.
#include <sys/stat.h>

#include <atomic>
#include <cmath>
#include <functional>
#include <mutex>
#include <thread>

#include "store/database_version.hpp"
#include "test_graphs.hpp"
#include "webrank/ingest/build.hpp"
#include "webrank/ingest/update.hpp"
#include "webrank/rank/rank.hpp"
#include "webrank/rank/verify.hpp"
#include "webrank/store/rank_store.hpp"
#include "webrank/util/error.hpp"

namespace webrank::testing {
namespace fs = std::filesystem;
namespace {

Database build(const TempDir& dir, const std::string& text, const std::string& name = "web.db") {
  BuildOptions o;
  o.inputs = {dir.write(name + ".tsv", text)};
  o.output = dir / name;
  o.force = true;
  build_database(o);
  return Database::open(dir / name);
}

std::vector<double> constant(const Database& db, double total) {
  return std::vector<double>(db.num_pages(), total / db.num_pages());
}

VectorRecord pagerank_record() {
  VectorRecord record;
  record.damping = 0.85;
  record.tol = 1e-6;
  record.dangling = "source";
  record.converged = true;
  return record;
}

// The Python module and the server store vectors from several threads of one process: each
// write takes a temporary name of its own, and writes of one name are put in place one at a
// time, so every one succeeds and each stored pair is whole.
TEST(Writers, EightThreadsOfOneProcessStoreVectorsAtOnce) {
  TempDir dir;
  const Database db = build(dir, "a b\nb c\nc a\nc d\n");
  constexpr int kThreads = 8, kRounds = 6;
  std::atomic<int> failures{0};
  std::string first_failure;
  std::mutex mu;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < kRounds; ++round) {
        for (const std::string& name : {std::string("shared"), "own-" + std::to_string(t)}) {
          try {
            write_rank_vector(db, name, constant(db, 1.0 + t), Precision::kDouble,
                              pagerank_record());
          } catch (const Error& e) {
            if (failures++ == 0) {
              std::lock_guard lock(mu);
              first_failure = e.what();
            }
          }
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0) << first_failure;
  const StoredRanks shared = load_ranks(db, "shared");  // whole: its checksum matches
  EXPECT_EQ(shared.values.size(), db.num_pages());
  for (int t = 0; t < kThreads; ++t) {
    const StoredRanks own = load_ranks(db, "own-" + std::to_string(t));
    EXPECT_DOUBLE_EQ(own.values[0], (1.0 + t) / db.num_pages());
  }
  for (const auto& entry : fs::directory_iterator(dir / "web.db" / "ranks")) {
    EXPECT_EQ(entry.path().filename().string().find("webrank-tmp"), std::string::npos)
        << entry.path();
  }
}

// Adds the page `label`, linked from "a", to the database at `path`: a new version.
UpdateReport add_page(const TempDir& dir, const fs::path& path, const std::string& label) {
  UpdateOptions u;
  u.add = {dir.write("add-" + label + ".tsv", "a " + label + "\n")};
  u.verify = false;
  return update_database(path, u);
}

ErrorKind kind_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.kind();
  }
  ADD_FAILURE() << "no error";
  return ErrorKind::kInternal;
}

TEST(Versions, EveryBuildAndUpdateIsANewGenerationThatVectorsRecord) {
  TempDir dir;
  const Database first = build(dir, "a b\nb c\n");
  EXPECT_EQ(first.generation().size(), 16u);
  // The same web built again is the same version (builds are reproducible); another is not.
  EXPECT_EQ(build(dir, "a b\nb c\n").generation(), first.generation());
  const Database rebuilt = build(dir, "a b\nb a\n");
  EXPECT_NE(rebuilt.generation(), first.generation());
  write_rank_vector(rebuilt, "pr", constant(rebuilt, 1), Precision::kDouble, pagerank_record());
  EXPECT_EQ(load_ranks(rebuilt, "pr").record.generation, rebuilt.generation());
  add_page(dir, dir / "web.db", "d");
  const Database updated = Database::open(dir / "web.db");
  EXPECT_NE(updated.generation(), rebuilt.generation());
  // Carried into the new version, and recorded as of it (and stale).
  const StoredRanks carried = load_ranks(updated, "pr");
  EXPECT_EQ(carried.record.generation, updated.generation());
  EXPECT_TRUE(carried.record.stale);
}

// `rank` that opened a database before `update` replaced it: its vector (of the old pages) is
// not stored into the new version, with a conflict, and what the new version holds is intact.
TEST(Versions, AVectorOfAReplacedVersionIsNeverStored) {
  TempDir dir;
  const Database before = build(dir, "a b\nb c\nc a\n");
  write_rank_vector(before, "pr", constant(before, 1), Precision::kDouble, pagerank_record());
  add_page(dir, dir / "web.db", "d");
  EXPECT_EQ(kind_of([&] {
              write_rank_vector(before, "pr", constant(before, 1), Precision::kDouble,
                                pagerank_record());
            }),
            ErrorKind::kConflict);
  // The same number of pages is no excuse: an update that adds one page and removes another.
  const Database same_size = Database::open(dir / "web.db");
  UpdateOptions u;
  u.remove = {dir.write("remove.tsv", "b\n")};
  u.add = {dir.write("add-e.tsv", "a e\n")};
  update_database(dir / "web.db", u);
  const Database after = Database::open(dir / "web.db");
  ASSERT_EQ(after.num_pages(), same_size.num_pages());
  EXPECT_EQ(kind_of([&] {
              write_rank_vector(same_size, "fresh", constant(same_size, 1), Precision::kDouble,
                                pagerank_record());
            }),
            ErrorKind::kConflict);
  EXPECT_EQ(after.rank_names(), std::vector<std::string>{"pr"});
  EXPECT_EQ(load_ranks(after, "pr").record.generation, after.generation());
  // So does a rebuild (build --force).
  const Database old = Database::open(dir / "web.db");
  build(dir, "x y\n");
  EXPECT_EQ(kind_of([&] {
              write_rank_vector(old, "late", std::vector<double>(old.num_pages(), 0.2),
                                Precision::kDouble, pagerank_record());
            }),
            ErrorKind::kConflict);
  EXPECT_TRUE(Database::open(dir / "web.db").rank_names().empty());
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    EXPECT_EQ(entry.path().filename().string().find("webrank-tmp"), std::string::npos)
        << entry.path();
  }
}

// `ranks --delete` from a version that was replaced meanwhile deletes nothing: the update
// carried the vector into the new version, which the delete's caller has not seen.
TEST(Versions, ADeleteFromAReplacedVersionDeletesNothing) {
  TempDir dir;
  const Database before = build(dir, "a b\nb c\nc a\n");
  write_rank_vector(before, "pr", constant(before, 1), Precision::kDouble, pagerank_record());
  add_page(dir, dir / "web.db", "d");
  EXPECT_EQ(kind_of([&] { delete_ranks(before, "pr"); }), ErrorKind::kConflict);
  const Database after = Database::open(dir / "web.db");
  EXPECT_EQ(after.rank_names(), std::vector<std::string>{"pr"});
  delete_ranks(after, "pr");
  EXPECT_TRUE(Database::open(dir / "web.db").rank_names().empty());
}

// A vector whose record names another version (copied from elsewhere, or stored by a webrank
// that raced an update) is refused by every reader, naming the file.
TEST(Versions, ReadersRefuseAVectorOfAnotherVersion) {
  TempDir dir;
  const Database a = build(dir, "a b\nb c\n", "a.db");
  const Database b = build(dir, "a c\nc b\n", "b.db");  // as many pages, other links
  write_rank_vector(a, "pr", constant(a, 1), Precision::kDouble, pagerank_record());
  fs::create_directories(dir / "b.db" / "ranks");
  for (const char* ext : {".ranks", ".json"})
    fs::copy_file(dir / "a.db" / "ranks" / (std::string("pr") + ext),
                  dir / "b.db" / "ranks" / (std::string("pr") + ext));
  try {
    load_ranks(b, "pr");
    ADD_FAILURE() << "a vector of another version was read";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kCorrupt);
    EXPECT_NE(std::string(e.what()).find("pr.json: computed on another version"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(map_ranks(b, "pr"), Error);
}

// Writers in threads storing vectors, each on the version it opened, while updates replace the
// database: every write is stored or refused as a conflict, and whatever the database holds at
// the end is whole and of its own version. No sleeps: the threads run as fast as they can.
TEST(Versions, WritersRacingUpdatesStoreOnlyIntoTheirOwnVersion) {
  TempDir dir;
  build(dir, "a b\nb c\nc a\n");
  const fs::path path = dir / "web.db";
  std::atomic<bool> done{false};
  std::atomic<int> stored{0}, conflicts{0}, other{0};
  std::vector<std::thread> writers;
  for (int t = 0; t < 4; ++t) {
    writers.emplace_back([&, t] {
      for (int i = 0; !done || i < 3; ++i) {
        try {
          const Database db = Database::open(path);
          write_rank_vector(db, "w" + std::to_string(t), constant(db, 1), Precision::kDouble,
                            pagerank_record());
          ++stored;
        } catch (const Error& e) {
          ++(e.kind() == ErrorKind::kConflict ? conflicts : other);
        }
      }
    });
  }
  for (int k = 0; k < 8; ++k) add_page(dir, path, "n" + std::to_string(k));
  done = true;
  for (std::thread& t : writers) t.join();
  EXPECT_EQ(other.load(), 0);
  EXPECT_GT(stored.load(), 0);
  const Database final_db = Database::open(path);
  final_db.verify();
  EXPECT_EQ(final_db.num_pages(), 3u + 8u);
  for (const std::string& name : final_db.rank_names()) {
    const StoredRanks s = load_ranks(final_db, name);
    EXPECT_EQ(s.values.size(), final_db.num_pages()) << name;
    EXPECT_EQ(s.record.generation, final_db.generation()) << name;
  }
}

// Weights finite each whose sum is not (1e308 + 1e308): normalized by scaling first, so the
// source is what it says (half and half), not zero everywhere.
TEST(Weights, ASourceWhoseSumOverflowsIsNormalized) {
  TempDir dir;
  const Database db = build(dir, "a b\nb c\nc a\nc d\nd a\n");
  RankOptions huge, unit;
  huge.tol = unit.tol = 1e-13;
  huge.source = {{0, 1e308}, {1, 1e308}};
  unit.source = {{0, 1}, {1, 1}};
  const RankResult h = compute_rank(db.graph(), huge), u = compute_rank(db.graph(), unit);
  ASSERT_TRUE(h.converged);
  double sum = 0, l1 = 0;
  for (PageId p = 0; p < db.num_pages(); ++p) {
    sum += h.ranks[p];
    l1 += std::abs(h.ranks[p] - u.ranks[p]);
  }
  EXPECT_NEAR(sum, 1.0, 1e-12);
  EXPECT_LT(l1, 1e-12);
  save_ranks(db, "huge", h, huge);
  const RankCheck c = check_rank_vector(db, "huge");
  EXPECT_TRUE(c.ok) << c.residual << " " << c.sum;
  EXPECT_TRUE(c.sum_checked);
}

// `check --ranks` checks the sum: a vector scaled as a whole is still a fixed point of an
// iteration that conserves rank (d = 1), so only its sum shows it is wrong.
TEST(Weights, CheckFailsAVectorThatDoesNotSumToOne) {
  TempDir dir;
  const Database db = build(dir, "a b\nb c\nc a\n");  // a cycle: uniform is the fixed point
  VectorRecord record = pagerank_record();
  record.damping = 1.0;
  record.tol = 1e-10;
  write_rank_vector(db, "right", constant(db, 1), Precision::kDouble, record);
  write_rank_vector(db, "scaled", constant(db, 5e-10), Precision::kDouble, record);
  const RankCheck right = check_rank_vector(db, "right"), scaled = check_rank_vector(db, "scaled");
  EXPECT_TRUE(right.ok);
  EXPECT_LE(scaled.residual, scaled.allowed);  // the residual alone would pass it
  EXPECT_FALSE(scaled.sum_ok);
  EXPECT_FALSE(scaled.ok);
  EXPECT_NEAR(scaled.sum, 5e-10, 1e-20);
}

}  // namespace
}  // namespace webrank::testing
