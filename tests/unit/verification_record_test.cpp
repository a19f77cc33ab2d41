// Remembered verifications (store/verification_record.hpp): an unchanged database is trusted,
// a changed file is verified again and its damage named, a file changed too recently or a
// copy elsewhere is not trusted.
#include "store/verification_record.hpp"

#include <fstream>

#include "test_graphs.hpp"
#include "webrank/ingest/build.hpp"
#include "webrank/store/database.hpp"
#include "webrank/util/error.hpp"

namespace webrank::testing {
namespace fs = std::filesystem;
namespace {

constexpr std::int64_t kSecond = 1'000'000'000;

fs::path build(const TempDir& dir, const std::string& name = "web.db") {
  BuildOptions o;
  o.inputs = {dir.write(name + ".tsv", "a b\nb c\nc a\nd a\nd\n")};
  o.output = dir / name;
  build_database(o);
  return dir / name;
}

// What Database::open maps: manifest.json and every section (the files at the top level).
std::vector<NamedIdentity> database_files(const fs::path& db) {
  std::vector<NamedIdentity> files;
  for (const auto& e : fs::directory_iterator(db)) {
    if (e.is_regular_file()) files.emplace_back(e.path().filename(), *identify(e.path()));
  }
  return files;
}

Verification open_verified(const fs::path& db, const fs::path& records) {
  return Database::open(db, {.verify = true, .verification_records = records}).verification();
}

void flip_byte(const fs::path& file, std::streamoff at) {
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(at);
  char c;
  f.read(&c, 1);
  f.seekp(at);
  c ^= 0x20;
  f.write(&c, 1);
}

TEST(VerificationRecord, UnchangedIsTrustedChangedIsVerifiedAgain) {
  TempDir dir;
  const fs::path db = build(dir), records = dir / "records";
  // Just written: verified in full, and not recorded (a write in the same clock tick as the
  // build could leave the files' times as they are).
  EXPECT_EQ(open_verified(db, records), Verification::kFull);
  EXPECT_FALSE(recorded_as_verified(records, db, database_files(db)));
  EXPECT_EQ(open_verified(db, records), Verification::kFull);
  // As if the verification had begun long after the files were written.
  record_verified(records, db, database_files(db), realtime_ns() + 10 * kSecond);
  EXPECT_TRUE(recorded_as_verified(records, db, database_files(db)));
  EXPECT_EQ(open_verified(db, records), Verification::kRecorded);
  EXPECT_EQ(Database::open(db, {.verify = true}).verification(), Verification::kFull);
  EXPECT_EQ(Database::open(db).verification(), Verification::kNone);
  // The same files under another path (a copy, a rename) are not trusted.
  fs::copy(db, dir / "copy.db");
  EXPECT_EQ(open_verified(dir / "copy.db", records), Verification::kFull);
  // A damaged file has a new change time: verified in full, its damage named.
  flip_byte(db / "bwd.sources", 64);
  try {
    open_verified(db, records);
    ADD_FAILURE() << "damage not detected";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kCorrupt);
    EXPECT_NE(std::string(e.what()).find("bwd.sources"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(recorded_as_verified(records, db, database_files(db)));
}

TEST(VerificationRecord, RecentOrChangedFilesAreNotRecorded) {
  TempDir dir;
  const fs::path db = build(dir), records = dir / "records";
  const std::vector<NamedIdentity> files = database_files(db);
  record_verified(records, db, files, realtime_ns());  // changed less than the margin ago
  EXPECT_FALSE(recorded_as_verified(records, db, files));
  std::vector<NamedIdentity> stale = files;
  stale.front().second.ctime_ns -= 1;  // as mapped, not as it is now: changed meanwhile
  record_verified(records, db, stale, realtime_ns() + 10 * kSecond);
  EXPECT_FALSE(recorded_as_verified(records, db, stale));
  EXPECT_FALSE(recorded_as_verified(records, db, files));
  record_verified("", db, files, realtime_ns() + 10 * kSecond);  // no records directory
  record_verified(records, db, files, realtime_ns() + 10 * kSecond);
  EXPECT_TRUE(recorded_as_verified(records, db, files));
  // A record is of all the files: one more or one less does not match.
  std::vector<NamedIdentity> fewer(files.begin() + 1, files.end());
  EXPECT_FALSE(recorded_as_verified(records, db, fewer));
  // A damaged record is no record.
  for (const auto& e : fs::directory_iterator(records)) std::ofstream(e.path()) << "{\"files\":";
  EXPECT_FALSE(recorded_as_verified(records, db, files));
}

}  // namespace
}  // namespace webrank::testing
