// An HTTP/1.x response as stored in a WARC response or revisit record: status line, header
// fields and body, with chunked transfer coding and gzip/deflate content coding undone.
//
// Contract: parse_http_response() accepts a status line without reason text ("HTTP/1.0 200")
// and LF-only line ends; it throws Error "WHERE: ..." for a block that does not start with
// "HTTP/", a non-numeric status, or a body whose gzip/deflate coding does not decode. A body
// that is not valid chunked coding although the header says so is kept as it is (archives
// often store bodies de-chunked and keep the header; warcio does the same). `where` names the
// record (file and byte offset) for the messages.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace webrank::web {

struct HttpResponse {
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  bool truncated = false;  // the decoded body was longer than max_body and was cut there
  std::string_view header(std::string_view name) const;  // case-insensitive; "" if absent
};

// The most bytes a body is decoded to unless the caller says otherwise: a crawl's default
// --max-bytes.
inline constexpr std::size_t kDefaultMaxBodyBytes = 10 << 20;

// The body is kept, and a gzip or deflate body decoded, to at most `max_body` bytes (the rest is
// dropped and `truncated` set, as a crawl cuts a longer body), so that a small compressed body
// cannot expand without bound (a decompression bomb).
HttpResponse parse_http_response(std::string_view block, const std::string& where,
                                 std::size_t max_body = kDefaultMaxBodyBytes);

// Appends a folded continuation line (one starting with a blank: obsolete line folding, RFC 9112
// §5.2, also in WARC headers) to the value of the field before it, as one space and the line's
// text; a line of blanks only adds nothing.
void append_folded_line(std::string& value, std::string_view line);

}  // namespace webrank::web
