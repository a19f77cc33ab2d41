#include "web/html_extract.hpp"

#include <gumbo.h>
#include <strings.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

#include "web/url.hpp"

namespace webrank::web {
namespace {

// What std::isspace says in the "C" locale, without the call.
bool ascii_space(char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}

// The bytes of a space at `s[i]`: 1 for ASCII whitespace, 2 for a no-break space (U+00A0, what
// `&nbsp;` decodes to) when `nbsp` counts it, else 0.
std::size_t space_at(std::string_view s, std::size_t i, bool nbsp) {
  if (ascii_space(s[i])) return 1;
  if (nbsp && s[i] == '\xc2' && i + 1 < s.size() && s[i + 1] == '\xa0') return 2;
  return 0;
}

// Appends `s` to `out`, collapsing runs of whitespace to one space, up to `cap` bytes in all.
// With `nbsp`, no-break spaces are whitespace too: in a title or an anchor, one line shown as a
// label, `&nbsp;` only kept words together, and a reader (Python, JSON, a terminal) should see
// the plain space it looks like. The page's text keeps them (its snippets are cut from it).
void append_collapsed(std::string& out, std::string_view s, std::size_t cap, bool nbsp = false) {
  std::size_t i = 0;
  while (i < s.size() && out.size() < cap) {
    if (const std::size_t n = space_at(s, i, nbsp)) {
      if (!out.empty() && out.back() != ' ') out += ' ';
      i += n;
      continue;
    }
    std::size_t end = i;
    while (end < s.size() && !space_at(s, end, nbsp)) ++end;
    out.append(s.data() + i, std::min(end - i, cap - out.size()));
    i = end;
  }
}

std::string trimmed(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && s[i] == ' ') ++i;
  return s.substr(i);
}

const char* attr(const GumboElement& e, const char* name) {
  const GumboAttribute* a = gumbo_get_attribute(&e.attributes, name);
  return a ? a->value : nullptr;
}

bool has_token(const char* value, std::string_view token) {
  if (!value) return false;
  std::string_view v(value);
  std::size_t i = 0;
  while (i < v.size()) {
    while (i < v.size() && (std::isspace(static_cast<unsigned char>(v[i])) || v[i] == ',')) ++i;
    std::size_t j = i;
    while (j < v.size() && !std::isspace(static_cast<unsigned char>(v[j])) && v[j] != ',') ++j;
    if (j - i == token.size() && strncasecmp(v.data() + i, token.data(), token.size()) == 0)
      return true;
    i = j;
  }
  return false;
}

bool hidden_text(GumboTag t) {
  return t == GUMBO_TAG_SCRIPT || t == GUMBO_TAG_STYLE || t == GUMBO_TAG_NOSCRIPT ||
         t == GUMBO_TAG_TEMPLATE || t == GUMBO_TAG_TITLE;
}

struct RawLink {
  std::string href;
  std::string anchor;
  std::string alt;  // alt texts of images inside an <a>, used when it has no text
  bool nofollow = false;
};

bool void_element(std::string_view name) {
  static const char* const names[] = {"area",  "base", "br",   "col",   "embed",  "hr",    "img",
                                      "input", "link", "meta", "param", "source", "track", "wbr"};
  for (const char* n : names) {
    if (name.size() == std::strlen(n) && strncasecmp(name.data(), n, name.size()) == 0) return true;
  }
  return false;
}

// gumbo's cost grows quadratically with the nesting depth (100,000 nested <div>s take half a
// minute), so a document is cut where a rough tag count says it nests deeper than
// kMaxHtmlDepth: the part before is parsed as usual.
std::string_view limit_depth(std::string_view html) {
  int depth = 0;
  for (std::size_t i = 0; i + 1 < html.size(); ++i) {
    if (html[i] != '<') continue;
    if (html[i + 1] == '/') {
      if (depth > 0) --depth;
      continue;
    }
    if (!std::isalpha(static_cast<unsigned char>(html[i + 1]))) continue;
    std::size_t j = i + 1;
    while (j < html.size() && std::isalnum(static_cast<unsigned char>(html[j]))) ++j;
    if (void_element(html.substr(i + 1, j - i - 1))) continue;
    const std::size_t close = html.find('>', j);
    if (close != std::string_view::npos && close > 0 && html[close - 1] == '/') continue;
    if (++depth > kMaxHtmlDepth) return html.substr(0, i);
  }
  return html;
}

}  // namespace

