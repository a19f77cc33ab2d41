// Input format `graphml`: GraphML (.graphml), as NetworkX, igraph, Gephi, Cytoscape and yEd
// write it, parsed by expat (streaming: the file is never held whole).
//
// Contract:
// - The first <graph> is read (nested graphs, hyperedges and ports are refused). Every <node
//   id="..."> is a page, declared in file order (page ids follow the file). Its label is the value
//   of its <data> for the node key whose attr.name is "label" (Gephi, NetworkX), else "name"
//   (igraph's vertex names), else the key's <default>, else the node's id.
// - Every <edge source="..." target="..."> joins two declared nodes. It is a link from source to
//   target when the edge says directed="true", or says nothing and the graph has
//   edgedefault="directed"; otherwise (directed="false", or edgedefault="undirected", GraphML's
//   default) a link both ways. With --weighted, the edge's <data> for the edge key whose
//   attr.name is "weight" (else that key's <default>, else 1) is the link weight (finite, >= 0);
//   without, weights are ignored. Other keys and elements are skipped.
// - Errors name FILE:LINE: malformed XML (expat's message), a node without an id or declared
//   twice, an edge without both ends or to an undeclared node, two nodes with one label, no graph.
// - Gzip and zstd files are read transparently; "-" is standard input.
#include <expat.h>

#include <optional>
#include <unordered_map>

#include "ingest/formats/node_edge_graph.hpp"
#include "ingest/formats/numbers.hpp"
#include "ingest/formats/path_names.hpp"
#include "ingest/formats/readers.hpp"
#include "util/input_stream.hpp"

namespace webrank {
namespace {

// The local name of an element or attribute: expat is not namespace-aware here, and GraphML files
// come with and without prefixes.
std::string_view local(const char* name) {
  std::string_view n(name);
  const std::size_t colon = n.rfind(':');
  return colon == std::string_view::npos ? n : n.substr(colon + 1);
}

const char* attribute(const char** attrs, std::string_view name) {
  for (int i = 0; attrs[i]; i += 2) {
    if (local(attrs[i]) == name) return attrs[i + 1];
  }
  return nullptr;
}

class GraphmlParser {
 public:
  GraphmlParser(std::string name, bool weighted)
      : name_(std::move(name)), weighted_(weighted), graph_(name_) {
    parser_ = XML_ParserCreate(nullptr);
    XML_SetUserData(parser_, this);
    XML_SetElementHandler(parser_, &GraphmlParser::on_start, &GraphmlParser::on_end);
    XML_SetCharacterDataHandler(parser_, &GraphmlParser::on_text);
  }
  ~GraphmlParser() { XML_ParserFree(parser_); }
  GraphmlParser(const GraphmlParser&) = delete;
  GraphmlParser& operator=(const GraphmlParser&) = delete;

  std::uint64_t read(InputStream& in, RecordSink& sink, const OnBytes& on_bytes) {
    std::vector<char> buf(1 << 16);
    for (;;) {
      const std::size_t got = in.read(buf.data(), buf.size());
      if (XML_Parse(parser_, buf.data(), static_cast<int>(got), got == 0) == XML_STATUS_ERROR) {
        if (!error_.empty()) throw Error(ErrorKind::kInvalidInput, error_);
        fail(ErrorKind::kInvalidInput, name_, ":", XML_GetCurrentLineNumber(parser_), ": ",
             XML_ErrorString(XML_GetErrorCode(parser_)), " (not well-formed XML)");
      }
      if (on_bytes) on_bytes(in.raw_position());
      if (got == 0) break;
    }
    if (!seen_graph_) fail(ErrorKind::kInvalidInput, name_, ": no <graph> element: not GraphML");
    if (graph_.undirected_edges() > 0) {
      sink.note(cat(name_, ": ", graph_.undirected_edges(),
                    " undirected edges (edgedefault=\"undirected\" or directed=\"false\"): each "
                    "is a link both ways, as NetworkX and igraph read them"));
    }
    return graph_.feed(sink);
  }

 private:
  struct Key {
    std::string name;  // attr.name
    std::optional<std::string> default_value;
  };

  std::uint64_t line() const { return XML_GetCurrentLineNumber(parser_); }
  // Stops the parser with an error; read() throws it (an exception may not cross expat's C code).
  void stop(const std::string& what) {
    if (error_.empty()) error_ = cat(name_, ":", line(), ": ", what);
    XML_StopParser(parser_, XML_FALSE);
  }

  void stop_with(const Error& e) {
    if (error_.empty()) error_ = e.what();
    XML_StopParser(parser_, XML_FALSE);
  }

  static void on_start(void* self, const char* name, const char** attrs) {
    static_cast<GraphmlParser*>(self)->start(local(name), attrs);
  }
  static void on_end(void* self, const char* name) {
    static_cast<GraphmlParser*>(self)->end(local(name));
  }
  static void on_text(void* self, const char* text, int len) {
    auto* p = static_cast<GraphmlParser*>(self);
    if (p->text_) p->text_->append(text, static_cast<std::size_t>(len));
  }

