// File-name helpers shared by the import formats: recognising names for --format auto, and
// finding the companion files of two-file formats (Common Crawl, Web Data Commons).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace webrank {

// The file name of `path` (after the last '/'), lower-cased, without a trailing ".gz", ".zst"
// or ".gzip" compression suffix.
std::string plain_name(const std::string& path);

bool ends_with(std::string_view s, std::string_view suffix);

// The regular files directly inside `dir`, sorted by name, skipping names that start with '.'
// or '_' (hidden files, Hadoop/Spark `_SUCCESS` markers and `.crc` checksums).
std::vector<std::string> part_files(const std::string& dir);

// The first of `candidates` that is a regular file, or "" if none is.
std::string first_existing(const std::vector<std::string>& candidates);

}  // namespace webrank
