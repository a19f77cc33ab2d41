#include "web/http_message.hpp"

#include <strings.h>
#include <zlib.h>

#include "util/error.hpp"
#include "webrank/util/error.hpp"

namespace webrank::web {
namespace {

bool next_line(std::string_view& s, std::string_view& line) {
  if (s.empty()) return false;
  const std::size_t nl = s.find('\n');
  line = s.substr(0, nl);
  s = nl == std::string_view::npos ? std::string_view{} : s.substr(nl + 1);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return true;
}

std::string dechunk(std::string_view s, const std::string& where) {
  std::string out;
  for (;;) {
    std::string_view line;
    if (!next_line(s, line))
      fail(ErrorKind::kInvalidInput, where, ": chunked body ends without its last chunk");
    std::size_t size = 0, i = 0;
    int digits = 0;
    for (; i < line.size(); ++i) {
      const char c = line[i];
      int v = c >= '0' && c <= '9'   ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                     : -1;
      if (v < 0) break;
      if (++digits > 15) fail(ErrorKind::kInvalidInput, where, ": chunk size too large");
      size = size * 16 + static_cast<std::size_t>(v);
    }
    if (digits == 0 || (i < line.size() && line[i] != ';' && line[i] != ' ' && line[i] != '\t'))
      fail(ErrorKind::kInvalidInput, where, ": malformed chunk size line ", quoted_excerpt(line));
    if (size == 0) return out;
    if (s.size() < size)
      fail(ErrorKind::kInvalidInput, where, ": chunk of ", size, " bytes, only ", s.size(),
           " left");
    out.append(s.substr(0, size));
    s.remove_prefix(size);
    if (s.starts_with("\r\n")) {
      s.remove_prefix(2);
    } else if (s.starts_with("\n")) {
      s.remove_prefix(1);
    } else {
      fail(ErrorKind::kInvalidInput, where,
           ": chunk not followed by a line end (wrong chunk size)");
    }
  }
}

std::string inflate_body(std::string_view s, bool gzip, const std::string& where,
                         std::size_t max_size, bool* truncated) {
  z_stream z{};
  if (inflateInit2(&z, gzip ? 15 + 32 : 15) != Z_OK)
    fail(ErrorKind::kInvalidInput, where, ": cannot initialize zlib");
  std::string out;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(s.data()));
  z.avail_in = static_cast<uInt>(s.size());
  char buf[65536];
  int rc = Z_OK;
  bool raw_retry = !gzip;
  for (;;) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(buf, sizeof buf - z.avail_out);
    if (rc == Z_STREAM_END) break;
    if (out.size() > max_size) {
      out.resize(max_size);
      *truncated = true;
      rc = Z_STREAM_END;
      break;
    }
    if (rc == Z_DATA_ERROR && raw_retry && out.empty()) {
      // "deflate" is often sent raw, without the zlib wrapper.
      raw_retry = false;
      inflateEnd(&z);
      z = z_stream{};
      inflateInit2(&z, -15);
      z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(s.data()));
      z.avail_in = static_cast<uInt>(s.size());
      continue;
    }
    if (rc != Z_OK || (z.avail_in == 0 && z.avail_out != 0)) break;
  }
  inflateEnd(&z);
  if (rc != Z_STREAM_END && rc != Z_OK)
    fail(ErrorKind::kInvalidInput, where, ": body does not decode as ", gzip ? "gzip" : "deflate");
  return out;
}

}  // namespace

std::string_view HttpResponse::header(std::string_view name) const {
  for (const auto& [k, v] : headers) {
    if (k.size() == name.size() && strncasecmp(k.data(), name.data(), k.size()) == 0) return v;
  }
  return {};
}

void append_folded_line(std::string& value, std::string_view line) {
  const std::size_t text = line.find_first_not_of(" \t");
  if (text == std::string_view::npos) return;
  value += ' ';
  value += line.substr(text);
}

HttpResponse parse_http_response(std::string_view block, const std::string& where,
                                 std::size_t max_body) {
  HttpResponse r;
  std::string_view line;
  if (!block.starts_with("HTTP/") || !next_line(block, line))
    fail(ErrorKind::kInvalidInput, where,
         ": response record does not start with an HTTP status line");
  const std::size_t sp = line.find(' ');
  std::string_view code = sp == std::string_view::npos ? "" : line.substr(sp + 1, 3);
  if (code.size() != 3 || !std::isdigit(static_cast<unsigned char>(code[0])) ||
      !std::isdigit(static_cast<unsigned char>(code[1])) ||
      !std::isdigit(static_cast<unsigned char>(code[2])))
    fail(ErrorKind::kInvalidInput, where, ": bad HTTP status line ", quoted_excerpt(line, 60));
  r.status = (code[0] - '0') * 100 + (code[1] - '0') * 10 + (code[2] - '0');
  bool ended = false;
  while (next_line(block, line)) {
    if (line.empty()) {
      ended = true;
      break;
    }
    if ((line[0] == ' ' || line[0] == '\t') && !r.headers.empty()) {
      append_folded_line(r.headers.back().second, line);
      continue;
    }
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;  // tolerated, as browsers do
    std::string_view v = line.substr(colon + 1);
    while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
    while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
    r.headers.emplace_back(std::string(line.substr(0, colon)), std::string(v));
  }
  if (!ended) return r;  // headers only (revisit records)
  std::string body(block);
  std::string te(r.header("Transfer-Encoding"));
  for (char& c : te) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (te.find("chunked") != std::string::npos) {
    // Archives often store the body already de-chunked but keep the header (Wayback, pywb):
    // a body that is not valid chunked coding is taken as it is, as warcio does.
    try {
      body = dechunk(body, where);
    } catch (const Error&) {
    }
  }
  std::string ce(r.header("Content-Encoding"));
  for (char& c : ce) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (!body.empty() && (ce == "gzip" || ce == "x-gzip"))
    body = inflate_body(body, true, where, max_body, &r.truncated);
  if (!body.empty() && ce == "deflate")
    body = inflate_body(body, false, where, max_body, &r.truncated);
  if (body.size() > max_body) {  // a plain body longer than a crawl would have fetched
    body.resize(max_body);
    r.truncated = true;
  }
  r.body = std::move(body);
  return r;
}

}  // namespace webrank::web
