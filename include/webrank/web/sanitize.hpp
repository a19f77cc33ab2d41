// Crawled HTML made safe to show (the server's proxy view, the paper's §7.3): the page's body
// re-serialized from an HTML5 parse (gumbo), keeping only inert elements and attributes from
// fixed lists, so that nothing of the page can run or load: no script, style, frame, object, form
// action, media, image source, event handler or `javascript:` URL survives, text and attribute
// values are escaped, and every link is handed to the caller to be rewritten and preceded by what
// the caller puts there. Also the escaping and UTF-8 cleaning every page of the server gets.
//
// Threads: every function may be called from any number of threads at once.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace webrank {

// Text for an HTML element or a quoted attribute value: & < > " ' escaped, and valid_text().
std::string escape_html(std::string_view text);

// `text` with bytes that are not valid UTF-8 and control characters (but tab and newline)
// replaced by U+FFFD.
std::string valid_text(std::string_view text);
// The same, in place: `text` is only copied when something in it is replaced.
void make_valid_text(std::string& text);

struct LinkRewrite {
  bool keep = false;   // false: the link loses its href (a javascript:, mailto: or broken link)
  std::string href;    // the new href, escaped here
  std::string before;  // HTML put right before the link, written as given
};

// Called for each <a href> that is kept, in document order, with the raw href and the href of
// the page's <base> element ("" if none). The same page gives the same calls in the same order.
using LinkRewriter = std::function<LinkRewrite(std::string_view href, std::string_view base)>;

struct SanitizedPage {
  std::string body;   // HTML for inside a <div>: the rewritten body
  std::string title;  // the page's <title> text (plain text, not escaped)
};

// Parses `html` (any bytes) and rewrites it as above.
SanitizedPage sanitize_page(std::string_view html, const LinkRewriter& rewrite);

}  // namespace webrank
