#include "html.hpp"

#include <cstdio>

#include "webrank/util/error.hpp"

namespace webrank::serve {

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
