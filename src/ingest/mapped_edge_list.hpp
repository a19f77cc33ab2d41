// Reading an edge list on all threads. A plain file is memory-mapped, any other input (gzip,
// zstd, standard input) is decompressed by one thread into buffers; either is cut into chunks
// at line boundaries, a wave of chunks is parsed in parallel (edge_list_chunk.hpp), then the
// chunks' records go to the sink one chunk after the other. The sink therefore sees exactly the
// sequence the streaming reader would give it (so page ids keep first-appearance order and
// databases are byte-identical), and a bad line is reported with the same message and global
// line number. Mapped pages already consumed are dropped from the resident set.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "ingest/edge_list_reader.hpp"

namespace webrank {

inline constexpr std::size_t kEdgeListChunkBytes = 4 << 20;

// read_edge_list() for a regular, uncompressed file (see is_plain_file). `chunk_bytes` is the
// target chunk size (tests use tiny ones to put chunk boundaries everywhere).
std::uint64_t read_mapped_edge_list(const std::string& path, bool weighted, RecordSink& sink,
                                    const std::function<void(std::uint64_t)>& on_bytes,
                                    std::size_t chunk_bytes = kEdgeListChunkBytes);

// read_edge_list() for any input, read through open_input(): one thread decompresses (or
// reads) while the others parse, with the same results as read_edge_list_stream().
std::uint64_t read_streamed_edge_list(const std::string& path, bool weighted, RecordSink& sink,
                                      const std::function<void(std::uint64_t)>& on_bytes,
                                      std::size_t chunk_bytes = kEdgeListChunkBytes);

}  // namespace webrank
