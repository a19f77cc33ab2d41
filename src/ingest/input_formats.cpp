#include "ingest/input_formats.hpp"

#include "ingest/formats/readers.hpp"
#include "webrank/ingest/formats.hpp"
#include "webrank/util/error.hpp"

namespace webrank {

const std::vector<InputFormat>& input_formats() {
  static const std::vector<InputFormat> formats{
      {"edges", "edge list: SOURCE<TAB>TARGET[<TAB>WEIGHT] per line (gz/zst/stdin)",
       read_edge_list},
      {"bv", "WebGraph BVGraph: BASENAME (.graph + .properties), decoded sequentially",
       read_bvgraph},
      {"mtx", "Matrix Market coordinate matrix: entry (i, j) is the link i -> j",
       read_matrix_market},
      {"pajek", "Pajek .net: *Vertices with labels, *Arcs, *Edges, *Arcslist, *Edgeslist",
       read_pajek},
      {"gml",
       "GML (.gml): node [ id label ], edge [ source target weight ]; undirected "
       "unless 'directed 1'",
       read_gml},
      {"graphml", "GraphML (.graphml): <node>, <edge>, 'label'/'name' and 'weight' data",
       read_graphml},
      {"cc-hosts", "Common Crawl host graph: PREFIX-vertices.txt.gz + PREFIX-edges.txt.gz",
       read_cc_hosts},
      {"wdc", "Web Data Commons hyperlink graph: PREFIX-index.gz + PREFIX-arc.gz", read_wdc},
      {"warc",
       "web archive (WARC/1.0, 1.1; .warc, .warc.gz): response, resource and revisit "
       "records, with page data",
       read_warc},
      {"html-dir", "directory tree of .html files, labelled by file:// URLs, with page data",
       read_html_dir},
  };
  return formats;
}

const InputFormat* detect_format(const std::string& path) {
  struct Rule {
    const char* name;
    bool (*matches)(const std::string&);
  };
  static const Rule rules[] = {{"bv", looks_like_bv},
                               {"mtx", looks_like_matrix_market},
                               {"pajek", looks_like_pajek},
                               {"gml", looks_like_gml},
                               {"graphml", looks_like_graphml},
                               {"cc-hosts", looks_like_cc_hosts},
                               {"wdc", looks_like_wdc},
                               {"warc", looks_like_warc},
                               {"html-dir", looks_like_html_dir}};
  for (const auto& rule : rules) {
    if (rule.matches(path)) return &find_input_format(rule.name, path);
  }
  return nullptr;
}

const InputFormat& find_input_format(const std::string& name, const std::string& path) {
  const auto& all = input_formats();
  if (name == "auto") {
    const InputFormat* detected = detect_format(path);
    return detected ? *detected : all.front();
  }
  for (const auto& f : all) {
    if (f.name == name) return f;
  }
  std::string known;
  for (const auto& f : all) known += (known.empty() ? "" : ", ") + f.name;
  fail(ErrorKind::kInvalidInput, "unknown input format '", name, "' (known: ", known, ")");
}

std::vector<InputFormatInfo> list_input_formats() {
  std::vector<InputFormatInfo> list;
  for (const InputFormat& f : input_formats()) list.push_back({f.name, f.description});
  return list;
}

std::optional<std::string> detect_input_format(const std::string& path) {
  const InputFormat* f = detect_format(path);
  if (!f) return std::nullopt;
  return f->name;
}

}  // namespace webrank
