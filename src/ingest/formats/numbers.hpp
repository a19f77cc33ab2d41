// Parsing the numeric fields of the text import formats (vertex numbers, ids, counts, values).
// `where` is a callable returning "FILE:LINE"; it is only called to build an error, so the
// common path allocates nothing. Errors are Error "FILE:LINE: WHAT 'TEXT' ..." saying what was
// expected.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "ingest/edge_list_reader.hpp"
#include "webrank/util/error.hpp"

namespace webrank {

// A decimal integer >= 0 (no sign, no spaces).
template <typename Where>
std::uint64_t parse_natural(std::string_view text, const Where& where, const char* what) {
  std::uint64_t v = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (!text.empty() && ec == std::errc() && ptr == end) [[likely]]
    return v;
  if (ec == std::errc::result_out_of_range)
    fail(ErrorKind::kInvalidInput, where(), ": ", what, " '", text, "' is too large");
  fail(ErrorKind::kInvalidInput, where(), ": ", what, " '", text,
       "' is not a non-negative integer");
}

// A decimal integer in [1, max].
template <typename Where>
std::uint64_t parse_index(std::string_view text, std::uint64_t max, const Where& where,
                          const char* what) {
  const std::uint64_t v = parse_natural(text, where, what);
  if (v < 1 || v > max) {
    fail(ErrorKind::kInvalidInput, where(), ": ", what, " ", v, " is out of range (expected 1..",
         max, ")");
  }
  return v;
}

// A real number (its value is only checked, not used).
template <typename Where>
void check_real(std::string_view text, const Where& where, const char* what) {
  double v = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || (ec != std::errc() && ec != std::errc::result_out_of_range) || ptr != end) {
    fail(ErrorKind::kInvalidInput, where(), ": ", what, " '", text, "' is not a number");
  }
}

// A decimal integer, possibly signed (its value is only checked, not used).
template <typename Where>
void check_integer(std::string_view text, const Where& where, const char* what) {
  std::string_view digits = text;
  if (!digits.empty() && (digits.front() == '+' || digits.front() == '-')) digits.remove_prefix(1);
  std::uint64_t v = 0;
  const char* end = digits.data() + digits.size();
  auto [ptr, ec] = std::from_chars(digits.data(), end, v);
  if (digits.empty() || ec != std::errc() || ptr != end) {
    fail(ErrorKind::kInvalidInput, where(), ": ", what, " '", text, "' is not an integer");
  }
}

// A link weight: finite and >= 0 (parse_weight's rule and messages).
template <typename Where>
double parse_link_weight(std::string_view text, const Where& where) {
  double w = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, w);
  if (!text.empty() && ec == std::errc() && ptr == end && std::isfinite(w) && w >= 0) [[likely]]
    return w;
  return parse_weight(text, where());  // throws with the precise reason
}

// The decimal text of x in buf (at least 21 chars), without allocating.
inline std::string_view decimal(char* buf, std::uint64_t x) {
  return {buf, static_cast<std::size_t>(std::to_chars(buf, buf + 21, x).ptr - buf)};
}

}  // namespace webrank
