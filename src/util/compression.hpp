// Whole-buffer zstd compression for small independent blobs stored in a database (one frame per
// page, so any page can be read without the others). Streams of input files are in
// input_stream.hpp.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace webrank {

// One zstd frame holding `data`, at compression `level` (1 fastest, 19 smallest).
std::string zstd_compress(std::string_view data, int level = 3);

// The bytes of the zstd frame `frame`. Throws Error (kCorrupt) naming `what` when the frame is
// damaged or would decode to more than `max_size` bytes.
std::string zstd_decompress(std::string_view frame, std::size_t max_size, std::string_view what);

}  // namespace webrank