bool is_html(std::string_view content_type, std::string_view body) {
  std::string ct(content_type.substr(0, content_type.find(';')));
  for (char& c : ct) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  while (!ct.empty() && ct.back() == ' ') ct.pop_back();
  while (!ct.empty() && ct.front() == ' ') ct.erase(ct.begin());
  if (!ct.empty()) return ct == "text/html" || ct == "application/xhtml+xml";
  std::string head(body.substr(0, 512));
  for (char& c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return head.find("<html") != std::string::npos ||
         head.find("<!doctype html") != std::string::npos;
}

namespace {

// Gumbo's memory for one parse, handed out from large blocks and released at once: gumbo makes
// a heap allocation for nearly every token, node, attribute and string buffer and frees each
// again, and malloc and free were a fifth of a crawl's CPU time (docs/performance.md,
// "Crawling"). Nothing is freed before the end: a buffer gumbo grows leaves its old copy behind,
// so a parse takes up to about twice what it held at its peak with malloc. Not thread-safe: one
// per parse.
class ParseArena {
 public:
  ~ParseArena() {
    for (void* b : blocks_) std::free(b);
  }
  static void* allocate(void* arena, std::size_t bytes) {
    return static_cast<ParseArena*>(arena)->take(bytes);
  }
  static void deallocate(void*, void*) {}

 private:
  static constexpr std::size_t kBlock = 256 << 10;
  void* take(std::size_t bytes) {
    bytes = (bytes + 15) & ~std::size_t{15};
    if (bytes > kBlock / 4) return own_block(bytes);  // large: a block of its own
    if (bytes > left_) {
      next_ = static_cast<char*>(own_block(kBlock));
      left_ = kBlock;
    }
    void* p = next_;
    next_ += bytes;
    left_ -= bytes;
    return p;
  }
  void* own_block(std::size_t bytes) {
    void* b = std::malloc(bytes);
    if (!b) throw std::bad_alloc();
    blocks_.push_back(b);
    return b;
  }
  std::vector<void*> blocks_;
  char* next_ = nullptr;
  std::size_t left_ = 0;
};

}  // namespace

ExtractedPage extract_html(std::string_view html, const std::string& page_url) {
  ExtractedPage page;
  ParseArena arena;
  GumboOptions options = kGumboDefaultOptions;
  options.allocator = &ParseArena::allocate;
  options.deallocator = &ParseArena::deallocate;
  options.userdata = &arena;
  options.max_errors = 0;  // errors are not reported; parsing goes on regardless
  html = limit_depth(html);
  GumboOutput* out = gumbo_parse_with_options(&options, html.data(), html.size());
  if (!out) return page;

  std::string base;
  bool meta_nofollow = false, have_title = false;
  std::vector<RawLink> raw;
  std::vector<std::size_t> open_anchors;  // indices into raw of the <a> elements we are inside
  // Explicit stack of (node, exiting) so that deeply nested markup cannot overflow the C stack.
  struct Item {
    const GumboNode* node;
    bool exit;
    int hidden;  // inside script/style/...
  };
  std::vector<Item> stack{{out->root, false, 0}};
  while (!stack.empty()) {
    const Item it = stack.back();
    stack.pop_back();
    const GumboNode* n = it.node;
    if (n->type == GUMBO_NODE_ELEMENT || n->type == GUMBO_NODE_TEMPLATE) {
      const GumboElement& e = n->v.element;
      if (it.exit) {
        if (e.tag == GUMBO_TAG_A && !open_anchors.empty()) open_anchors.pop_back();
        continue;
      }
      int hidden = it.hidden + (hidden_text(e.tag) ? 1 : 0);
      switch (e.tag) {
        case GUMBO_TAG_BASE:
          if (const char* h = attr(e, "href"); h && base.empty()) {
            if (auto b = resolve_url(page_url, h)) base = *b;
          }
          break;
        case GUMBO_TAG_META:
          if (const char* name = attr(e, "name"); name && strcasecmp(name, "robots") == 0)
            meta_nofollow = meta_nofollow || has_token(attr(e, "content"), "nofollow");
          break;
        case GUMBO_TAG_TITLE:
          if (!have_title) {
            have_title = true;
            for (unsigned i = 0; i < e.children.length; ++i) {
              const auto* c = static_cast<const GumboNode*>(e.children.data[i]);
              if (c->type == GUMBO_NODE_TEXT || c->type == GUMBO_NODE_WHITESPACE)
                append_collapsed(page.title, c->v.text.text, 4096, /*nbsp=*/true);
            }
            page.title = trimmed(page.title);
          }
          break;
        case GUMBO_TAG_A:
        case GUMBO_TAG_AREA:
          if (const char* h = attr(e, "href")) {
            RawLink l;
            l.href = h;
            l.nofollow = has_token(attr(e, "rel"), "nofollow");
            if (e.tag == GUMBO_TAG_AREA) {
              if (const char* alt = attr(e, "alt")) append_collapsed(l.anchor, alt, 4096, true);
            }
            raw.push_back(std::move(l));
            if (e.tag == GUMBO_TAG_A) open_anchors.push_back(raw.size() - 1);
          } else if (e.tag == GUMBO_TAG_A) {
            open_anchors.push_back(static_cast<std::size_t>(-1));
          }
          break;
        case GUMBO_TAG_IMG:
          if (const char* alt = attr(e, "alt")) {
            for (std::size_t a : open_anchors) {
              if (a != static_cast<std::size_t>(-1)) append_collapsed(raw[a].alt, alt, 4096, true);
            }
          }
          break;
        case GUMBO_TAG_FRAME:
        case GUMBO_TAG_IFRAME:
          if (const char* s = attr(e, "src")) raw.push_back({s, "", "", false});
          break;
        default:
          break;
      }
      if (e.tag == GUMBO_TAG_A) stack.push_back({n, true, hidden});
      for (unsigned i = e.children.length; i-- > 0;) {
        stack.push_back({static_cast<const GumboNode*>(e.children.data[i]), false, hidden});
      }
    } else if (n->type == GUMBO_NODE_DOCUMENT) {
      const GumboVector& ch = n->v.document.children;
      for (unsigned i = ch.length; i-- > 0;) {
        stack.push_back({static_cast<const GumboNode*>(ch.data[i]), false, 0});
      }
    } else if (n->type == GUMBO_NODE_TEXT || n->type == GUMBO_NODE_WHITESPACE ||
               n->type == GUMBO_NODE_CDATA) {
      if (it.hidden) continue;
      const char* t = n->v.text.text;
      if (n->type == GUMBO_NODE_WHITESPACE) {
        if (!page.text.empty() && page.text.back() != ' ') page.text += ' ';
      } else {
        append_collapsed(page.text, t, kMaxTextBytes);
      }
      for (std::size_t a : open_anchors) {
        if (a != static_cast<std::size_t>(-1)) append_collapsed(raw[a].anchor, t, 4096, true);
      }
      // Adjacent text nodes of different elements are separate words.
      if (!page.text.empty() && page.text.back() != ' ' && page.text.size() < kMaxTextBytes)
        page.text += ' ';
      for (std::size_t a : open_anchors) {
        if (a != static_cast<std::size_t>(-1) && !raw[a].anchor.empty() &&
            raw[a].anchor.back() != ' ')
          raw[a].anchor += ' ';
      }
    }
  }
  // No gumbo_destroy_output(): it would visit every node to free it; the arena goes at once.

  page.text = trimmed(page.text);
  const std::string& against = base.empty() ? page_url : base;
  page.links.reserve(raw.size());
  for (RawLink& l : raw) {
    std::optional<std::string> target = resolve_url(against, l.href);
    if (!target) continue;
    std::string anchor = trimmed(l.anchor);
    if (anchor.empty()) anchor = trimmed(l.alt);
    page.links.push_back({std::move(*target), std::move(anchor), l.nofollow || meta_nofollow});
  }
  return page;
}

}  // namespace webrank::web
