#include "html.hpp"

#include <cstdio>

#include "webrank/util/error.hpp"

namespace webrank::serve {
namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 if it is not one (overlong forms,
// surrogates and code points past U+10FFFF are invalid).
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  if (c < 0x80) return 1;
  std::size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
  if (n == 0 || c > 0xF4 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xC0) != 0x80) return 0;
  }
  if (c == 0xE0 && b(1) < 0xA0) return 0;   // overlong
  if (c == 0xED && b(1) >= 0xA0) return 0;  // surrogate
  if (c == 0xF0 && b(1) < 0x90) return 0;   // overlong
  if (c == 0xF4 && b(1) >= 0x90) return 0;  // past U+10FFFF
  return n;
}

// Bytes copied as they are in runs: printable ASCII, tab and newline; with markup, but & < > " '.
// (A table: valid_text() runs over every page the server writes.)
struct PlainBytes {
  bool text[256] = {}, markup[256] = {};
  constexpr PlainBytes() {
    for (int c = 0x20; c < 0x7F; ++c) text[c] = markup[c] = true;
    text['\t'] = markup['\t'] = text['\n'] = markup['\n'] = true;
    for (const char c : {'&', '<', '>', '"', '\''}) markup[static_cast<unsigned char>(c)] = false;
  }
};
constexpr PlainBytes kPlain;

// valid_text(), and with `markup` the escaping of escape() too.
std::string clean(std::string_view text, bool markup) {
  std::string out;
  out.reserve(text.size() + (markup ? text.size() / 8 : 0));
  for (std::size_t i = 0; i < text.size();) {
    const bool* plain = markup ? kPlain.markup : kPlain.text;
    std::size_t run = i;
    while (run < text.size() && plain[static_cast<unsigned char>(text[run])]) ++run;
    out.append(text, i, run - i);
    if (run == text.size()) break;
    i = run;
    const char c = text[i];
    const char* entity = nullptr;
    if (markup) {
      switch (c) {
        case '&':
          entity = "&amp;";
          break;
        case '<':
          entity = "&lt;";
          break;
        case '>':
          entity = "&gt;";
          break;
        case '"':
          entity = "&quot;";
          break;
        case '\'':
          entity = "&#39;";
          break;
        default:
          break;
      }
    }
    if (entity) {
      out += entity;
      ++i;
      continue;
    }
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x80) {  // a control character (plain() let every other ASCII byte through)
      out += "\xEF\xBF\xBD";
      ++i;
      continue;
    }
    const std::size_t n = utf8_length(text, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(text, i, n);
      i += n;
    }
  }
  return out;
}

}  // namespace

std::string escape(std::string_view text) {
  return clean(text, true);
}

std::string valid_text(std::string_view text) {
  return clean(text, false);
}

void make_valid_text(std::string& text) {
  // Pages are nearly always valid already: find the first byte to replace before copying.
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t n = kPlain.text[c] ? 1 : c >= 0x80 ? utf8_length(text, i) : 0;
    if (n == 0) {
      text = text.substr(0, i) + clean(std::string_view(text).substr(i), false);
      return;
    }
    i += n;
  }
}

std::string url_param(std::string_view value) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (const char c : value) {
    const auto u = static_cast<unsigned char>(c);
    if ((u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') || c == '-' ||
        c == '.' || c == '_' || c == '~') {
      out += c;
    } else {
      out += '%';
      out += hex[u >> 4];
      out += hex[u & 15];
    }
  }
  return out;
}

namespace {

void fill_bar(Dictionary& d, double bar, const std::string& tooltip, bool known) {
  d.SetValue(key("TIP"), tooltip);
  if (known) {
    char width[32];
    std::snprintf(width, sizeof width, "%.1f", bar < 0 ? 0.0 : bar > 100 ? 100.0 : bar);
    d.SetValue(key("WIDTH"), width);
    d.ShowSection(key("KNOWN"));
  } else {
    d.ShowSection(key("UNKNOWN"));
  }
}

}  // namespace

void include_bar(Dictionary& dict, const char* marker, double bar, const std::string& tooltip,
                 bool known) {
  fill_bar(*include(dict, marker, "bar.tpl"), bar, tooltip, known);
}

std::string bar_html(double bar, const std::string& tooltip, bool known) {
  Dictionary d("bar");
  fill_bar(d, bar, tooltip, known);
  return expand("bar.tpl", d);
}

std::string rank_words(const RankedPage& page, std::uint64_t pages) {
  return cat(page.toolbar, "/10 \xC2\xB7 ", format_percentile(page.percentile, pages),
             " percentile");
}

std::string page_bar_tooltip(const RankedPage& page, std::uint64_t pages) {
  return "PageRank " + rank_words(page, pages);
}

std::string thousands(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace webrank::serve
