// The proxy view's rewriting of a stored page (the paper's §7.3): the page's body re-serialized
// from an HTML5 parse (gumbo), keeping only inert elements and attributes from fixed lists, so
// that nothing of the page can run or load: no script, style, frame, object, form action, media,
// image source, event handler or `javascript:` URL survives, text and attribute values are
// escaped, and every link is handed to the caller to be rewritten (into the proxy) and preceded
// by a PageRank bar.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace webrank::serve {

struct LinkRewrite {
  bool keep = false;   // false: the link loses its href (a javascript:, mailto: or broken link)
  std::string href;    // the new href (a path of this server), escaped here
  std::string before;  // HTML put right before the link (its bar), written as given
};

// Called for each <a href> in document order with the raw href and the href of the page's
// <base> element ("" if none).
using LinkRewriter = std::function<LinkRewrite(std::string_view href, std::string_view base)>;

struct SanitizedPage {
  std::string body;   // HTML for inside a <div>: the rewritten body
  std::string title;  // the page's <title> text (plain text, not escaped)
};

// Parses `html` (any bytes; at most what Database::html() stores) and rewrites it as above.
SanitizedPage sanitize_page(std::string_view html, const LinkRewriter& rewrite);

}  // namespace webrank::serve
