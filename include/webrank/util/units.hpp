// Sizes, durations and times as people write and read them: memory budgets given as "4G" or
// "512M", byte counts and durations shown in messages and progress lines, timestamps.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace webrank {

// The number of bytes `text` names ("4G", "512M", "1.5G", "2GiB" or a number of bytes; K, M, G,
// T are powers of 1024), or nothing if it is not a size of at least one byte.
std::optional<std::uint64_t> parse_memory_size(std::string_view text);

// The default memory budget of builds: 3/4 of the physical memory (leaving room for the page
// cache and the rest of the system), or 4 GiB if the physical memory cannot be read; 3/4 of the
// address-space limit (`ulimit -v`) when that is lower.
std::uint64_t default_memory_budget();

// "340 MB", "1.2 GB" (powers of 1000, one decimal above bytes).
std::string format_bytes(double bytes);
// "4.2s", "1m05s", "2h03m"; "?" for a negative or non-finite value.
std::string format_duration(double seconds);
// x in scientific notation with `digits` after the point, as printf's %.3e: "1.234e-07".
std::string scientific(double x, int digits = 3);
// The time now in UTC, ISO 8601 to the second: "2026-11-24T16:38:25Z" (WARC dates, index dates).
std::string utc_timestamp();

}  // namespace webrank
