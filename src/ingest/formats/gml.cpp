// Input format `gml`: the Graph Modelling Language (.gml), as NetworkX, igraph, Gephi and
// Cytoscape write it.
//
// Contract:
// - A file is a list of `KEY VALUE` pairs; a VALUE is an integer, a real, a "string" (it may
//   span lines; no escapes inside, HTML entities such as &quot; &amp; &#233; &#xE9; decoded) or
//   a `[ ... ]` list of pairs. Lines starting with '#' are comments. Keys are identifiers.
// - The first `graph [ ... ]` is read. In it: `directed 1` makes its edges links from `source`
//   to `target`; otherwise (GML's default, and `directed 0`) the graph is undirected and each
//   edge is a link both ways, as NetworkX and igraph read it. Every `node [ id N label "L" ]`
//   is a page, declared in file order (page ids follow the file): its label is L, else its
//   `name` (igraph writes vertex names so), else the id N in decimal. Every `edge [ source A target
//   B weight W ]` joins two declared nodes (by id). With
//   --weighted, W (finite, >= 0; 1 when absent) is the link weight; without, it is ignored.
//   Other keys (`multigraph`, `graphics`, attributes) are skipped; parallel edges merge as in every
//   format (their weights add).
// - Errors name FILE:LINE and what was expected: a node without an integer id, a repeated id, an
//   edge to an undeclared node, two nodes with one label, an unclosed list or string, no graph.
// - Gzip and zstd files are read transparently; "-" is standard input.
#include <cctype>
#include <cstdlib>
#include <optional>

#include "ingest/formats/node_edge_graph.hpp"
#include "ingest/formats/numbers.hpp"
#include "ingest/formats/path_names.hpp"
#include "ingest/formats/readers.hpp"
#include "util/error.hpp"
#include "util/input_stream.hpp"

namespace webrank {
namespace {

// Characters of a (decompressed) input with the line they are on.
class CharReader {
 public:
  explicit CharReader(InputStream& in) : in_(in), buf_(1 << 16) {}
  int peek() {
    if (pos_ == end_ && !fill()) return -1;
    return static_cast<unsigned char>(buf_[pos_]);
  }
  int get() {
    const int c = peek();
    if (c >= 0) {
      ++pos_;
      if (c == '\n') ++line_;
    }
    return c;
  }
  std::uint64_t line() const { return line_; }
  std::uint64_t file_position() const { return in_.raw_position(); }

 private:
  bool fill() {
    end_ = in_.read(buf_.data(), buf_.size());
    pos_ = 0;
    return end_ > 0;
  }
  InputStream& in_;
  std::vector<char> buf_;
  std::size_t pos_ = 0, end_ = 0;
  std::uint64_t line_ = 1;
};

// Appends code point `cp` in UTF-8.
void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | cp >> 6);
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | cp >> 12);
    out += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | cp >> 18);
    out += static_cast<char>(0x80 | (cp >> 12 & 0x3F));
    out += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// GML strings carry HTML entities for '"', '&' and characters outside ASCII.
std::string decode_entities(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const std::size_t semi = s[i] == '&' ? s.find(';', i) : std::string_view::npos;
    if (semi == std::string_view::npos || semi - i > 12) {
      out += s[i];
      continue;
    }
    const std::string_view name = s.substr(i + 1, semi - i - 1);
    static const std::pair<std::string_view, char> named[] = {
        {"amp", '&'}, {"quot", '"'}, {"lt", '<'}, {"gt", '>'}, {"apos", '\''}};
    bool done = false;
    for (const auto& [n, c] : named) {
      if (name == n) {
        out += c;
        done = true;
      }
    }
    if (!done && name.size() >= 2 && name[0] == '#') {
      const bool hex = name[1] == 'x' || name[1] == 'X';
      const std::string digits(name.substr(hex ? 2 : 1));
      char* end = nullptr;
      const unsigned long cp = std::strtoul(digits.c_str(), &end, hex ? 16 : 10);
      if (!digits.empty() && *end == '\0' && cp > 0 && cp <= 0x10FFFF) {
        append_utf8(out, static_cast<std::uint32_t>(cp));
        done = true;
      }
    }
    if (done) {
      i = semi;
    } else {
      out += s[i];
    }
  }
  return out;
}

struct Token {
  enum Kind { kEnd, kOpen, kClose, kString, kWord } kind = kEnd;
  std::string text;
  std::uint64_t line = 0;
};

class GmlParser {
 public:
  GmlParser(InputStream& in, std::string name, bool weighted, const OnBytes& on_bytes)
      : chars_(in),
        name_(std::move(name)),
        weighted_(weighted),
        on_bytes_(on_bytes),
        graph_(name_) {}

  // Reads the file; returns the number of edges.
  std::uint64_t read(RecordSink& sink) {
    bool found = false;
    for (Token key = next(); key.kind != Token::kEnd; key = next()) {
      expect_key(key);
      if (key.text == "graph" && !found) {
        if (next_value(key).kind != Token::kOpen) fail_at(key.line, "expected 'graph [' (a list)");
        read_graph();
        found = true;
      } else {
        skip_value(next_value(key));
      }
    }
    if (!found) fail(ErrorKind::kInvalidInput, name_, ": no 'graph [ ... ]': not a GML graph");
    if (on_bytes_) on_bytes_(chars_.file_position());
    if (!directed_ && graph_.undirected_edges() > 0) {
      sink.note(cat(name_,
                    ": an undirected graph (no 'directed 1'): each edge is a link both "
                    "ways, as NetworkX and igraph read it"));
    }
    return graph_.feed(sink);
  }

