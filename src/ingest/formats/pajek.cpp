// Input format `pajek`: a Pajek network file (.net).
//
// Contract:
// - Lines starting with '%' are comments; blank lines are skipped; '\r' is ignored; keywords
//   (`*Vertices`, `*Arcs`, ...) are case-insensitive. A `*Network NAME` line may come first.
// - `*Vertices N` (an optional second number, the first mode of a two-mode network, is
//   ignored) comes before any arc. It may be followed by vertex lines `K ["LABEL"|LABEL] ...`
//   with 1 <= K <= N: the label is the second field, a "quoted" string (quotes removed, spaces
//   allowed) or a bare word; later fields (coordinates, shapes, colours) are ignored.
// - Pages are the N vertices, all declared in vertex order before any link (page id = K - 1).
//   A vertex's label is its LABEL when it has one, else its number K in decimal ("17"); labels
//   must be distinct (pages are keyed by label), a repeated label is an error naming both
//   vertices.
// - Link sections, any number, in any order:
//     `*Arcs`      lines `I J [WEIGHT] ...`: the link I -> J
//     `*Edges`     lines `I J [WEIGHT] ...`: the links I -> J and J -> I (once for I = J)
//     `*Arcslist`  lines `I J1 J2 ...`: links I -> J1, I -> J2, ...
//     `*Edgeslist` lines `I J1 J2 ...`: both directions for each
//   Text after the keyword (a relation number `:2`, a relation name) is ignored.
// - WEIGHT is the third field when it is a number. With --weighted it is the link weight
//   (finite, >= 0; a missing weight is 1); without --weighted it is ignored (Pajek's weight
//   column is optional and standard, unlike a stray column of an edge list).
// - `*Matrix`, `*Partition`, `*Vector` and the other sections of Pajek project files are
//   refused, as is a second `*Vertices`.
// - Gzip and zstd files are read transparently; "-" is standard input.
// Errors name FILE:LINE and what was expected.
#include <algorithm>
#include <cctype>
#include <unordered_map>
#include <vector>

#include "ingest/formats/numbers.hpp"
#include "ingest/formats/path_names.hpp"
#include "ingest/formats/readers.hpp"

