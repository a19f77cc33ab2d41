// Writers of one database (issue 31): threads of one process storing vectors at once, vectors
// tied to the version of the database they were computed on, files that are not regular files,
// and rank sources whose sum overflows.
#include <sys/stat.h>

#include <atomic>
#include <thread>

#include "test_graphs.hpp"
#include "webrank/ingest/build.hpp"
#include "webrank/rank/rank.hpp"
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

}  // namespace
}  // namespace webrank::testing
