// Parsing a range of whole lines of an edge list into records without interning any label, so
// that ranges of one file can be parsed on several threads at once and their records handed to
// the sink afterwards, in file order (mapped_edge_list.cpp).
//
// The result is exactly what read_edge_list_stream() would hand to the sink for the same lines:
// links whose two labels are canonical decimal numbers (LabelTable::is_number) are kept as value
// pairs (the bulk of SNAP-style and generated graphs), every other record (pages, links with a
// non-numeric label) as views into the text, with its position among the numeric links so the
// original order can be replayed. Parsing stops at the first bad line; its error message is
// produced by parsing that line again once its global line number is known.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace webrank {

struct EdgeListChunk {
  // A page or a link with a non-numeric label, in file order after `numeric_before` numeric
  // links of this chunk.
  struct Other {
    std::uint64_t numeric_before = 0;
    bool link = false;
    std::string_view source, target;  // a page's label is `source`
  };
  std::vector<std::uint32_t> numbers;  // source, target values of each numeric link
  std::vector<double> weights;         // weighted: the weight of every link, in file order
  std::vector<Other> others;
  std::uint64_t lines = 0;  // lines seen, the bad line included
  bool bad = false;         // parsing stopped at a bad line: `bad_line`, the chunk's last
  std::string_view bad_line;

  void clear();
};

// Parses `text` (whole lines; the last may lack its '\n') into `out` (cleared first). Views in
// `out` point into `text`.
void parse_edge_list_chunk(std::string_view text, bool weighted, EdgeListChunk& out);

}  // namespace webrank
