// What a page contributes to the web: its title, its visible text and its links, extracted with
// gumbo (the HTML5 parsing algorithm, so broken markup parses as a browser would).
//
// Contract:
// - Links: <a href>, <area href>, <frame src>, <iframe src>, in document order, resolved against
//   the first <base href> (itself resolved against the page URL) or the page URL, normalized by
//   resolve_url (fragments dropped; unusable schemes such as mailto: dropped). rel="nofollow"
//   (a token of rel, any case) and <meta name="robots" content="...nofollow..."> mark links
//   nofollow.
// - Anchor text: the visible text inside <a> (the alt text of images when there is none), the
//   alt text of <area>; whitespace-collapsed, no-break spaces (`&nbsp;`, U+00A0) counted as
//   whitespace.
// - Text: the text nodes outside <script>, <style>, <noscript>, <template> and <title>,
//   whitespace-collapsed (no-break spaces kept), capped at kMaxTextBytes. Title: the first
//   <title>, collapsed as anchor text is (`Chapter&nbsp;24.` is "Chapter 24.").
// - Never throws on any input: malformed markup is walked without recursion; a document nesting
//   deeper than kMaxHtmlDepth elements (by a rough count of start and end tags) is cut there,
//   because gumbo's time grows quadratically with depth.
#pragma once

#include <string>
#include <string_view>

#include "webrank/store/page_data.hpp"

namespace webrank::web {

inline constexpr std::size_t kMaxTextBytes = 256 * 1024;
inline constexpr int kMaxHtmlDepth = 1000;

struct ExtractedPage {
  std::string title;
  std::string text;
  std::vector<PageLink> links;
};

ExtractedPage extract_html(std::string_view html, const std::string& page_url);

// Whether a Content-Type value (or, when empty, the start of the body) is HTML.
bool is_html(std::string_view content_type, std::string_view body);

}  // namespace webrank::web
