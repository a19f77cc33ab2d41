// Sequential decoding of a WebGraph BVGraph (LAW's compressed graphs, format version 0).
// The contract (file layout, successor-list coding, checks) is stated in bvgraph.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "ingest/formats/bv_properties.hpp"

namespace webrank {

// The files of a BVGraph given as BASENAME, BASENAME.graph, BASENAME.properties or
// BASENAME.offsets.
struct BvFiles {
  std::string basename, graph, properties;
};
BvFiles bv_files(const std::string& path);

// Called once per node, in node order, with its successors (strictly increasing).
using BvNodeFn = std::function<void(std::uint32_t node, std::span<const std::uint32_t> succ)>;

// Decodes the bit stream `data` of a .graph file named `name` with the parameters `p`. Calls
// on_bytes (if set) now and then with the bytes decoded so far. Returns the number of arcs.
// Throws Error naming `name`, the byte offset and the node on damaged or truncated input.
std::uint64_t decode_bvgraph(std::span<const std::uint8_t> data, const std::string& name,
                             const BvProperties& p, const BvNodeFn& on_node,
                             const std::function<void(std::uint64_t)>& on_bytes = nullptr);

}  // namespace webrank
