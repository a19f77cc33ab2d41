// What the server's pages share besides their templates (templates.hpp): URL parameters, the
// PageRank bar and numbers in words. Escaping and the cleaning of text into valid UTF-8 are the
// web layer's (webrank/web/sanitize.hpp), with the rewriting of crawled pages.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "templates.hpp"
#include "webrank/rank/presentation.hpp"
#include "webrank/web/sanitize.hpp"

namespace webrank::serve {

// A query parameter's value percent-encoded (everything but A-Z a-z 0-9 - . _ ~). Templates
// write it as {{VALUE:x-url-param}}.
std::string url_param(std::string_view value);

// The bar of a rank on the log scale (0-100), bar.tpl included at {{>marker}} of `dict`, with a
// tooltip. `known` false draws an empty, dashed bar: a link whose target is not in the database.
void include_bar(Dictionary& dict, const char* marker, double bar, const std::string& tooltip,
                 bool known = true);
// The same bar as HTML, for the proxy's rewriting, which writes it before each link.
std::string bar_html(double bar, const std::string& tooltip, bool known = true);
// "7/10 · 99.12 percentile" for a ranked page of a web of `pages` pages.
std::string rank_words(const RankedPage& page, std::uint64_t pages);
// The bar of a ranked page with "PageRank " and rank_words() as its tooltip.
std::string page_bar_tooltip(const RankedPage& page, std::uint64_t pages);

// A number with thousands separators: 12,345.
std::string thousands(std::uint64_t n);

}  // namespace webrank::serve