  void start(std::string_view element, const char** attrs) {
    if (skip_depth_ > 0) {  // inside a graph after the first
      ++skip_depth_;
      return;
    }
    if (element == "key") {
      const char* id = attribute(attrs, "id");
      const char* for_ = attribute(attrs, "for");
      const char* attr_name = attribute(attrs, "attr.name");
      if (!id) return stop("a <key> without an id");
      const std::string f = for_ ? for_ : "all";
      key_ = id;
      Key k{attr_name ? attr_name : "", std::nullopt};
      if (f == "node" || f == "all") node_keys_[id] = k;
      if (f == "edge" || f == "all") edge_keys_[id] = k;
    } else if (element == "default" && !key_.empty()) {
      text_ = &default_text_;
      default_text_.clear();
    } else if (element == "graph") {
      if (in_graph_) return stop("a nested <graph> (not supported)");
      if (seen_graph_) {
        skip_depth_ = 1;  // only the first graph is read
        return;
      }
      const char* d = attribute(attrs, "edgedefault");
      directed_default_ = d && std::string_view(d) == "directed";
      in_graph_ = seen_graph_ = true;
    } else if (element == "hyperedge" || element == "port") {
      stop("<" + std::string(element) + "> is not supported (hypergraphs and ports)");
    } else if (element == "node" && in_graph_) {
      const char* id = attribute(attrs, "id");
      if (!id) return stop("a <node> without an id");
      node_id_ = id;
      node_line_ = line();
      label_.reset();
      name_value_.reset();
      in_node_ = true;
    } else if (element == "edge" && in_graph_) {
      const char* s = attribute(attrs, "source");
      const char* t = attribute(attrs, "target");
      if (!s || !t) return stop("an <edge> needs a source and a target");
      const char* d = attribute(attrs, "directed");
      edge_source_ = s;
      edge_target_ = t;
      edge_directed_ = d ? std::string_view(d) == "true" : directed_default_;
      edge_line_ = line();
      weight_text_.reset();
      in_edge_ = true;
    } else if (element == "data" && (in_node_ || in_edge_)) {
      const char* key = attribute(attrs, "key");
      data_key_ = key ? key : "";
      data_text_.clear();
      text_ = &data_text_;
    }
  }

  void end(std::string_view element) {
    if (skip_depth_ > 0) {
      --skip_depth_;
      return;
    }
    if (element == "key") {
      key_.clear();
    } else if (element == "default" && !key_.empty()) {
      text_ = nullptr;
      for (auto* keys : {&node_keys_, &edge_keys_}) {
        if (auto it = keys->find(key_); it != keys->end()) it->second.default_value = default_text_;
      }
    } else if (element == "graph") {
      in_graph_ = false;
    } else if (element == "data" && text_ == &data_text_) {
      text_ = nullptr;
      if (in_node_) {
        if (auto it = node_keys_.find(data_key_); it != node_keys_.end()) {
          if (it->second.name == "label") label_ = data_text_;
          if (it->second.name == "name") name_value_ = data_text_;
        }
      } else if (in_edge_) {
        if (auto it = edge_keys_.find(data_key_);
            it != edge_keys_.end() && it->second.name == "weight") {
          weight_text_ = data_text_;
        }
      }
    } else if (element == "node" && in_node_) {
      in_node_ = false;
      std::optional<std::string> label = label_ ? label_ : name_value_;
      if (!label) label = default_of(node_keys_, "label");
      if (!label) label = default_of(node_keys_, "name");
      try {
        graph_.node(node_id_, std::move(label), node_line_);
      } catch (const Error& e) {
        stop_with(e);
      }
    } else if (element == "edge" && in_edge_) {
      in_edge_ = false;
      double weight = 1;
      if (weighted_) {
        std::optional<std::string> text =
            weight_text_ ? weight_text_ : default_of(edge_keys_, "weight");
        if (text) {
          const std::string trimmed = trim(*text);
          try {
            weight = parse_link_weight(trimmed, [&] { return cat(name_, ":", edge_line_); });
          } catch (const Error& e) {
            return stop_with(e);
          }
        }
      }
      graph_.edge(edge_source_, edge_target_, weight, edge_directed_, edge_line_);
    }
  }

  static std::optional<std::string> default_of(const std::unordered_map<std::string, Key>& keys,
                                               std::string_view attr_name) {
    for (const auto& [id, k] : keys) {
      if (k.name == attr_name && k.default_value) return k.default_value;
    }
    return std::nullopt;
  }
  static std::string trim(const std::string& s) {
    const std::size_t b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
  }

  XML_Parser parser_;
  std::string name_;
  bool weighted_;
  NodeEdgeGraph graph_;
  std::string error_;
  std::unordered_map<std::string, Key> node_keys_, edge_keys_;
  std::string key_, default_text_;
  bool in_graph_ = false, seen_graph_ = false, directed_default_ = false;
  int skip_depth_ = 0;
  bool in_node_ = false, in_edge_ = false;
  std::string node_id_, edge_source_, edge_target_, data_key_, data_text_;
  std::optional<std::string> label_, name_value_, weight_text_;
  std::uint64_t node_line_ = 0, edge_line_ = 0;
  bool edge_directed_ = false;
  std::string* text_ = nullptr;
};

}  // namespace

bool looks_like_graphml(const std::string& path) {
  return path != "-" && ends_with(plain_name(path), ".graphml");
}

std::uint64_t read_graphml(const std::string& path, bool weighted, RecordSink& sink,
                           const OnBytes& on_bytes) {
  auto in = open_input(path);
  GraphmlParser parser(in->name(), weighted);
  return parser.read(*in, sink, on_bytes);
}

}  // namespace webrank
