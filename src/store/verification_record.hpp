// Remembering a successful verification of a database, so that commands opening a database that
// has not changed since do not read and hash all of it again (docs/format.md, "What is verified
// when").
//
// A record lists every file that was verified (manifest.json and the sections) with its identity
// (util/file_identity.hpp: device, inode, size, modification and change times). An open trusts
// it only when every file it maps has exactly the recorded identity. Records live outside the
// database, one small JSON file per database (named by a hash of its absolute path) in a
// directory the caller chooses (the command line: ~/.cache/webrank/verified), so that read-only
// commands never write into a database and read-only databases benefit too.
//
// Why that is sound: a file is recorded only if its modification and change times are more than
// kRecordMarginSeconds older than the clock when the verification began. Any later write through
// the file system sets the file's change time to the clock of that moment (truncated to the file
// system's granularity, at most 2 s), which no user call can set back: the identity no longer
// matches. (Git guards its index against "racily clean" files the same way.) A database verified
// right after it was written is therefore verified in full again next time. What a record cannot
// see is damage that bypasses the file system (a failing disk): `webrank check` and
// Database::verify() always read everything.
//
// Recording is best effort: it never fails an open.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "util/file_identity.hpp"

namespace webrank {

inline constexpr std::int64_t kRecordMarginSeconds = 3;

// A file of the database directory (its name inside it) and its identity when it was mapped.
using NamedIdentity = std::pair<std::string, FileIdentity>;

// Whether `records` holds a record for the database `dir` listing exactly `files`: the same
// names with the same identities.
bool recorded_as_verified(const std::filesystem::path& records, const std::filesystem::path& dir,
                          const std::vector<NamedIdentity>& files);

// Records in `records` that `files` of database `dir` (their identities as mapped, before the
// verification read them) were verified, if every one still has that identity and was last
// changed more than kRecordMarginSeconds before `started_ns` (the real-time clock when the
// verification began); otherwise leaves things as they are. Keeps at most 256 records (the
// oldest go). Never throws.
void record_verified(const std::filesystem::path& records, const std::filesystem::path& dir,
                     const std::vector<NamedIdentity>& files, std::int64_t started_ns) noexcept;

// The real-time clock, in nanoseconds since the epoch (file times are on this clock).
std::int64_t realtime_ns();

}  // namespace webrank
