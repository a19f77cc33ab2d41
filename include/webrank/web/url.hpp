// URLs as the crawler sees them (RFC 3986), for front ends that show crawled pages: the proxy
// view resolves each link of a stored page against the page's URL to find its target.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace webrank {

// `ref` (an href) resolved against the absolute URL `base` and normalized the way the crawler
// normalized the links it recorded (fragment dropped, scheme and host lower-cased, default port
// and dot segments removed, percent-encoding made canonical). nullopt for schemes other than
// http, https and file (mailto:, javascript:, data: ...) and for malformed URLs.
std::optional<std::string> resolve_link(std::string_view base, std::string_view ref);

}  // namespace webrank
