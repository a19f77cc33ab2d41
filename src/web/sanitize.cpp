#include "webrank/web/sanitize.hpp"

#include <gumbo.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "webrank/util/error.hpp"

namespace webrank {
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
    for (const unsigned char c : {'\t', '\n'}) text[c] = markup[c] = true;
    for (const char c : {'&', '<', '>', '"', '\''}) markup[static_cast<unsigned char>(c)] = false;
  }
};
constexpr PlainBytes kPlain;

// valid_text(), and with `markup` the escaping of escape_html() too.
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

// Elements dropped with everything inside them: what runs, loads, or only makes sense with
// what runs or loads (media without their sources, the head's machinery).
constexpr std::array kDropped = {"script",   "style",  "noscript", "template", "iframe", "frame",
                                 "frameset", "object", "embed",    "applet",   "link",   "meta",
                                 "base",     "title",  "svg",      "math",     "audio",  "video",
                                 "canvas",   "source", "track",    "param",    "head",   "picture",
                                 "map",      "area",   "portal",   "dialog"};

// Elements kept as elements (with the attributes of kAttributes only). Anything else (html,
// body, form, font, custom elements) is unwrapped: its children are kept, the tag is not.
constexpr std::array kKept = {
    "a",      "abbr",       "address", "article",  "aside",    "b",          "bdi",      "bdo",
    "big",    "blockquote", "br",      "button",   "caption",  "center",     "cite",     "code",
    "col",    "colgroup",   "data",    "dd",       "del",      "details",    "dfn",      "dir",
    "div",    "dl",         "dt",      "em",       "fieldset", "figcaption", "figure",   "footer",
    "h1",     "h2",         "h3",      "h4",       "h5",       "h6",         "header",   "hgroup",
    "hr",     "i",          "input",   "ins",      "kbd",      "label",      "legend",   "li",
    "main",   "mark",       "menu",    "meter",    "nav",      "ol",         "optgroup", "option",
    "output", "p",          "pre",     "progress", "q",        "rp",         "rt",       "ruby",
    "s",      "samp",       "section", "select",   "small",    "span",       "strike",   "strong",
    "sub",    "summary",    "sup",     "table",    "tbody",    "td",         "textarea", "tfoot",
    "th",     "thead",      "time",    "tr",       "tt",       "u",          "ul",       "var",
    "wbr"};

constexpr std::array kVoid = {"br", "col", "hr", "input", "wbr"};

// Attributes that say nothing a browser fetches or runs. href is handled apart (links only).
constexpr std::array kAttributes = {
    "id",      "name",     "title",   "lang",     "dir",      "colspan",     "rowspan",
    "headers", "scope",    "abbr",    "start",    "reversed", "value",       "datetime",
    "open",    "disabled", "checked", "selected", "label",    "placeholder", "rows",
    "cols",    "span",     "min",     "max",      "low",      "high",        "optimum"};

template <std::size_t N>
bool in(const std::array<const char*, N>& list, std::string_view name) {
  return std::any_of(list.begin(), list.end(), [&](const char* s) { return name == s; });
}

std::string_view tag_name(const GumboNode* node) {
  if (node->v.element.tag != GUMBO_TAG_UNKNOWN) {
    return gumbo_normalized_tagname(node->v.element.tag);
  }
  return {};  // unknown (custom) elements are unwrapped
}

const GumboNode* find_element(const GumboNode* node, GumboTag tag) {
  std::vector<const GumboNode*> stack{node};
  while (!stack.empty()) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (n->type != GUMBO_NODE_ELEMENT && n->type != GUMBO_NODE_DOCUMENT) continue;
    if (n->type == GUMBO_NODE_ELEMENT && n->v.element.tag == tag) return n;
    const GumboVector& children =
        n->type == GUMBO_NODE_DOCUMENT ? n->v.document.children : n->v.element.children;
    for (unsigned i = children.length; i-- > 0;) {
      stack.push_back(static_cast<const GumboNode*>(children.data[i]));
    }
  }
  return nullptr;
}

