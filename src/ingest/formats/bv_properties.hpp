// The BASENAME.properties file of a WebGraph BVGraph: the parameters needed to decode the
// BASENAME.graph bit stream.
//
// Contract: a Java properties file (`key=value`, `key: value` or `key value` lines; `#` and `!`
// comments; backslash escapes and continuation lines). Used keys:
//   nodes, arcs                      required; nodes <= 4,294,967,294 (webrank page ids)
//   windowsize, minintervallength    required (0 = no references / no intervals)
//   maxrefcount                      optional (not needed to decode sequentially)
//   version                          optional; must be 0 (big-endian BVGraph format 0)
//   endianness                       optional; must be "big" when present
//   graphclass                       optional; must name a BVGraph (it.unimi.dsi[.big].webgraph)
//   zetak                            optional, default 3, 1..32: the k of ZETA codes
//   compressionflags                 optional, default empty: `|`-separated COMPONENT_CODE flags,
//       COMPONENT in OUTDEGREES, REFERENCES, BLOCKS, BLOCK_COUNT, INTERVALS, RESIDUALS, OFFSETS;
//       CODE in GAMMA, DELTA, UNARY, ZETA (k = zetak), ZETA1..ZETA7, NIBBLE.
//   Defaults (Java's BVGraph): OUTDEGREES_GAMMA, REFERENCES_UNARY, BLOCKS_GAMMA,
//   BLOCK_COUNT_GAMMA, RESIDUALS_ZETA; intervals (count, left extremes, lengths) are always
//   gamma in Java; INTERVALS_* (a webgraph-rs flag) changes them. As in Java, BLOCKS_* sets the
//   code of the copy blocks only and BLOCK_COUNT_* that of the block count. OFFSETS_* is
//   checked but unused (the .offsets file is not read).
// Errors are webrank::Error naming the file, the line and what was expected.
#pragma once

#include <cstdint>
#include <string>

namespace webrank {

enum class BvCode { kGamma, kDelta, kUnary, kZeta, kNibble };

const char* bv_code_name(BvCode code);

struct BvCodes {
  BvCode outdegrees = BvCode::kGamma;
  BvCode references = BvCode::kUnary;
  BvCode blocks = BvCode::kGamma;
  BvCode block_count = BvCode::kGamma;
  BvCode intervals = BvCode::kGamma;
  BvCode residuals = BvCode::kZeta;
  unsigned zeta_k = 3;  // one k for every ZETA code, as in BVGraph version 0
};

struct BvProperties {
  std::uint64_t nodes = 0;
  int nodes_line = 0;  // the line of `nodes`, for errors that find the count impossible
  std::uint64_t arcs = 0;
  std::uint64_t window_size = 0;
  std::uint64_t max_ref_count = 0;
  std::uint64_t min_interval_length = 0;
  BvCodes codes;
};

// Parses the text of a .properties file; `name` is used in error messages.
BvProperties parse_bv_properties(const std::string& text, const std::string& name);
// Reads and parses `path`.
BvProperties read_bv_properties(const std::string& path);

}  // namespace webrank
