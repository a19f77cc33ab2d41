// `webrank export DB [--links|--pages] [-o FILE]`: the database back as text.
//   --links (default)  one `SOURCE<TAB>TARGET` label pair per ranked link, in source-id order
//                      (an edge list `webrank build` reads back into the same web; nofollow
//                      links are not ranked links and are not written), with a third field, the
//                      weight, when the database is weighted (or --weighted is given)
//   --links --ids      the same links as page ids (0 .. N-1): a numeric edge list for tools
//                      that take only numbers (bench/compare feeds it to the peers)
//   --pages            one line per page, id order, after a `#` header line:
//                      URL<TAB>STATUS<TAB>TITLE<TAB>OUT_LINKS<TAB>IN_LINKS; STATUS is the HTTP
//                      status, 0 for a page discovered but not fetched, `-` when the database
//                      has no page data; tabs and line ends inside titles become spaces
// Output goes to standard output, or to FILE through a temporary renamed into place.
#include "common.hpp"
#include "webrank/ingest/export.hpp"

namespace webrank::cli {

void add_export_command(CLI::App& app) {
  struct Args {
    std::string db, output;
    bool links = false, pages = false, ids = false, weighted = false, no_verify = false;
    ExportFormat format = ExportFormat::kEdges;
    std::vector<std::string> ranks;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "export", "Write the links (edge list, GML or GraphML) or the page table as text");
  cmd->add_option("DB", args->db, "Database directory")->required();
  auto* links = cmd->add_flag("--links", args->links,
                              "SOURCE<TAB>TARGET label pairs, one per link (the default)");
  auto* pages = cmd->add_flag("--pages", args->pages,
                              "URL, HTTP status, title, out-links, in-links per page");
  links->excludes(pages);
  cmd->add_flag("--ids", args->ids,
                "With --links: page ids (0 .. N-1) instead of labels, a numeric edge list")
      ->excludes(pages);
  cmd->add_flag("--weighted", args->weighted,
                "With --links: a third column, the link weight (written anyway for a weighted "
                "database; 1 per link for an unweighted one)")
      ->excludes(pages);
  auto* format = add_enum_option(cmd, "--format", &args->format,
                                 {{"edges", ExportFormat::kEdges},
                                  {"gml", ExportFormat::kGml},
                                  {"graphml", ExportFormat::kGraphml}},
                                 "edges (SOURCE<TAB>TARGET lines), gml or graphml (a directed "
                                 "graph for Gephi, Cytoscape, NetworkX, igraph: labels, titles, "
                                 "rank vectors as node attributes, weights)");
  format->excludes(pages);
  cmd->add_option("--ranks", args->ranks,
                  "With --format gml|graphml: the stored vectors written as node attributes "
                  "(repeatable; default every stored vector)")
      ->allow_extra_args(false);
  cmd->add_option("-o,--output", args->output, "Write to FILE instead of standard output");
  cmd->add_flag("--no-verify", args->no_verify, "Skip checksum verification");
  cmd->callback([args] {
    Database db = open_database(args->db, args->no_verify);
    ExportOptions o;
    o.table = args->pages ? ExportTable::kPages
              : args->ids ? ExportTable::kLinkIds
                          : ExportTable::kLinks;
    if (!args->output.empty()) o.output = args->output;
    o.weights = args->weighted;
    o.format = args->format;
    if (args->format == ExportFormat::kEdges && !args->ranks.empty())
      throw CLI::ValidationError("--ranks", "needs --format gml or graphml");
    if (args->format != ExportFormat::kEdges && args->ids)
      throw CLI::ValidationError("--ids", "is for --format edges");
    o.ranks = args->ranks;
    o.all_ranks = args->ranks.empty();
    export_database(db, o);
  });
}

}  // namespace webrank::cli
