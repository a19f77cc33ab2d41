// set_text, json_text and to_json(Error) (declared in its webrank/*_json.hpp).
#include "webrank/util/json_text.hpp"

namespace webrank {
namespace {

// The length of the valid UTF-8 sequence starting at s[i] (RFC 3629: no overlong forms, no
// surrogates, nothing past U+10FFFF), or 0 if none starts there.
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return 1;
  std::size_t n;
  unsigned char lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  }
  return n;
}

}  // namespace

void set_text(nlohmann::json& j, const std::string& key, std::string_view text) {
  std::string valid;
  bool replaced = false;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_sequence(text, i);
    if (n == 0) {
      valid += "\xEF\xBF\xBD";  // U+FFFD
      replaced = true;
      ++i;
    } else {
      valid.append(text.substr(i, n));
      i += n;
    }
  }
  j[key] = std::move(valid);
  if (!replaced) return;
  static const char* const kHex = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * text.size());
  for (unsigned char c : text) {
    hex += kHex[c >> 4];
    hex += kHex[c & 15];
  }
  j[key + "_hex"] = std::move(hex);
}

std::string json_text(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

void to_json(nlohmann::json& j, const Error& e) {
  j = {{"kind", to_string(e.kind())}, {"message", e.what()}};
  if (!e.field().empty()) j["field"] = e.field();
}

}  // namespace webrank
