// export_database() (webrank/ingest/export.hpp).
#include "webrank/ingest/export.hpp"

#include <charconv>
#include <cstdio>
#include <memory>
#include <optional>

#include "ingest/export_graph.hpp"
#include "util/atomic_file.hpp"
#include "util/error.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

// Decimal digits of an id (std::to_chars: an ostream per line made --ids slower than labels).
void append_id(std::string& line, PageId id) {
  char digits[16];
  const auto end = std::to_chars(digits, digits + sizeof digits, id).ptr;
  line.append(digits, end);
}

// The shortest decimal that reads back as the same double.
void append_number(std::string& line, double x) {
  char digits[32];
  const auto end = std::to_chars(digits, digits + sizeof digits, x).ptr;
  line.append(digits, end);
}

}  // namespace

std::string tsv_field(std::string_view s) {
  std::string r(s);
  for (char& c : r) {
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  }
  return r;
}

void export_database(const Database& db, const ExportOptions& o) {
  const bool to_stdout = o.output.empty() || o.output == "-";
  std::optional<AtomicFileWriter> file;
  std::FILE* out = stdout;
  if (!to_stdout) {
    file.emplace(o.output);
    out = file->stream();
  }
  const GraphView& g = db.graph();
  auto put = [&](std::string_view s) {
    if (std::fwrite(s.data(), 1, s.size(), out) != s.size())
      fail_errno(to_stdout ? std::string("<stdout>") : o.output, "write failed");
  };
  std::string line;
  if (o.format != ExportFormat::kEdges) {
    if (o.table != ExportTable::kLinks)
      fail_option("format", "gml and graphml write the links with their pages' labels: not with ",
                  o.table == ExportTable::kPages ? "the page table" : "ids");
    write_graph_file(db, o, put);
  } else if (o.table == ExportTable::kPages) {
    put("#url\tstatus\ttitle\tout_links\tin_links\n");
    for (PageId u = 0; u < db.num_pages(); ++u) {
      line.assign(db.label(u));
      line += '\t';
      const auto st = db.status(u);
      line += st ? std::to_string(*st) : "-";
      line += '\t';
      line += tsv_field(db.title(u).value_or(""));
      line += cat('\t', g.out.offsets[u + 1] - g.out.offsets[u], '\t',
                  g.in.offsets[u + 1] - g.in.offsets[u], '\n');
      put(line);
    }
  } else {
    auto append_page = [&](PageId v) {
      if (o.table == ExportTable::kLinkIds) {
        append_id(line, v);
      } else {
        line += db.label(v);
      }
    };
    const bool weights = g.weighted() || o.weights;
    for (PageId u = 0; u < db.num_pages(); ++u) {
      for (std::uint64_t i = g.out.offsets[u]; i < g.out.offsets[u + 1]; ++i) {
        line.clear();
        append_page(u);
        line += '\t';
        append_page(g.out.ids[i]);
        if (weights) {
          line += '\t';
          append_number(line, g.weighted() ? g.out.weights[i] : 1.0);
        }
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
}

}  // namespace webrank
