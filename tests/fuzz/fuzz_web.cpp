// libFuzzer targets for the pieces of the web a crawl and a WARC import parse, one per target
// (kFuzzTarget): url (parse, resolve, normalize: a normalized URL normalizes to itself), http
// (HTTP responses with their transfer and content codings, bodies bounded), html (title, text
// and links of any bytes as HTML), robots (robots.txt rules against paths). Any input must give a
// result or a webrank::Error, never a crash.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "crawl/robots.hpp"
#include "fuzz_common.hpp"
#include "web/html_extract.hpp"
#include "web/http_message.hpp"
#include "web/url.hpp"

using namespace webrank;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto [first, second] = fuzz::split(data, size);
  const std::string_view target = kFuzzTarget;
  if (target == "url") {
    if (const auto url = web::parse_url(first)) (void)url->path_and_query();
    const auto resolved = web::resolve_url(first, second);
    if (resolved) {
      // Normalizing is idempotent: a resolved URL is its own normal form.
      const auto again = web::normalize_url(*resolved);
      if (!again || *again != *resolved) std::abort();
    }
    (void)web::file_path(first);
  } else if (target == "http") {
    try {
      const web::HttpResponse r = web::parse_http_response(first, "fuzz", 1 << 20);
      if (r.body.size() > (1 << 20)) std::abort();
    } catch (const Error&) {
    }
  } else if (target == "html") {
    const web::ExtractedPage page = web::extract_html(first, "http://fuzz.example/a/b.html");
    if (page.text.size() > web::kMaxTextBytes + 4) std::abort();
    (void)web::is_html("text/html", first);
  } else if (target == "robots") {
    const crawl::Robots robots = crawl::Robots::parse(first);
    (void)robots.allowed(second.empty() ? std::string_view("/") : second);
    (void)robots.crawl_delay();
  } else {
    std::abort();  // a target this file does not know
  }
  return 0;
}
