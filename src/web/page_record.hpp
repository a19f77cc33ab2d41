// Turning one fetched document into a PageRecord, the same way for every source (the crawler,
// WARC records, files on disk), so that all of them give the same web.
//
// Contract: HTML (by Content-Type, or by sniffing the body when there is none) is parsed for
// title, text and links (html_extract.hpp), resolved against `url` (the URL the body was
// fetched from); other bodies give a record without links.
// The content hash is XXH3-64 of the body (1 if that is 0). A 3xx with a Location gets that
// URL as its final URL and as its one link: a redirect passes its rank on like a link.
#pragma once

#include <string>
#include <string_view>

#include "webrank/store/page_data.hpp"

namespace webrank::web {

PageRecord make_page_record(const std::string& url, int status, std::string_view content_type,
                            std::string_view location, std::string_view body);

// Keeps no URL longer than `max_bytes` that would become a page label (a crawl's
// --max-url-length): such links are dropped, and a redirect to such a URL ends where it is (its
// final URL its own, no link). Returns how many URLs were dropped.
std::size_t drop_long_urls(PageRecord& r, std::size_t max_bytes);

}  // namespace webrank::web
