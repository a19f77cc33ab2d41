#include "ingest/edge_list_chunk.hpp"

#include <bit>
#include <cstring>
#include <string>

#include "ingest/edge_list_reader.hpp"
#include "store/label_table.hpp"
#include "webrank/util/error.hpp"

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

// parse_canonical for numbers of at most 8 digits, 8 bytes at a time (the digit-by-digit loop
// costs a mispredicted branch per number of unpredictable length: it was most of the reading
// time of a numeric edge list). p must have 9 readable bytes. Returns nullptr if the text at p
// is not a canonical number of 1-8 digits (parse_canonical then decides).
const char* parse_canonical_short(const char* p, std::uint32_t* value) {
  static_assert(std::endian::native == std::endian::little, "reads text 8 bytes at a time");
  constexpr std::uint64_t kHigh = 0x8080808080808080;
  std::uint64_t x;
  std::memcpy(&x, p, 8);  // little-endian: the first character in the low byte
  // Per byte, without carries between bytes: high bit of (b & 0x7F) + 0x50 set iff b >= '0',
  // of (b & 0x7F) + 0x46 iff b > '9'; b itself must be below 0x80.
  const std::uint64_t low7 = x & ~kHigh;
  const std::uint64_t digits = (low7 + 0x5050505050505050) & ~(low7 + 0x4646464646464646) & ~x;
  const std::uint64_t stops = ~digits & kHigh;
  const int n = stops ? __builtin_ctzll(stops) / 8 : 8;
  if (n == 0 || (n == 8 && static_cast<unsigned>(p[8] - '0') < 10) || (*p == '0' && n > 1)) {
    return nullptr;
  }
  // The n digits moved to the top bytes (zeros before them), then combined pairwise: digits
  // into 2-digit, 4-digit, 8-digit values, each step one multiply (no carry leaves a lane).
  std::uint64_t v = (x << (8 * (8 - n))) & 0x0F0F0F0F0F0F0F0F;
  v = (v * 10 + (v >> 8)) & 0x00FF00FF00FF00FF;
  v = (v * 100 + (v >> 16)) & 0x0000FFFF0000FFFF;
  v = (v * 10000 + (v >> 32)) & 0xFFFFFFFF;
  *value = static_cast<std::uint32_t>(v);
  return p + n;
}

// Either parser: the short one where enough text follows for its 9-byte reads.
const char* parse_number(const char* p, const char* end, std::uint32_t* value) {
  if (end - p >= 9) {
    if (const char* q = parse_canonical_short(p, value)) return q;
  }
  return parse_canonical(p, end, value);
}

// The common line "NUMBER<TAB or SPACE>NUMBER[\r]\n" (or at the end of the text); returns the
// start of the next line, or nullptr if the line needs the general field rule.
const char* parse_numeric_link(const char* p, const char* end, std::uint32_t* s, std::uint32_t* t) {
  const char* q = parse_number(p, end, s);
  if (!q || q == end || (*q != '\t' && *q != ' ')) return nullptr;
  q = parse_number(q + 1, end, t);
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
