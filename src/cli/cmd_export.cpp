// `webrank export DB [--links|--pages] [-o FILE]`: the database back as text.
//   --links (default)  one `SOURCE<TAB>TARGET` label pair per ranked link, in source-id order
//                      (an edge list `webrank build` reads back into the same web; nofollow
//                      links are not ranked links and are not written)
//   --links --ids      the same links as page ids (0 .. N-1): a numeric edge list for tools
//                      that take only numbers (bench/compare feeds it to the peers)
//   --pages            one line per page, id order, after a `#` header line:
//                      URL<TAB>STATUS<TAB>TITLE<TAB>OUT_LINKS<TAB>IN_LINKS; STATUS is the HTTP
//                      status, 0 for a page discovered but not fetched, `-` when the database
//                      has no page data; tabs and line ends inside titles become spaces
// Output goes to standard output, or to FILE through a temporary renamed into place.
#include <charconv>
#include <cstdio>
#include <memory>
#include <optional>

#include "cli/common.hpp"
#include "util/atomic_file.hpp"
#include "util/error.hpp"

namespace webrank::cli {
namespace {

// Decimal digits of an id (std::to_chars: an ostream per line made --ids 4x slower than labels).
void append_id(std::string& line, PageId id) {
  char digits[16];
  const auto end = std::to_chars(digits, digits + sizeof digits, id).ptr;
  line.append(digits, end);
}

std::string one_line(std::string_view s) {
  std::string r(s);
  for (char& c : r) {
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  }
  return r;
}

}  // namespace

void add_export_command(CLI::App& app) {
  struct Args {
    std::string db, output;
    bool links = false, pages = false, ids = false, no_verify = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("export", "Write the links or the page table as text");
  cmd->add_option("DB", args->db, "Database directory")->required();
  auto* links = cmd->add_flag("--links", args->links,
                              "SOURCE<TAB>TARGET label pairs, one per link (the default)");
  auto* pages = cmd->add_flag("--pages", args->pages,
                              "URL, HTTP status, title, out-links, in-links per page");
  links->excludes(pages);
  cmd->add_flag("--ids", args->ids,
                "With --links: page ids (0 .. N-1) instead of labels, a numeric edge list")
      ->excludes(pages);
  cmd->add_option("-o,--output", args->output, "Write to FILE instead of standard output");
  cmd->add_flag("--no-verify", args->no_verify, "Skip checksum verification");
  cmd->callback([args] {
    Database db = open_database(args->db, args->no_verify);
    std::optional<AtomicFileWriter> file;
    std::FILE* out = stdout;
    if (!args->output.empty()) {
      file.emplace(args->output);
      out = file->stream();
    }
    const GraphView& g = db.graph();
    auto put = [&](std::string_view s) {
      if (std::fwrite(s.data(), 1, s.size(), out) != s.size())
        fail_errno(args->output.empty() ? "<stdout>" : args->output, "write failed");
    };
    std::string line;
    if (args->pages) {
      put("#url\tstatus\ttitle\tout_links\tin_links\n");
      for (PageId u = 0; u < db.num_pages(); ++u) {
        line.assign(db.label(u));
        line += '\t';
        const auto st = db.status(u);
        line += st ? std::to_string(*st) : "-";
        line += '\t';
        line += one_line(db.title(u).value_or(""));
        line += cat('\t', g.out.offsets[u + 1] - g.out.offsets[u], '\t',
                    g.in.offsets[u + 1] - g.in.offsets[u], '\n');
        put(line);
      }
    } else {
      auto append_page = [&](PageId v) {
        if (args->ids) {
          append_id(line, v);
        } else {
          line += db.label(v);
        }
      };
      for (PageId u = 0; u < db.num_pages(); ++u) {
        for (std::uint64_t i = g.out.offsets[u]; i < g.out.offsets[u + 1]; ++i) {
          line.clear();
          append_page(u);
          line += '\t';
          append_page(g.out.ids[i]);
          line += '\n';
          put(line);
        }
      }
    }
    if (file) {
      file->commit();
    } else if (std::fflush(stdout) != 0) {
      fail_errno("<stdout>", "write failed");
    }
  });
}

}  // namespace webrank::cli
