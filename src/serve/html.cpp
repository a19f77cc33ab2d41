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

}  // namespace

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    switch (c) {
      case '&':
        out += "&amp;";
        ++i;
        continue;
      case '<':
        out += "&lt;";
        ++i;
        continue;
      case '>':
        out += "&gt;";
        ++i;
        continue;
      case '"':
        out += "&quot;";
        ++i;
        continue;
      case '\'':
        out += "&#39;";
        ++i;
        continue;
      default:
        break;
    }
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\t' && c != '\n') || u == 0x7F) {
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

std::string bar_svg(double bar, const std::string& tooltip, bool known) {
  char width[32];
  std::snprintf(width, sizeof width, "%.1f", bar < 0 ? 0.0 : bar > 100 ? 100.0 : bar);
  return cat("<svg class=\"wr-bar", known ? "" : " wr-bar-unknown",
             "\" width=\"60\" height=\"9\" viewBox=\"0 0 100 9\" preserveAspectRatio=\"none\" "
             "role=\"img\" aria-label=\"",
             escape(tooltip), "\"><title>", escape(tooltip),
             "</title><rect class=\"wr-bar-bg\" width=\"100\" height=\"9\"/>",
             known ? cat("<rect class=\"wr-bar-fill\" width=\"", width, "\" height=\"9\"/>") : "",
             "</svg>");
}

std::string rank_words(const RankedPage& page, std::uint64_t pages) {
  return cat(page.toolbar, "/10 \xC2\xB7 ", format_percentile(page.percentile, pages),
             " percentile");
}

std::string page_bar(const RankedPage& page, std::uint64_t pages) {
  return bar_svg(page.bar, "PageRank " + rank_words(page, pages));
}

std::string thousands(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string page_start(const Chrome& chrome) {
  std::string modes;
  for (const char* m : {"full", "text", "title"}) {
    modes +=
        cat("<option value=\"", m, "\"", chrome.mode == m ? " selected" : "", ">", m, "</option>");
  }
  return cat(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      "<meta name=\"referrer\" content=\"no-referrer\">"
      "<title>",
      escape(chrome.title),
      " \xE2\x80\x94 webrank</title><link rel=\"stylesheet\" href=\"/assets/serve.css\">",
      chrome.charts ? "<link rel=\"stylesheet\" href=\"/assets/uPlot.min.css\">"
                      "<link rel=\"stylesheet\" href=\"/assets/charts.css\">"
                      "<script defer src=\"/assets/uPlot.iife.min.js\"></script>"
                      "<script defer src=\"/assets/charts.js\"></script>"
                      "<script defer src=\"/assets/serve.js\"></script>"
                    : "",
      "</head><body><header class=\"wr-top\"><a class=\"wr-logo\" href=\"/\">webrank</a>"
      "<form class=\"wr-search\" action=\"/search\" method=\"get\" role=\"search\">"
      "<input type=\"search\" name=\"q\" aria-label=\"Search\" maxlength=\"2048\" value=\"",
      escape(chrome.query), "\"><select name=\"mode\" aria-label=\"Mode\">", modes,
      "</select><button type=\"submit\">Search</button></form></header><main>");
}

std::string page_end(const Chrome& chrome) {
  return cat("</main><footer class=\"wr-footer\">", chrome.footer, "</footer></body></html>\n");
}

}  // namespace webrank::serve
