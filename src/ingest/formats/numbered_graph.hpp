// Two-file graphs with numbered vertices, the shape shared by the Common Crawl host graphs and
// the Web Data Commons hyperlink graphs: vertex files giving each vertex id its name, and arc
// files of `FROM TO` id pairs.
//
// Contract (the per-format rules are in cc_hosts.cpp and wdc.cpp):
// - Lines are split by the edge-list field rule (edge_list_reader.hpp: tabs when the line has
//   one, else blanks; '#'/'%' comment lines and blank lines skipped). Vertex lines have the id
//   and the name at the spec's positions and at most max_fields fields; ids are decimal
//   integers >= 0, each at most once. Arc lines are `FROM TO`, or `FROM TO WEIGHT` with
//   --weighted (a third field without --weighted is an error, as in an edge list).
// - Every vertex is declared as a page, in vertex-file order, labelled with to_label(name);
//   then every arc FROM -> TO is a link between the labels of its ids. Vertices whose labels
//   coincide are one page. Ids need not be dense or sorted; 0, 1, 2, ... in order (the usual
//   case) is looked up directly, any other numbering through a sorted table.
// - An arc naming an id that no vertex line has is an error naming FILE:LINE and the id.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ingest/formats/readers.hpp"

namespace webrank {

struct NumberedGraphSpec {
  std::vector<std::string> vertex_files, arc_files;
  int id_field = 0;  // 0-based field positions in a vertex line
  int name_field = 1;
  int max_fields = 2;                       // fields after the id and the name are ignored
  const char* vertex_form = "ID<TAB>NAME";  // for error messages
  // Appends the page label of a vertex name to `out`.
  void (*to_label)(std::string_view name, std::string& out) = nullptr;
};

std::uint64_t read_numbered_graph(const NumberedGraphSpec& spec, bool weighted, RecordSink& sink,
                                  const OnBytes& on_bytes);

}  // namespace webrank
