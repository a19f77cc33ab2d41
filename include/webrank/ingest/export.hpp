// A database back as text (`webrank export`).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "webrank/store/database.hpp"

#include "webrank/util/named.hpp"

namespace webrank {

enum class ExportTable {
  // One `SOURCE<TAB>TARGET` label pair per ranked link, in source-id order: an edge list that
  // build_database reads back into the same web (nofollow links are not ranked and not written).
  // A weighted database's links carry a third field, the weight (shortest decimal that reads
  // back as the same double), so that a weighted build reads back the same weighted web.
  kLinks,
  // The same links as page ids (0 .. N-1): a numeric edge list for tools that take only numbers
  // (weights as for kLinks).
  kLinkIds,
  // One line per page in id order after a `#` header line:
  // URL<TAB>STATUS<TAB>TITLE<TAB>OUT_LINKS<TAB>IN_LINKS; STATUS is the HTTP status, 0 for a page
  // discovered but not fetched, `-` when the database has no page data; tabs and line ends inside
  // titles become spaces.
  kPages,
};

// How kLinks is written: an edge list, or a graph file for Gephi, Cytoscape, NetworkX and igraph
// (a directed graph: every page a node in id order with its label, the title of crawled pages,
// the stored rank vectors as node attributes; every link an edge, with its weight when the
// database is weighted). docs/format.md has the details.
enum class ExportFormat { kEdges, kGml, kGraphml };
// "edges", "gml", "graphml" (webrank/util/named.hpp).
std::span<const Named<ExportFormat>> names(ExportFormat);

struct ExportOptions {
  ExportTable table = ExportTable::kLinks;
  ExportFormat format = ExportFormat::kEdges;
  // kGml, kGraphml: the stored rank vectors written as node attributes (an empty list: every
  // vector stored now). Each is loaded and checked first.
  std::vector<std::string> ranks;
  bool all_ranks = true;  // false: only `ranks` (possibly none)
  // A file, written through a temporary renamed into place; "-" (or "") is standard output.
  std::string output = "-";
  // kLinks, kLinkIds: write the weight column even when the database is unweighted (1 per link).
  bool weights = false;
};

// `s` as one field of a tab-separated line: tabs and line ends become spaces (how titles are
// written here, and by every command that prints TSV).
std::string tsv_field(std::string_view s);

// Writes the table. Throws Error (kIo naming the output) when a write fails, (kNotFound) for a
// rank vector that is not stored, (kInvalidArgument) for a graph format of a table other than
// kLinks; a file output is then left as it was.
void export_database(const Database& db, const ExportOptions& options);

}  // namespace webrank
