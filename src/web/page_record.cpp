#include "web/page_record.hpp"

#include <xxhash.h>

#include "web/html_extract.hpp"
#include "web/url.hpp"

namespace webrank::web {

PageRecord make_page_record(const std::string& url, int status, std::string_view content_type,
                            std::string_view location, std::string_view body) {
  PageRecord r;
  r.url = url;
  r.final_url = url;
  r.status = static_cast<std::uint16_t>(status);
  r.body_bytes = body.size();
  r.content_hash = XXH3_64bits(body.data(), body.size());
  if (r.content_hash == 0) r.content_hash = 1;
  if (status >= 300 && status < 400 && !location.empty()) {
    if (std::optional<std::string> to = resolve_url(url, location)) {
      r.final_url = *to;
      r.links.push_back({*to, "", false});
    }
    return r;
  }
  if (is_html(content_type, body)) {
    ExtractedPage p = extract_html(body, url);
    r.title = std::move(p.title);
    r.text = std::move(p.text);
    r.links = std::move(p.links);
    r.html = body.substr(0, kMaxStoredHtmlBytes);
  }
  return r;
}

std::size_t drop_long_urls(PageRecord& r, std::size_t max_bytes) {
  const std::size_t before = r.links.size();
  std::erase_if(r.links, [&](const PageLink& l) { return l.target.size() > max_bytes; });
  if (r.final_url.size() > max_bytes) r.final_url = r.url;
  return before - r.links.size();
}

}  // namespace webrank::web