std::string text_of(const GumboNode* node) {
  std::string out;
  std::vector<const GumboNode*> stack{node};
  while (!stack.empty()) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (n->type == GUMBO_NODE_TEXT || n->type == GUMBO_NODE_WHITESPACE ||
        n->type == GUMBO_NODE_CDATA) {
      out += n->v.text.text;
    } else if (n->type == GUMBO_NODE_ELEMENT) {
      const GumboVector& c = n->v.element.children;
      for (unsigned i = c.length; i-- > 0;)
        stack.push_back(static_cast<const GumboNode*>(c.data[i]));
    }
  }
  return out;
}

class Writer {
 public:
  Writer(const LinkRewriter& rewrite, std::string base)
      : rewrite_(rewrite), base_(std::move(base)) {}

  // Iterative: a page nested 50,000 elements deep must not overflow the stack.
  void write(const GumboNode* root) {
    struct Frame {
      const GumboNode* node;
      unsigned next = 0;
      std::string close;  // the end tag to write after the children ("" when unwrapped)
    };
    std::vector<Frame> stack;
    open(root, stack);
    while (!stack.empty()) {
      Frame& f = stack.back();
      const GumboVector& c = f.node->v.element.children;
      if (f.next < c.length) {
        open(static_cast<const GumboNode*>(c.data[f.next++]), stack);
      } else {
        out_ += f.close;
        stack.pop_back();
      }
    }
  }

  std::string take() { return std::move(out_); }

 private:
  template <typename Stack>
  void open(const GumboNode* node, Stack& stack) {
    switch (node->type) {
      case GUMBO_NODE_TEXT:
      case GUMBO_NODE_WHITESPACE:
      case GUMBO_NODE_CDATA:
        out_ += escape_html(node->v.text.text);
        return;
      case GUMBO_NODE_ELEMENT:
        break;
      default:  // comments, the document node
        return;
    }
    const std::string_view name = tag_name(node);
    if (in(kDropped, name)) return;
    if (name == "img") {  // no source is stored: its alternative text stands for it
      const GumboAttribute* alt = gumbo_get_attribute(&node->v.element.attributes, "alt");
      if (alt && *alt->value)
        out_ += "<span class=\"wr-img\">[" + escape_html(alt->value) + "]</span>";
      return;
    }
    const bool kept = in(kKept, name);
    std::string tag;
    if (kept) {
      tag = "<" + std::string(name);
      const GumboVector& attrs = node->v.element.attributes;
      for (unsigned i = 0; i < attrs.length; ++i) {
        const auto* a = static_cast<const GumboAttribute*>(attrs.data[i]);
        if (in(kAttributes, a->name)) {
          tag += cat(" ", a->name, "=\"", escape_html(a->value), "\"");
        }
      }
      if (name == "a") {
        const GumboAttribute* href = gumbo_get_attribute(&node->v.element.attributes, "href");
        if (href) {
          const LinkRewrite r = rewrite_(href->value, base_);
          if (r.keep) {
            out_ += r.before;
            tag += " href=\"" + escape_html(r.href) + "\" class=\"wr-link\" rel=\"nofollow\"";
          }
        }
      }
      tag += ">";
      out_ += tag;
      if (in(kVoid, name)) return;
    }
    stack.push_back({node, 0, kept ? "</" + std::string(name) + ">" : std::string()});
  }

  const LinkRewriter& rewrite_;
  std::string base_;
  std::string out_;
};

}  // namespace

std::string escape_html(std::string_view text) {
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

SanitizedPage sanitize_page(std::string_view html, const LinkRewriter& rewrite) {
  GumboOutput* parsed = gumbo_parse_with_options(&kGumboDefaultOptions, html.data(), html.size());
  struct Free {
    GumboOutput* p;
    ~Free() { gumbo_destroy_output(&kGumboDefaultOptions, p); }
  } free_parsed{parsed};
  SanitizedPage page;
  if (const GumboNode* title = find_element(parsed->document, GUMBO_TAG_TITLE)) {
    page.title = text_of(title);
  }
  std::string base;
  if (const GumboNode* b = find_element(parsed->document, GUMBO_TAG_BASE)) {
    if (const GumboAttribute* href = gumbo_get_attribute(&b->v.element.attributes, "href")) {
      base = href->value;
    }
  }
  if (const GumboNode* body = find_element(parsed->document, GUMBO_TAG_BODY)) {
    Writer w(rewrite, base);
    w.write(body);
    page.body = w.take();
  }
  return page;
}

}  // namespace webrank
