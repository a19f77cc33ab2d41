#include "graph/edge_list_chunk.hpp"

#include <cstring>
#include <string>

#include "graph/edge_list_reader.hpp"
#include "graph/label_table.hpp"
#include "webrank/error.hpp"

namespace webrank {
namespace {

// A canonical decimal number (LabelTable::is_number's rule: no sign, no leading zero, at most 10
// digits, below kNoPage) starting at p; returns its end, or nullptr if the text there is not one.
const char* parse_canonical(const char* p, const char* end, std::uint32_t* value) {
  const char* q = p;
  std::uint64_t v = 0;
  while (q < end && q - p <= 10 && static_cast<unsigned>(*q - '0') < 10) {
    v = v * 10 + static_cast<unsigned>(*q - '0');
    ++q;
  }
  const auto digits = q - p;
  if (digits == 0 || digits > 10 || (*p == '0' && digits > 1) || v >= kNoPage) return nullptr;
  *value = static_cast<std::uint32_t>(v);
  return q;
}

// The common line "NUMBER<TAB or SPACE>NUMBER[\r]\n" (or at the end of the text); returns the
// start of the next line, or nullptr if the line needs the general field rule.
const char* parse_numeric_link(const char* p, const char* end, std::uint32_t* s, std::uint32_t* t) {
  const char* q = parse_canonical(p, end, s);
  if (!q || q == end || (*q != '\t' && *q != ' ')) return nullptr;
  q = parse_canonical(q + 1, end, t);
  if (!q) return nullptr;
  if (q < end && *q == '\r') ++q;
  if (q == end) return q;
  return *q == '\n' ? q + 1 : nullptr;
}

}  // namespace

void EdgeListChunk::clear() {
  numbers.clear();
  weights.clear();
  others.clear();
  lines = 0;
  bad = false;
  bad_line = {};
}

void parse_edge_list_chunk(std::string_view text, bool weighted, EdgeListChunk& out) {
  out.clear();
  const char* p = text.data();
  const char* const end = p + text.size();
  static const std::string kNoName;  // errors are raised again by the caller, with the name
  while (p < end) {
    ++out.lines;
    std::uint32_t s, t;
    if (const char* next = parse_numeric_link(p, end, &s, &t)) {
      out.numbers.push_back(s);
      out.numbers.push_back(t);
      if (weighted) out.weights.push_back(1.0);
      p = next;
      continue;
    }
    const char* nl =
        static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
    const std::string_view line(p, static_cast<std::size_t>((nl ? nl : end) - p));
    p = nl ? nl + 1 : end;
    EdgeListRecord r;
    try {
      check_text_line(line, kNoName, out.lines);
      r = parse_edge_list_line(line, weighted, kNoName, out.lines);
    } catch (const Error&) {
      out.bad = true;
      out.bad_line = line;
      return;
    }
    if (r.kind == EdgeListRecord::kNone) continue;
    if (r.kind == EdgeListRecord::kLink && LabelTable::is_number(r.source, &s) &&
        LabelTable::is_number(r.target, &t)) {
      out.numbers.push_back(s);
      out.numbers.push_back(t);
    } else {
      out.others.push_back(
          {out.numbers.size() / 2, r.kind == EdgeListRecord::kLink, r.source, r.target});
    }
    if (weighted && r.kind == EdgeListRecord::kLink) out.weights.push_back(r.weight);
  }
}

}  // namespace webrank
