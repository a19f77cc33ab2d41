#include "store/verification_record.hpp"

#include <xxhash.h>

#include <algorithm>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "store/section_file.hpp"
#include "util/atomic_file.hpp"
#include "util/regular_file.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace fs = std::filesystem;
namespace {

constexpr const char* kRecordFormat = "webrank-verified";
constexpr int kRecordVersion = 1;
constexpr std::size_t kMaxRecords = 256;

nlohmann::json identity_json(const FileIdentity& id) {
  return nlohmann::json::array({id.device, id.inode, id.size, id.mtime_ns, id.ctime_ns});
}

// The database's absolute path (symlinks resolved when it exists) and its record's file.
std::string database_key(const fs::path& dir) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(dir, ec), ec);
  return p.string();
}

fs::path record_file(const fs::path& records, const std::string& key) {
  return records / (checksum_hex(XXH3_64bits(key.data(), key.size())) + ".json");
}

void keep_newest(const fs::path& records) {
  std::vector<std::pair<fs::file_time_type, fs::path>> found;
  std::error_code ec;
  for (fs::directory_iterator it(records, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() == ".json") found.emplace_back(it->last_write_time(ec), it->path());
  }
  if (found.size() <= kMaxRecords) return;
  std::sort(found.begin(), found.end());
  for (std::size_t i = 0; i + kMaxRecords < found.size(); ++i) fs::remove(found[i].second, ec);
}

}  // namespace

std::int64_t realtime_ns() {
  timespec t{};
  ::clock_gettime(CLOCK_REALTIME, &t);
  return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

bool recorded_as_verified(const fs::path& records, const fs::path& dir,
                          const std::vector<NamedIdentity>& files) {
  if (records.empty()) return false;
  const std::string key = database_key(dir);
  try {
    // Best effort, as recording is: a record that is no regular file is no record.
    const std::optional<std::string> text = read_regular_file(record_file(records, key));
    if (!text) return false;
    const nlohmann::json j = nlohmann::json::parse(*text);
    if (j.value("format", "") != kRecordFormat || j.value("version", 0) != kRecordVersion ||
        j.value("database", "") != key)
      return false;
    const nlohmann::json& recorded = j.at("files");
    if (!recorded.is_object() || recorded.size() != files.size()) return false;
    for (const auto& [name, id] : files) {
      const auto it = recorded.find(name);
      if (it == recorded.end() || *it != identity_json(id)) return false;
    }
    return true;
  } catch (const nlohmann::json::exception&) {
    return false;  // a damaged record is no record
  } catch (const Error&) {
    return false;
  }
}

void record_verified(const fs::path& records, const fs::path& dir,
                     const std::vector<NamedIdentity>& files, std::int64_t started_ns) noexcept {
  if (records.empty()) return;
  try {
    const std::int64_t before = started_ns - kRecordMarginSeconds * 1'000'000'000;
    nlohmann::json recorded = nlohmann::json::object();
    for (const auto& [name, id] : files) {
      const std::optional<FileIdentity> now = identify(dir / name);
      // Changed while it was verified, or changed so recently that a later write could leave
      // its times as they are: verified this time, not recorded.
      if (!now || *now != id || id.mtime_ns >= before || id.ctime_ns >= before) return;
      recorded[name] = identity_json(id);
    }
    const std::string key = database_key(dir);
    const nlohmann::json j = {{"format", kRecordFormat},
                              {"version", kRecordVersion},
                              {"database", key},
                              {"files", recorded}};
    std::error_code ec;
    fs::create_directories(records, ec);
    if (ec) return;
    AtomicFileWriter out(record_file(records, key));
    out.write(j.dump() + "\n");
    out.commit();
    keep_newest(records);
  } catch (...) {
    // Best effort: the next open verifies again.
  }
}

}  // namespace webrank
