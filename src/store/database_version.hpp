// Versions of one database (docs/format.md, "Versions"): every build, update and recrawl writes
// a version, whose manifest carries its `generation`: the XXH3-64 of the manifest's list of
// sections (every file's count, element size and checksum), so that it names the contents. A
// version with other links, pages or page data has another generation; the same web built again
// has the same one (builds stay reproducible byte for byte, and a vector computed on either fits
// both). Every stored vector records the generation it was computed on
// (VectorRecord::generation) and readers refuse a vector of another one.
//
// Writers that put something into a database that may be replaced meanwhile hold its lock
// while they check and publish: the lock of the database directory itself (flock on the
// directory, exclusive). Whoever replaces the directory (update, recrawl, build --force) takes
// it before the exchange of names and keeps it until the new version has the name; whoever
// stores a vector takes it, checks that the database at the path is still the version the
// vector was computed on, and publishes before letting go. So a vector is stored into the
// version it was computed on or not at all (ErrorKind::kConflict), and a vector stored before
// an update is carried into the new version by that update.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace webrank {

class Database;

inline constexpr const char* kGenerationKey = "generation";

// The generation of a version about to be written, from its manifest's "sections" (16 lowercase
// hex digits). Call once every section is listed.
std::string generation_for(const nlohmann::json& manifest);

// The generation a manifest records ("" for databases written before generations: they count
// as one version, until their first update).
std::string generation_of(const nlohmann::json& manifest);

// The lock of the database directory `dir`, held while the object lives. Waits for the holder.
// The directory locked is the one at `dir` when the lock was granted (a directory replaced while
// this waited is let go and the new one locked). No directory at `dir`: nothing to lock. Where
// the file system has no locks (ENOLCK, EOPNOTSUPP), nothing is held and writers rely on the
// comparison of generations alone.
class DatabaseLock {
 public:
  explicit DatabaseLock(const std::filesystem::path& dir);
  DatabaseLock(const DatabaseLock&) = delete;
  DatabaseLock& operator=(const DatabaseLock&) = delete;
  ~DatabaseLock();

  // The generation of the database at the directory now (its manifest, read under the lock).
  // Throws Error naming the manifest when there is none or it cannot be read.
  std::string current_generation() const;

 private:
  std::filesystem::path dir_;
  int fd_ = -1;
};

// Throws Error (kConflict) unless the database at `db.path()` is still the version `db` opened;
// call with that directory's lock held. `what` says what was not done ("the vector 'pr' was not
// stored").
void check_still_current(const Database& db, const DatabaseLock& lock, const std::string& what);

}  // namespace webrank
