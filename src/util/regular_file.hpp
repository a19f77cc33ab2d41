// Opening a file webrank reads as its own data (a database's manifest and sections, a stored
// vector's record, a verification record): only a regular file is opened, and what is not one is
// refused without blocking. A FIFO put in place of such a file would make open(2) wait for a
// writer forever (and a device or socket is no data of a database either), so the file is opened
// with O_NONBLOCK, which never waits, and its type checked on the open descriptor (fstat), which
// no rename between a check and the open can fool.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "util/file_identity.hpp"

struct stat;

namespace webrank {

// An open descriptor (O_RDONLY, close-on-exec, blocking reads) of the regular file `path`, with
// `st` filled; -1 with errno set when it cannot be opened (missing, no permission). Throws Error
// (kIo) naming the file and what it is (a FIFO, a directory, a device...) when it is not a
// regular file.
int open_regular_file(const std::filesystem::path& path, struct stat* st);

// The whole of the regular file `path`, and its identity as read; nullopt when it cannot be opened
// or read (errno set). Throws as open_regular_file() when it is not a regular file.
std::optional<std::string> read_regular_file(const std::filesystem::path& path,
                                             FileIdentity* identity = nullptr);

}  // namespace webrank
