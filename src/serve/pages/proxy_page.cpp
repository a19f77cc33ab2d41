#include "../operation_routes.hpp"
#include "layout.hpp"
#include "pages.hpp"
#include "webrank/app/inspect.hpp"
#include "webrank/web/sanitize.hpp"

namespace webrank::serve {

std::string proxy_page(const Site& site, const HttpRequest& request) {
  const auto current = site.status();
  const app::StatusResult& status = *current;
  const app::ProxyResult p = site.call<app::ProxyResult>(
      "proxy", operation_params(app::find_operation("proxy"), request), request);
  const std::uint64_t n = status.pages;
  // The copy rewritten again, each link into the proxy with its bar: the rewriter is handed the
  // links the operation resolved, in the same order (webrank/app/inspect.hpp, `proxy`).
  std::size_t next = 0;
  const LinkRewriter rewrite = [&](std::string_view href, std::string_view) {
    LinkRewrite out;
    if (next >= p.links.size()) return out;
    const app::ProxyLink& link = p.links[next++];
    if (!link.target) return out;  // javascript:, mailto:, data:, malformed: the link goes
    out.keep = true;
    const std::size_t hash = href.find('#');
    out.href = "/proxy?url=" + url_param(*link.target) +
               (hash == std::string_view::npos ? "" : "#" + url_param(href.substr(hash + 1)));
    out.before = link.page ? bar_html(link.page->bar, page_bar_tooltip(*link.page, n))
                           : bar_html(0, "not in the database", false);
    return out;
  };
  const SanitizedPage sanitized = sanitize_page(p.html, rewrite);
  const std::string shown = p.title.empty() ? p.url : p.title;
  Layout page(status, shown, "proxy.tpl");
  page.json("/api/v1/proxy?url=" + url_param(p.url));
  Dictionary& body = page.body();
  include_page_bar(body, "BAR", p.ranked, n);
  body.SetValue(key("URL"), p.url);
  body.SetValue(key("WORDS"), rank_words(p.ranked, n));
  if (is_web_url(p.url)) body.ShowSection(key("LIVE"));
  // HTML that webrank wrote: sanitize_page() rebuilt the crawled body from gumbo's parse, every
  // text and attribute it kept escaped (webrank/web/sanitize.hpp); proxy.tpl writes it with
  // :none.
  body.SetValue(key("STORED"), sanitized.body);
  return page.render();
}

}  // namespace webrank::serve