 private:
  [[noreturn]] void fail_at(std::uint64_t line, const std::string& what) const {
    fail(ErrorKind::kInvalidInput, name_, ":", line, ": ", what);
  }
  void expect_key(const Token& t) const {
    if (t.kind != Token::kWord ||
        !(std::isalpha(static_cast<unsigned char>(t.text[0])) || t.text[0] == '_')) {
      fail_at(t.line,
              "expected a key, found " + (t.kind == Token::kEnd ? std::string("the end of the file")
                                                                : quoted_excerpt(t.text)));
    }
  }
  Token next_value(const Token& key) {
    Token v = next();
    if (v.kind == Token::kEnd || v.kind == Token::kClose)
      fail_at(key.line, "key '" + key.text + "' has no value");
    return v;
  }
  void skip_value(const Token& v) {
    if (v.kind != Token::kOpen) return;
    for (Token t = next(); t.kind != Token::kClose; t = next()) {
      if (t.kind == Token::kEnd) fail_at(v.line, "a list opened here is not closed");
      if (t.kind == Token::kOpen) skip_value(t);
    }
  }
  // The text of a number or string value.
  std::string scalar(const Token& key) {
    const Token v = next_value(key);
    if (v.kind == Token::kOpen) {
      skip_value(v);
      fail_at(key.line, "key '" + key.text + "' must be a number or a string, not a list");
    }
    return v.text;
  }
  std::string integer_id(const Token& key) {
    const std::string text = scalar(key);
    char* end = nullptr;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0')
      fail_at(key.line, "'" + key.text + "' must be an integer, got " + quoted_excerpt(text));
    return std::to_string(v);
  }

  // Calls fn(key) for each key of the list opened on `line` (`what` names it), up to its ']'.
  template <typename Fn>
  void for_each_key(std::uint64_t line, const char* what, Fn fn) {
    for (Token key = next(); key.kind != Token::kClose; key = next()) {
      if (key.kind == Token::kEnd) fail_at(line, cat(what, "'s list is not closed"));
      expect_key(key);
      fn(key);
    }
  }

  void read_graph() {
    for_each_key(chars_.line(), "the graph", [&](const Token& key) {
      if (key.text == "directed") {
        directed_ = scalar(key) == "1";
      } else if (key.text == "node" || key.text == "edge") {
        const Token open = next_value(key);
        if (open.kind != Token::kOpen) fail_at(key.line, "expected '" + key.text + " [' (a list)");
        key.text == "node" ? read_node(key.line) : read_edge(key.line);
      } else {
        skip_value(next_value(key));
      }
    });
  }
  void read_node(std::uint64_t line) {
    std::optional<std::string> id, label, name;
    for_each_key(line, "a node", [&](const Token& key) {
      if (key.text == "id") {
        id = integer_id(key);
      } else if (key.text == "label") {
        label = scalar(key);
      } else if (key.text == "name") {
        name = scalar(key);
      } else {
        skip_value(next_value(key));
      }
    });
    if (!id) fail_at(line, "a node without an 'id'");
    graph_.node(*id, label ? std::move(label) : std::move(name), line);
    progress();
  }
  void read_edge(std::uint64_t line) {
    std::optional<std::string> source, target;
    double weight = 1;
    for_each_key(line, "an edge", [&](const Token& key) {
      if (key.text == "source") {
        source = integer_id(key);
      } else if (key.text == "target") {
        target = integer_id(key);
      } else if (key.text == "weight" && weighted_) {
        const std::string text = scalar(key);
        weight = parse_link_weight(text, [&] { return cat(name_, ":", key.line); });
      } else {
        skip_value(next_value(key));
      }
    });
    if (!source || !target) fail_at(line, "an edge needs a 'source' and a 'target'");
    graph_.edge(*source, *target, weight, directed_, line);
    progress();
  }
  void progress() {
    if (on_bytes_ && ++items_ % 65536 == 0) on_bytes_(chars_.file_position());
  }

  Token next() {
    for (;;) {
      int c = chars_.peek();
      while (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
        chars_.get();
        c = chars_.peek();
      }
      if (c == '#') {  // a comment to the end of the line
        while (c >= 0 && c != '\n') {
          chars_.get();
          c = chars_.peek();
        }
        continue;
      }
      Token t;
      t.line = chars_.line();
      if (c < 0) return t;
      if (c == '[' || c == ']') {
        chars_.get();
        t.kind = c == '[' ? Token::kOpen : Token::kClose;
        return t;
      }
      if (c == '"') {
        chars_.get();
        std::string raw;
        for (int d = chars_.get(); d != '"'; d = chars_.get()) {
          if (d < 0) fail_at(t.line, "a string opened here is not closed");
          raw += static_cast<char>(d);
        }
        t.kind = Token::kString;
        t.text = decode_entities(raw);
        return t;
      }
      t.kind = Token::kWord;
      while (c >= 0 && c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '[' && c != ']' &&
             c != '"') {
        t.text += static_cast<char>(chars_.get());
        c = chars_.peek();
      }
      return t;
    }
  }

  CharReader chars_;
  std::string name_;
  bool weighted_;
  const OnBytes& on_bytes_;
  NodeEdgeGraph graph_;
  bool directed_ = false;
  std::uint64_t items_ = 0;
};

}  // namespace

bool looks_like_gml(const std::string& path) {
  return path != "-" && ends_with(plain_name(path), ".gml");
}

std::uint64_t read_gml(const std::string& path, bool weighted, RecordSink& sink,
                       const OnBytes& on_bytes) {
  auto in = open_input(path);
  GmlParser parser(*in, in->name(), weighted, on_bytes);
  return parser.read(sink);
}

}  // namespace webrank
