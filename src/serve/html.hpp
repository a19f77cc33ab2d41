// HTML of the server's own pages: escaping, URL parameters, the layout every page shares and the
// PageRank bar. Every string that did not come from this file (a crawled title, URL, snippet,
// query) goes through escape() or url_param() before it is written.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "webrank/rank/presentation.hpp"

namespace webrank::serve {

// Text for an HTML element or a quoted attribute value: & < > " ' escaped, bytes that are not
// valid UTF-8 and control characters (but tab and newline) replaced by U+FFFD.
std::string escape(std::string_view text);

// A query parameter's value percent-encoded (everything but A-Z a-z 0-9 - . _ ~).
std::string url_param(std::string_view value);

// The bar of a rank on the log scale (0-100), drawn as inline SVG (no style attribute, so a
// strict Content-Security-Policy holds), with a tooltip. `known` false draws an empty, dashed
// bar: a link whose target is not in the database.
std::string bar_svg(double bar, const std::string& tooltip, bool known = true);
// "7/10 · 99.12 percentile" for a ranked page of a web of `pages` pages.
std::string rank_words(const RankedPage& page, std::uint64_t pages);
// The bar with rank_words() as its tooltip.
std::string page_bar(const RankedPage& page, std::uint64_t pages);

// What the header of every page shows: the search box holds `query` in `mode`.
struct Chrome {
  std::string title;          // of the document (escaped here)
  std::string query;          // the search box's value
  std::string mode = "full";  // the search mode selected
  std::string footer;         // HTML, already escaped
  bool charts = false;        // loads uPlot, charts.js and serve.js (which draws the charts)
};
std::string page_start(const Chrome& chrome);
std::string page_end(const Chrome& chrome);

// A number with thousands separators: 12,345.
std::string thousands(std::uint64_t n);

}  // namespace webrank::serve
