// One WARC record as a page: what the `warc` input format (formats/warc.cpp) does with each
// record, shared with the crawler, which turns each record of its journal into a page the same
// way as it journals it. So a crawl, and the import of its journal, give the same web by
// construction.
#pragma once

#include <string>

#include "web/http_message.hpp"
#include "web/warc.hpp"
#include "webrank/store/page_data.hpp"

namespace webrank {

struct WarcCapture {
  enum class Kind {
    kSkipped,    // request, warcinfo, metadata of other tools, robots.txt, not http(s) or file
    kUnfetched,  // webrank's journal: a URL that could not be fetched (a page without links)
    kCapture,    // a response or resource record: a page with its body
    kRevisit,    // a revisit record: the body (and maybe the status) are those of an earlier one
  };
  Kind kind = Kind::kSkipped;
  std::string label;  // the normalized WARC-Target-URI
  // kCapture, kRevisit: the HTTP status (200 for a resource; 0 for a revisit without headers),
  // Content-Type, Location, and the body with chunked and gzip/deflate codings undone.
  int status = 0;
  std::string content_type, location, body;
  std::string etag, last_modified;  // the response's validators, as sent ("" if absent)
};

// Reads what `rec` says about a page, its body cut at `max_body` bytes (decoded: a compressed
// body never expands past it; a crawl's --max-bytes). Throws Error naming `path`, the record's
// byte offset and the URL when its HTTP response does not parse (web/http_message.hpp).
WarcCapture read_warc_capture(const web::WarcRecord& rec, const std::string& path,
                              std::size_t max_body = web::kDefaultMaxBodyBytes);

// The page of a kCapture or kUnfetched capture (web/page_record.hpp: HTML is parsed for title,
// text and links).
PageRecord capture_page(const WarcCapture& c);

}  // namespace webrank
