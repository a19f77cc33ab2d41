// The memory budget of `webrank build`: how much memory the links may take before they are
// sorted in runs on disk and merged (external_csr.hpp). Sizes are written like "4G", "512M",
// "1.5G" or a number of bytes; K, M, G, T are powers of 1024.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace webrank {

// The number of bytes `text` names, or nothing if it is not a size.
std::optional<std::uint64_t> parse_memory_size(std::string_view text);

// The default budget: 3/4 of the physical memory (leaving room for the page cache and the rest
// of the system), or 4 GiB if the physical memory cannot be read.
std::uint64_t default_memory_budget();

}  // namespace webrank
