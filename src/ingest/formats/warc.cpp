// Input format `warc`: the pages of a web archive (WARC/1.0 or 1.1, plain or gzip), as written
// by wget --warc-file, Heritrix, pywb/warcio, Common Crawl, and webrank's own crawl journal.
//
// Contract:
// - `response` records of http(s) URLs (an HTTP response: status, headers, body; chunked and
//   gzip/deflate codings undone) and `resource` records (a body without HTTP: status 200, as
//   the crawler journals file:// pages) each give one page record (page_record.hpp): label =
//   the normalized WARC-Target-URI; HTML bodies give title, text and links.
// - `revisit` records (a payload identical to an earlier capture, by WARC-Payload-Digest, or
//   the same URL: WARC-Refers-To-Target-URI) give the page with the earlier capture's body
//   resolved against the revisit's own URL; a revisit whose original is not in the input gives
//   the page with its status and no links.
// - Only the first capture of a URL counts (page_data.hpp). robots.txt captures (path
//   /robots.txt) are crawler machinery and skipped. request, metadata, warcinfo and conversion
//   records, and targets that are not http(s) or file URLs (dns:...), are skipped.
// - Errors name the file and the decompressed byte offset of the record (warc.hpp): a file that
//   is not a WARC, a record cut short, bad chunked coding, a body that does not decode.
// - `auto`: *.warc, *.warc.gz (and .warc.zst).
#include <strings.h>

#include <unordered_map>

#include "ingest/formats/page_batch.hpp"
#include "ingest/formats/path_names.hpp"
#include "ingest/formats/readers.hpp"
#include "ingest/warc_pages.hpp"
#include "web/html_extract.hpp"
#include "web/http_message.hpp"
#include "web/page_record.hpp"
#include "web/url.hpp"
#include "web/warc.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

// Bodies of HTML captures kept for the revisits that refer to them, bounded in total.
constexpr std::size_t kMaxKeptBodies = 512u << 20;

}  // namespace

WarcCapture read_warc_capture(const web::WarcRecord& rec, const std::string& path,
                              std::size_t max_body) {
  WarcCapture c;
  const std::string_view type = rec.type();
  if (type == "metadata") {
    // A URL a crawler could not fetch (webrank's journal): a page with no known out-links.
    if (std::string_view(rec.block).starts_with("webrank-fetch-error:")) {
      if (auto u = web::normalize_url(rec.target_uri())) {
        c.kind = WarcCapture::Kind::kUnfetched;
        c.label = *u;
      }
    }
    return c;
  }
  const bool resource = type == "resource", revisit = type == "revisit";
  if (type != "response" && !resource && !revisit) return c;
  const std::optional<web::Url> url = web::parse_url(rec.target_uri());
  if (!url || url->path == "/robots.txt") return c;
  c.kind = revisit ? WarcCapture::Kind::kRevisit : WarcCapture::Kind::kCapture;
  c.label = url->str();
  const bool http =
      url->scheme != "file" && (std::string_view(rec.block).starts_with("HTTP/") || !resource);
  if (http) {
    if (revisit && !std::string_view(rec.block).starts_with("HTTP/")) {
      // A revisit without stored headers: everything comes from the original.
    } else {
      const std::string where =
          cat(path, ": byte ", rec.offset, " (", type, " record of ", c.label, ")");
      web::HttpResponse h = web::parse_http_response(rec.block, where, max_body);
      c.status = h.status;
      c.content_type = h.header("Content-Type");
      c.location = h.header("Location");
      c.etag = h.header("ETag");
      c.last_modified = h.header("Last-Modified");
      c.body = std::move(h.body);
    }
  } else {
    c.status = 200;
    c.content_type = rec.field("Content-Type");
    c.body = rec.block.substr(0, max_body);
  }
  return c;
}

PageRecord capture_page(const WarcCapture& c) {
  if (c.kind == WarcCapture::Kind::kUnfetched) {
    PageRecord unfetched;
    unfetched.url = c.label;
    return unfetched;
  }
  PageRecord r = web::make_page_record(c.label, c.status, c.content_type, c.location, c.body);
  r.etag = c.etag;
  r.last_modified = c.last_modified;
  return r;
}

bool looks_like_warc(const std::string& path) {
  return ends_with(plain_name(path), ".warc");
}

std::uint64_t read_warc(const std::string& path, bool, RecordSink& sink,
                        const std::function<void(std::uint64_t)>& on_bytes) {
  web::WarcReader reader(path);
  web::WarcRecord rec;
  struct Kept {
    int status = 0;
    std::string content_type, body;
  };
  std::unordered_map<std::string, Kept> by_digest, by_url;
  std::unordered_map<std::string, std::string> digest_of_url;
  std::size_t kept = 0;
  std::uint64_t records = 0;
  PageBatch batch(sink);
  while (reader.next(rec)) {
    ++records;
    if (on_bytes && records % 64 == 0) on_bytes(reader.file_position());
    WarcCapture c = read_warc_capture(rec, path);
    if (c.kind == WarcCapture::Kind::kSkipped) continue;
    if (c.kind == WarcCapture::Kind::kRevisit) {
      const Kept* orig = nullptr;
      if (auto it = by_digest.find(std::string(rec.field("WARC-Payload-Digest")));
          it != by_digest.end() && !rec.field("WARC-Payload-Digest").empty()) {
        orig = &it->second;
      } else if (auto u = web::normalize_url(rec.field("WARC-Refers-To-Target-URI"))) {
        if (auto jt = by_url.find(*u); jt != by_url.end()) {
          orig = &jt->second;
        } else if (auto dt = digest_of_url.find(*u); dt != digest_of_url.end()) {
          orig = &by_digest.at(dt->second);
        }
      }
      if (orig) {
        if (c.status == 0 || c.status == 304) c.status = orig->status;
        if (c.content_type.empty()) c.content_type = orig->content_type;
        c.body = orig->body;
      }
      if (c.status == 0) c.status = 200;
      c.kind = WarcCapture::Kind::kCapture;
    } else if (c.kind == WarcCapture::Kind::kCapture && kept < kMaxKeptBodies &&
               web::is_html(c.content_type, c.body)) {
      // Kept once: by payload digest when the record has one (what revisits name first),
      // else by URL.
      kept += c.body.size();
      Kept k{c.status, c.content_type, c.body};
      if (const std::string_view d = rec.field("WARC-Payload-Digest"); !d.empty()) {
        by_digest.emplace(std::string(d), std::move(k));
        digest_of_url.emplace(c.label, std::string(d));
      } else {
        by_url.emplace(c.label, std::move(k));
      }
    }
    const std::size_t bytes = c.body.size();
    batch.add([c = std::move(c)] { return capture_page(c); }, bytes);
  }
  batch.flush();
  if (on_bytes) on_bytes(reader.file_position());
  return records;
}

}  // namespace webrank