namespace webrank {
namespace {

struct Token {
  std::string_view text;
  bool quoted = false;
};

// Splits a line into blank-separated tokens; "..." is one token (quotes removed). Returns
// false on an unterminated quote.
bool tokenize(std::string_view line, std::vector<Token>& out) {
  out.clear();
  std::size_t i = 0;
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; };
  while (i < line.size()) {
    while (i < line.size() && blank(line[i])) ++i;
    if (i == line.size()) break;
    if (line[i] == '"') {
      const std::size_t close = line.find('"', i + 1);
      if (close == std::string_view::npos) return false;
      out.push_back({line.substr(i + 1, close - i - 1), true});
      i = close + 1;
    } else {
      std::size_t j = i;
      while (j < line.size() && !blank(line[j])) ++j;
      out.push_back({line.substr(i, j - i), false});
      i = j;
    }
  }
  return true;
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool is_number(std::string_view s) {
  if (s.empty()) return false;
  double v;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ptr == s.data() + s.size() && (ec == std::errc() || ec == std::errc::result_out_of_range);
}

enum class Section { kNone, kVertices, kArcs, kEdges, kArcsList, kEdgesList };

}  // namespace

bool looks_like_pajek(const std::string& path) {
  return path != "-" && ends_with(plain_name(path), ".net");
}

std::uint64_t read_pajek(const std::string& path, bool weighted, RecordSink& sink,
                         const OnBytes& on_bytes) {
  auto in = open_input(path);
  LineReader reader(*in);
  auto where = [&] { return cat(reader.name(), ":", reader.line_number()); };
  std::string_view line;
  std::vector<Token> t;
  Section section = Section::kNone;
  std::uint64_t n = 0;
  std::vector<std::string> labels;        // by vertex - 1; "" until given
  std::vector<std::uint64_t> label_line;  // line of each vertex's line (0 = none)
  bool pages_declared = false;
  std::uint64_t next_report = 16 << 20;

  auto declare_pages = [&] {
    std::unordered_map<std::string_view, std::uint64_t> seen;
    seen.reserve(n);
    char buf[24];
    for (std::uint64_t k = 1; k <= n; ++k) {
      if (labels[k - 1].empty()) labels[k - 1] = std::string(decimal(buf, k));
      auto [it, inserted] = seen.emplace(labels[k - 1], k);
      if (!inserted) {
        const std::uint64_t other = it->second;
        fail(ErrorKind::kInvalidInput, reader.name(), ":",
             label_line[k - 1] ? label_line[k - 1] : label_line[other - 1], ": vertices ", other,
             " and ", k, " have the same label '", labels[k - 1],
             "': labels must be distinct (each label is one page)");
      }
      sink.page(labels[k - 1]);
    }
    pages_declared = true;
  };
  auto vertex = [&](const Token& tok, const char* what) -> const std::string& {
    if (tok.quoted)
      fail(ErrorKind::kInvalidInput, where(), ": ", what, " \"", tok.text,
           "\" is not a vertex number");
    return labels[parse_index(tok.text, n, where, what) - 1];
  };

  while (reader.next(line)) {
    if (!tokenize(line, t))
      fail(ErrorKind::kInvalidInput, where(), ": unterminated \" (expected \"LABEL\")");
    if (t.empty() || (!t[0].quoted && t[0].text.front() == '%')) continue;
    if (!t[0].quoted && t[0].text.front() == '*') {
      const std::string key = lower(t[0].text);
      if (key == "*network") continue;
      if (key == "*vertices") {
        if (section != Section::kNone) {
          fail(ErrorKind::kInvalidInput, where(),
               ": a second *Vertices section (Pajek project files with several "
               "networks are not supported)");
        }
        if (t.size() < 2) fail(ErrorKind::kInvalidInput, where(), ": expected '*Vertices N'");
        n = parse_natural(t[1].text, where, "vertex count");
        if (n > 0xFFFFFFFEull)
          fail(ErrorKind::kInvalidInput, where(), ": ", n,
               " vertices exceed webrank's 2^32-2 pages");
        // Per vertex: its label string and line here, and its entry in declare_pages' map.
        sink.expect_pages(n, sizeof(std::string) + 8 + 64, where());
        labels.assign(n, std::string());
        label_line.assign(n, 0);
        section = Section::kVertices;
        continue;
      }
      Section next;
      if (key == "*arcs") {
        next = Section::kArcs;
      } else if (key == "*edges") {
        next = Section::kEdges;
      } else if (key == "*arcslist") {
        next = Section::kArcsList;
      } else if (key == "*edgeslist") {
        next = Section::kEdgesList;
      } else {
        fail(ErrorKind::kInvalidInput, where(), ": section '", t[0].text,
             "' is not supported (expected *Vertices, *Arcs, *Edges, *Arcslist or *Edgeslist)");
      }
      if (section == Section::kNone)
        fail(ErrorKind::kInvalidInput, where(), ": ", t[0].text, " before *Vertices N");
      if (!pages_declared) declare_pages();
      section = next;
      continue;
    }
    switch (section) {
      case Section::kNone:
        fail(ErrorKind::kInvalidInput, where(), ": expected '*Vertices N' before any data");
      case Section::kVertices: {
        if (t[0].quoted)
          fail(ErrorKind::kInvalidInput, where(), ": expected a vertex number, found \"", t[0].text,
               "\"");
        const std::uint64_t k = parse_index(t[0].text, n, where, "vertex");
        if (label_line[k - 1]) {
          fail(ErrorKind::kInvalidInput, where(), ": vertex ", k,
               " is listed twice (first on line ", label_line[k - 1], ")");
        }
        label_line[k - 1] = reader.line_number();
        if (t.size() >= 2) labels[k - 1] = std::string(t[1].text);
        break;
      }
      case Section::kArcs:
      case Section::kEdges: {
        if (t.size() < 2)
          fail(ErrorKind::kInvalidInput, where(), ": expected 'SOURCE TARGET [WEIGHT]'");
        const std::string& from = vertex(t[0], "source vertex");
        const std::string& to = vertex(t[1], "target vertex");
        double w = 1.0;
        if (weighted && t.size() >= 3 && !t[2].quoted && is_number(t[2].text)) {
          w = parse_link_weight(t[2].text, where);
        }
        sink.link(from, to, w);
        if (section == Section::kEdges && &from != &to) sink.link(to, from, w);
        break;
      }
      case Section::kArcsList:
      case Section::kEdgesList: {
        const std::string& from = vertex(t[0], "source vertex");
        for (std::size_t i = 1; i < t.size(); ++i) {
          const std::string& to = vertex(t[i], "target vertex");
          sink.link(from, to, 1.0);
          if (section == Section::kEdgesList && &from != &to) sink.link(to, from, 1.0);
        }
        break;
      }
    }
    if (on_bytes && reader.bytes_consumed() >= next_report) {
      on_bytes(reader.file_position());
      next_report = reader.bytes_consumed() + (16 << 20);
    }
  }
  if (section == Section::kNone)
    fail(ErrorKind::kInvalidInput, reader.name(), ": no '*Vertices N' line: not a Pajek network");
  if (!pages_declared) declare_pages();
  if (on_bytes) on_bytes(reader.file_position());
  return reader.line_number();
}

}  // namespace webrank
