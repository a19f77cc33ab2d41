#include "store/database_version.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xxhash.h>

#include <cerrno>

#include "store/db_layout.hpp"
#include "store/section_file.hpp"
#include "util/error.hpp"
#include "util/regular_file.hpp"
#include "webrank/store/database.hpp"

namespace webrank {
namespace fs = std::filesystem;

std::string generation_for(const nlohmann::json& manifest) {
  const std::string sections = manifest.at("sections").dump();
  return checksum_hex(XXH3_64bits(sections.data(), sections.size()));
}

std::string generation_of(const nlohmann::json& manifest) {
  const auto it = manifest.find(kGenerationKey);
  return it != manifest.end() && it->is_string() ? it->get<std::string>() : std::string();
}

DatabaseLock::DatabaseLock(const fs::path& dir) : dir_(dir) {
  for (;;) {
    fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd_ < 0) return;  // no directory: nothing can be replaced under a writer
    int rc;
    do {
      rc = ::flock(fd_, LOCK_EX);
    } while (rc != 0 && errno == EINTR);
    if (rc != 0) {
      const int err = errno;
      ::close(fd_);
      fd_ = -1;
      if (err == ENOLCK || err == EOPNOTSUPP || err == EINVAL) return;
      errno = err;
      fail_errno(dir.string(), "cannot lock the database");
    }
    // Granted: is the directory locked still the one at `dir`? One replaced while this waited
    // (its replacer held the lock until the new one had the name) is no longer the database.
    struct stat held {
    }, now{};
    if (::fstat(fd_, &held) == 0 && ::stat(dir.c_str(), &now) == 0 && held.st_dev == now.st_dev &&
        held.st_ino == now.st_ino) {
      return;
    }
    ::close(fd_);
    fd_ = -1;
  }
}

DatabaseLock::~DatabaseLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor lets go of the lock
}

std::string DatabaseLock::current_generation() const {
  const fs::path file = dir_ / layout::kManifest;
  const std::optional<std::string> text = read_regular_file(file);
  if (!text) fail_errno(file.string(), "cannot read the database's manifest");
  const nlohmann::json m = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!m.is_object()) fail(ErrorKind::kCorrupt, file.string(), ": damaged (not a JSON object)");
  return generation_of(m);
}

void check_still_current(const Database& db, const DatabaseLock& lock, const std::string& what) {
  const std::string now = lock.current_generation();
  if (now == db.generation()) return;
  fail(ErrorKind::kConflict, db.path().string(),
       ": the database was replaced by a new version while this ran (update, recrawl or build "
       "--force; version ",
       db.generation().empty() ? "(none)" : db.generation(), " -> ", now.empty() ? "(none)" : now,
       "): ", what, "; run it again on the new version");
}

}  // namespace webrank
