// Input format `cc-hosts`: a Common Crawl host-level (or domain-level) web graph in its text
// form: a vertices file of `ID<TAB>REVERSED_HOST` lines and an edges file of `FROM<TAB>TO`
// lines (https://commoncrawl.org/ "Host- and Domain-Level Web Graphs" releases).
//
// Contract:
// - Which files are read, from the input path:
//     PREFIX-vertices.txt.gz   a vertices file (any name containing "vertices", compressed or
//                              not): the edges file is the same path with the last "vertices"
//                              of the file name replaced by "edges" (PREFIX-edges.txt.gz), as in
//                              Common Crawl's published cc-main-...-vertices.txt.gz /
//                              cc-main-...-edges.txt.gz pairs
//     PREFIX                   (no such file) PREFIX-vertices.txt.gz, .txt.zst or .txt, and its
//                              edges file as above
//     DIR                      a directory with vertices/ and edges/ subdirectories (the layout
//                              of the split releases, vertices/part-*.gz and edges/part-*.gz):
//                              every file in each, in name order (names starting with '.' or
//                              '_' skipped); otherwise a directory holding exactly one
//                              *-vertices.txt* file, taken as above
// - Vertex lines are `ID<TAB>REVERSED_HOST`, optionally with a third field (the host count of
//   domain-graph vertices, ignored). Labels are the host names un-reversed, their dot-separated
//   parts in reverse order: `com.example.www` -> `www.example.com`. Common Crawl strips a
//   leading "www." before reversing (`com.example` stands for www.example.com and
//   example.com alike); it is not restored.
// - The rest (pages in vertices-file order, arcs as links, ids, weights, errors) is the
//   numbered-graph contract of numbered_graph.hpp.
#include <filesystem>

#include "ingest/formats/numbered_graph.hpp"
#include "ingest/formats/path_names.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {
namespace fs = std::filesystem;

void unreverse_host(std::string_view reversed, std::string& out) {
  std::size_t end = reversed.size();
  for (;;) {
    const std::size_t dot = reversed.rfind('.', end == 0 ? std::string_view::npos : end - 1);
    if (end == 0 || dot == std::string_view::npos) {
      out.append(reversed.substr(0, end));
      return;
    }
    out.append(reversed.substr(dot + 1, end - dot - 1));
    out += '.';
    end = dot;
  }
}

// PREFIX-vertices.txt.gz -> PREFIX-edges.txt.gz; "" when the name has no "vertices".
std::string edges_for(const std::string& vertices) {
  const std::size_t slash = vertices.find_last_of('/');
  const std::size_t at = vertices.rfind("vertices");
  if (at == std::string::npos || (slash != std::string::npos && at < slash)) return "";
  return vertices.substr(0, at) + "edges" + vertices.substr(at + 8);
}

std::string prefix_vertices(const std::string& prefix) {
  return first_existing(
      {prefix + "-vertices.txt.gz", prefix + "-vertices.txt.zst", prefix + "-vertices.txt"});
}

void from_vertices_file(const std::string& vertices, NumberedGraphSpec& spec) {
  const std::string edges = edges_for(vertices);
  if (edges.empty()) {
    fail(ErrorKind::kInvalidInput, vertices,
         ": the cc-hosts format needs a vertices file whose name contains 'vertices' "
         "(PREFIX-vertices.txt.gz, with PREFIX-edges.txt.gz next to it), a PREFIX of "
         "such a pair, or a directory with vertices/ and edges/ subdirectories");
  }
  std::error_code ec;
  if (!fs::is_regular_file(edges, ec)) {
    fail(ErrorKind::kInvalidInput, edges, ": no such file: the edges file of ", vertices,
         " (the same name with 'vertices' replaced by 'edges')");
  }
  spec.vertex_files = {vertices};
  spec.arc_files = {edges};
}

NumberedGraphSpec cc_spec(const std::string& path) {
  NumberedGraphSpec spec;
  spec.id_field = 0;
  spec.name_field = 1;
  spec.max_fields = 3;
  spec.vertex_form = "ID<TAB>REVERSED_HOST";
  spec.to_label = unreverse_host;
  if (path == "-") {
    fail(ErrorKind::kInvalidInput,
         "<stdin>: the cc-hosts format cannot be read from standard input (it needs a vertices "
         "file and an edges file)");
  }
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    const std::string v = (fs::path(path) / "vertices").string();
    const std::string e = (fs::path(path) / "edges").string();
    if (fs::is_directory(v, ec) && fs::is_directory(e, ec)) {
      spec.vertex_files = part_files(v);
      spec.arc_files = part_files(e);
      if (spec.vertex_files.empty())
        fail(ErrorKind::kInvalidInput, v, ": no vertices files in this directory");
      if (spec.arc_files.empty())
        fail(ErrorKind::kInvalidInput, e, ": no edges files in this directory");
      return spec;
    }
    std::vector<std::string> found;
    for (const auto& f : part_files(path)) {
      if (plain_name(f).find("-vertices.txt") != std::string::npos) found.push_back(f);
    }
    if (found.size() != 1) {
      fail(ErrorKind::kInvalidInput, path,
           ": expected vertices/ and edges/ subdirectories or exactly one "
           "*-vertices.txt[.gz] file, found ",
           found.size(), " vertices files");
    }
    from_vertices_file(found.front(), spec);
    return spec;
  }
  if (fs::exists(path, ec)) {
    from_vertices_file(path, spec);
    return spec;
  }
  const std::string v = prefix_vertices(path);
  if (v.empty()) {
    fail(ErrorKind::kInvalidInput, path, ": no such file, and no ", path,
         "-vertices.txt.gz (.txt.zst, .txt) either");
  }
  from_vertices_file(v, spec);
  return spec;
}

}  // namespace

bool looks_like_cc_hosts(const std::string& path) {
  if (path == "-") return false;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    return fs::is_directory(fs::path(path) / "vertices", ec) &&
           fs::is_directory(fs::path(path) / "edges", ec);
  }
  if (fs::exists(path, ec)) return ends_with(plain_name(path), "-vertices.txt");
  return !prefix_vertices(path).empty();
}

std::uint64_t read_cc_hosts(const std::string& path, bool weighted, RecordSink& sink,
                            const OnBytes& on_bytes) {
  return read_numbered_graph(cc_spec(path), weighted, sink, on_bytes);
}

}  // namespace webrank
