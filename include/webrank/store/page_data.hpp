// Page records: what a crawl (webrank's crawler, a WARC file, a directory of HTML files) knows
// about one page beyond its links. An input format hands one PageRecord per fetched page to the
// builder (EdgeListSink::page_record); the builder stores the optional `pages.*` and
// `nofollow.*` sections (docs/format.md) and Database reads them back.
//
// Contract:
// - `url` is the page's label (the URL as requested, normalized); `final_url` is where it led
//   (the Location of a redirect, else the URL itself).
// - `status` is the HTTP status (200 for a file read from disk); a record with status 0 says
//   only that the URL is a page that was not fetched (a crawler gave up on it or was not
//   allowed to fetch it): nothing else of it is stored. `content_hash` is XXH3-64 of the body
//   (never 0: 0 is "not fetched"), so exact duplicates share it.
// - `links` are the page's out-links in document order, resolved and normalized; a `nofollow`
//   link is recorded apart and does not vote (it is not a link of the ranked graph). Anchor
//   texts are credited to the link's target.
// - `html` is the stored copy of an HTML page (the body as fetched, at most kMaxStoredHtmlBytes),
//   what a proxy view shows; empty for other bodies and redirects.
// - `etag` and `last_modified` are the response's ETag and Last-Modified fields as sent (empty
//   when absent), and `body_bytes` the body's size as fetched: what a recrawl's conditional
//   request sends back (If-None-Match, If-Modified-Since) and what a 304 saves.
// - Only the first record of a URL counts (a later fetch of the same URL is ignored).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace webrank {

// The stored copy of a page keeps at most this many bytes of its HTML (the visible text is
// capped at 256 KiB: web/html_extract.hpp).
inline constexpr std::size_t kMaxStoredHtmlBytes = 2 << 20;

// A page's stored anchor texts (Database::anchor_text): those of the links from other pages,
// '\n'-joined, then, after an empty line, those of the page's links to itself (its own #fragments:
// its table of contents names its sections, not the page). Either part may be empty.
struct AnchorTexts {
  std::string_view others, own_sections;
};
inline AnchorTexts split_anchor_text(std::string_view stored) {
  const std::size_t mark = stored.find("\n\n");
  if (mark == std::string_view::npos) return {stored, {}};
  return {stored.substr(0, mark), stored.substr(mark + 2)};
}

struct PageLink {
  std::string target;  // absolute, normalized URL
  std::string anchor;  // visible text of the link (alt text for <area>), whitespace-collapsed
  bool nofollow = false;
};

struct PageRecord {
  std::string url;
  std::string final_url;
  std::uint16_t status = 0;
  std::string title;
  std::string text;  // visible text, whitespace-collapsed
  std::uint64_t content_hash = 0;
  std::vector<PageLink> links;
  std::string html;  // the stored copy (HTML pages only)
  // `html` as one zstd frame, when whoever made the record compressed it already (the import
  // of crawls does, on every core); empty: the database writer compresses `html` itself.
  std::string html_zstd;
  std::string etag, last_modified;
  std::uint64_t body_bytes = 0;
};

// A stored page's validators, as Database::validators() gives them (views into the database).
struct PageValidators {
  std::string_view etag, last_modified;  // "" when the response had none
  std::uint64_t body_bytes = 0;          // the body's size when it was fetched
};

}  // namespace webrank
