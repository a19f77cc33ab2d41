// What identifies the contents of a file without reading it: its device and inode, its size, and
// its modification and change times. A write through the file system changes the change time
// (ctime), which no user call can set back; replacing the file changes the inode.
#pragma once

#include <compare>
#include <cstdint>
#include <filesystem>
#include <optional>

struct stat;

namespace webrank {

struct FileIdentity {
  std::uint64_t device = 0, inode = 0, size = 0;
  std::int64_t mtime_ns = 0, ctime_ns = 0;  // since the epoch
  bool operator==(const FileIdentity&) const = default;
};

FileIdentity identity_of(const struct stat& st);
// The identity of the file at `path` now, or nullopt if it cannot be stat'ed.
std::optional<FileIdentity> identify(const std::filesystem::path& path);

}  // namespace webrank
