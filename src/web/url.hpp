// URLs of the crawler and the crawl importers: parsing, resolving a reference against a base,
// and normalizing, per RFC 3986.
//
// Contract:
// - resolve_url(base, ref) strips leading/trailing blanks and removes tabs and newlines from
//   `ref` (as browsers do), resolves it against `base` (RFC 3986 §5.2), drops the fragment and
//   normalizes the result; it returns nullopt for schemes other than http, https and file
//   (mailto:, javascript:, data: ...), for malformed authorities or ports, and for an empty
//   host in http(s).
// - Normalization (RFC 3986 §6.2.2 plus the scheme-based §6.2.3): scheme and host lower-cased;
//   the default port (80 for http, 443 for https) removed; dot segments removed; an empty path
//   becomes "/"; user info dropped; percent-escapes upper-cased, escapes of unreserved
//   characters decoded, and characters that may not appear (space, non-ASCII bytes, quotes,
//   angle brackets...) percent-encoded; a '%' not followed by two hex digits becomes "%25".
//   "file://localhost/x" is "file:///x". Normalizing a normalized URL changes nothing.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace webrank::web {

struct Url {
  std::string scheme;  // lower case
  std::string host;    // lower case, no port ("" for file:)
  std::string port;    // "" = default
  std::string path;    // starts with '/'
  std::string query;   // without '?'; has_query tells "?" from no query
  bool has_query = false;

  std::string str() const;
  // "host[:port]": the unit of politeness and of robots.txt.
  std::string authority() const;
  // scheme://authority
  std::string origin() const;
  // path[?query]: what robots.txt rules match.
  std::string path_and_query() const;
};

std::optional<Url> parse_url(std::string_view absolute);
std::optional<std::string> resolve_url(std::string_view base, std::string_view ref);
inline std::optional<std::string> normalize_url(std::string_view url) {
  return resolve_url("", url);
}

// file:// URL of an absolute local path (percent-encoded), and back (nullopt if not file:).
std::string file_url(const std::string& absolute_path);
std::optional<std::string> file_path(std::string_view url);

}  // namespace webrank::web
