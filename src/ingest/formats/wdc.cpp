// Input format `wdc`: a Web Data Commons hyperlink graph (webdatacommons.org/hyperlinkgraph) in
// its index/arc form: an index file of `NAME<TAB>ID` lines (NAME = a page URL, a host or a
// pay-level domain) and an arc file of `FROM<TAB>TO` id lines.
//
// Contract:
// - Which files are read, from the input path:
//     PREFIX-index.gz   an index file (any name containing "index"): the arc file is the same
//                       path with the last "index" of the file name replaced by "arc", or by
//                       "arcs" when that does not exist (pld-index.gz -> pld-arc.gz,
//                       sd1-index.gz -> sd1-arc.gz, example_index -> example_arcs: the names
//                       Web Data Commons publishes)
//     PREFIX            (no such file) PREFIX-index.gz, PREFIX-index.zst or PREFIX-index, and
//                       its arc file as above
//     DIR               a directory with index/ and arc/ (or arcs/) subdirectories (the split
//                       page graph): every file in each, in name order (names starting with
//                       '.' or '_' skipped)
// - Index lines are `NAME<TAB>ID`; the label of a page is NAME as it is.
// - The rest (pages in index-file order, arcs as links, ids, weights, errors) is the
//   numbered-graph contract of numbered_graph.hpp.
#include <filesystem>

#include "ingest/formats/numbered_graph.hpp"
#include "ingest/formats/path_names.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {
namespace fs = std::filesystem;

void as_is(std::string_view name, std::string& out) {
  out.append(name);
}

std::string prefix_index(const std::string& prefix) {
  return first_existing({prefix + "-index.gz", prefix + "-index.zst", prefix + "-index"});
}

void from_index_file(const std::string& index, NumberedGraphSpec& spec) {
  const std::size_t slash = index.find_last_of('/');
  const std::size_t at = index.rfind("index");
  if (at == std::string::npos || (slash != std::string::npos && at < slash)) {
    fail(ErrorKind::kInvalidInput, index,
         ": the wdc format needs an index file whose name contains 'index' (pld-index.gz "
         "with pld-arc.gz next to it), a PREFIX of such a pair, or a directory with "
         "index/ and arc/ subdirectories");
  }
  const std::string arc = index.substr(0, at) + "arc" + index.substr(at + 5);
  const std::string arcs = index.substr(0, at) + "arcs" + index.substr(at + 5);
  const std::string found = first_existing({arc, arcs});
  if (found.empty()) {
    fail(ErrorKind::kInvalidInput, arc, ": no such file (nor ", arcs, "): the arc file of ", index,
         " (the same name with 'index' replaced by 'arc')");
  }
  spec.vertex_files = {index};
  spec.arc_files = {found};
}

NumberedGraphSpec wdc_spec(const std::string& path) {
  NumberedGraphSpec spec;
  spec.id_field = 1;
  spec.name_field = 0;
  spec.max_fields = 2;
  spec.vertex_form = "NAME<TAB>ID";
  spec.to_label = as_is;
  if (path == "-") {
    fail(ErrorKind::kInvalidInput,
         "<stdin>: the wdc format cannot be read from standard input (it needs an index file "
         "and an arc file)");
  }
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    const std::string index = (fs::path(path) / "index").string();
    std::string arc = (fs::path(path) / "arc").string();
    if (!fs::is_directory(arc, ec)) arc = (fs::path(path) / "arcs").string();
    if (!fs::is_directory(index, ec) || !fs::is_directory(arc, ec)) {
      fail(ErrorKind::kInvalidInput, path,
           ": a wdc directory needs index/ and arc/ (or arcs/) subdirectories");
    }
    spec.vertex_files = part_files(index);
    spec.arc_files = part_files(arc);
    if (spec.vertex_files.empty())
      fail(ErrorKind::kInvalidInput, index, ": no index files in this directory");
    if (spec.arc_files.empty())
      fail(ErrorKind::kInvalidInput, arc, ": no arc files in this directory");
    return spec;
  }
  if (fs::exists(path, ec)) {
    from_index_file(path, spec);
    return spec;
  }
  const std::string index = prefix_index(path);
  if (index.empty()) {
    fail(ErrorKind::kInvalidInput, path, ": no such file, and no ", path,
         "-index.gz (.zst, or uncompressed) either");
  }
  from_index_file(index, spec);
  return spec;
}

}  // namespace

bool looks_like_wdc(const std::string& path) {
  if (path == "-") return false;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    return fs::is_directory(fs::path(path) / "index", ec) &&
           (fs::is_directory(fs::path(path) / "arc", ec) ||
            fs::is_directory(fs::path(path) / "arcs", ec));
  }
  if (fs::exists(path, ec)) {
    const std::string name = plain_name(path);
    return ends_with(name, "-index") || ends_with(name, "_index");
  }
  return !prefix_index(path).empty();
}

std::uint64_t read_wdc(const std::string& path, bool weighted, RecordSink& sink,
                       const OnBytes& on_bytes) {
  return read_numbered_graph(wdc_spec(path), weighted, sink, on_bytes);
}

}  // namespace webrank
