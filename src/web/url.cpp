#include "web/url.hpp"

#include "webrank/web/url.hpp"

#include <cctype>
#include <vector>

namespace webrank::web {
namespace {

struct Parts {
  std::string scheme, authority, path, query, fragment;
  bool has_scheme = false, has_authority = false, has_query = false;
};

bool is_scheme_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.';
}

Parts split(std::string_view s) {
  Parts p;
  // scheme
  std::size_t i = 0;
  if (!s.empty() && std::isalpha(static_cast<unsigned char>(s[0]))) {
    std::size_t j = 1;
    while (j < s.size() && is_scheme_char(s[j])) ++j;
    if (j < s.size() && s[j] == ':') {
      p.scheme = std::string(s.substr(0, j));
      for (char& c : p.scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      p.has_scheme = true;
      i = j + 1;
    }
  }
  const std::size_t hash = s.find('#', i);
  if (hash != std::string_view::npos) {
    p.fragment = std::string(s.substr(hash + 1));
    s = s.substr(0, hash);
  }
  const std::size_t q = s.find('?', i);
  if (q != std::string_view::npos) {
    p.query = std::string(s.substr(q + 1));
    p.has_query = true;
    s = s.substr(0, q);
  }
  std::string_view rest = s.substr(i);
  if (rest.starts_with("//")) {
    const std::size_t end = rest.find('/', 2);
    p.authority = std::string(rest.substr(2, end == std::string_view::npos ? end : end - 2));
    p.has_authority = true;
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end);
  }
  p.path = std::string(rest);
  return p;
}

// RFC 3986 §5.2.4.
std::string remove_dot_segments(std::string_view in) {
  std::vector<std::string_view> out;
  const bool absolute = in.starts_with('/');
  std::size_t i = absolute ? 1 : 0;
  bool trailing_slash = false;
  while (i <= in.size()) {
    std::size_t j = in.find('/', i);
    if (j == std::string_view::npos) j = in.size();
    const std::string_view seg = in.substr(i, j - i);
    const bool last = j == in.size();
    if (seg == ".") {
      trailing_slash = last;
    } else if (seg == "..") {
      if (!out.empty()) out.pop_back();
      trailing_slash = last;
    } else {
      out.push_back(seg);
      trailing_slash = false;
    }
    i = j + 1;
  }
  std::string r = absolute ? "/" : "";
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (k) r += '/';
    r += out[k];
  }
  if (trailing_slash && !r.ends_with('/')) r += '/';
  return r;
}

std::string merge(const Parts& base, std::string_view ref_path) {
  if (base.has_authority && base.path.empty()) return "/" + std::string(ref_path);
  const std::size_t slash = base.path.rfind('/');
  if (slash == std::string::npos) return std::string(ref_path);
  return base.path.substr(0, slash + 1) + std::string(ref_path);
}

int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool unreserved(unsigned char c) {
  return std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~';
}

bool allowed(unsigned char c, bool query) {
  if (unreserved(c)) return true;
  switch (c) {
    case '!':
    case '$':
    case '&':
    case '\'':
    case '(':
    case ')':
    case '*':
    case '+':
    case ',':
    case ';':
    case '=':
    case ':':
    case '@':
    case '/':
      return true;
    case '?':
      return query;
    default:
      return false;
  }
}

std::string normalize_escapes(std::string_view s, bool query) {
  static const char* hex = "0123456789ABCDEF";
  std::string r;
  r.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '%') {
      const int h = i + 2 < s.size() ? hexval(s[i + 1]) : -1;
      const int l = i + 2 < s.size() ? hexval(s[i + 2]) : -1;
      if (h >= 0 && l >= 0) {
        const unsigned char v = static_cast<unsigned char>(h * 16 + l);
        if (unreserved(v)) {
          r += static_cast<char>(v);
        } else {
          r += '%';
          r += hex[h];
          r += hex[l];
        }
        i += 2;
      } else {
        r += "%25";
      }
    } else if (allowed(c, query)) {
      r += static_cast<char>(c);
    } else {
      r += '%';
      r += hex[c >> 4];
      r += hex[c & 15];
    }
  }
  return r;
}

std::string clean_reference(std::string_view ref) {
  while (!ref.empty() && static_cast<unsigned char>(ref.front()) <= ' ') ref.remove_prefix(1);
  while (!ref.empty() && static_cast<unsigned char>(ref.back()) <= ' ') ref.remove_suffix(1);
  std::string r;
  for (char c : ref) {
    if (c != '\t' && c != '\n' && c != '\r') r += c;
  }
  return r;
}

// Normalizes an absolute, fragment-free split URL into a Url; nullopt when unusable.
std::optional<Url> finish(const Parts& p) {
  Url u;
  u.scheme = p.scheme;
  const bool http = u.scheme == "http" || u.scheme == "https";
  if (!http && u.scheme != "file") return std::nullopt;
  if (http && !p.has_authority) return std::nullopt;
  std::string_view auth = p.authority;
  if (const std::size_t at = auth.rfind('@'); at != std::string_view::npos) {
    auth = auth.substr(at + 1);
  }
  std::string_view host = auth, port;
  if (auth.starts_with('[')) {
    const std::size_t close = auth.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = auth.substr(0, close + 1);
    std::string_view after = auth.substr(close + 1);
    if (!after.empty()) {
      if (after[0] != ':') return std::nullopt;
      port = after.substr(1);
    }
  } else if (const std::size_t colon = auth.rfind(':'); colon != std::string_view::npos) {
    host = auth.substr(0, colon);
    port = auth.substr(colon + 1);
  }
  for (char c : port) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
  }
  while (port.size() > 1 && port[0] == '0') port.remove_prefix(1);
  if (port.size() > 5 || (!port.empty() && std::stoul(std::string(port)) > 65535))
    return std::nullopt;
  const bool literal = host.starts_with('[');  // IPv6: the brackets stay
  u.host = literal ? std::string(host) : normalize_escapes(host, false);
  for (char& c : u.host) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // A ':' left in a host is a second port ("host:80:"), not a name.
  for (char c : u.host) {
    if (c == '/' || c == '?' || c == '#' || c == '@' || (c == ':' && !literal)) return std::nullopt;
  }
  if (http && u.host.empty()) return std::nullopt;
  if (u.scheme == "file" && u.host == "localhost") u.host.clear();
  if (!((u.scheme == "http" && port == "80") || (u.scheme == "https" && port == "443"))) {
    u.port = std::string(port);
  }
  u.path = remove_dot_segments(normalize_escapes(p.path, false));
  if (u.path.empty() || u.path[0] != '/') u.path.insert(u.path.begin(), '/');
  u.has_query = p.has_query;
  u.query = normalize_escapes(p.query, true);
  return u;
}

}  // namespace

std::string Url::authority() const {
  return port.empty() ? host : host + ":" + port;
}
std::string Url::origin() const {
  return scheme + "://" + authority();
}
std::string Url::path_and_query() const {
  return has_query ? path + "?" + query : path;
}
std::string Url::str() const {
  return origin() + path_and_query();
}

std::optional<Url> parse_url(std::string_view absolute) {
  const Parts p = split(clean_reference(absolute));
  if (!p.has_scheme) return std::nullopt;
  return finish(p);
}

std::optional<std::string> resolve_url(std::string_view base_text, std::string_view ref_text) {
  const Parts r = split(clean_reference(ref_text));
  Parts t;
  if (r.has_scheme) {
    t = r;
    t.path = remove_dot_segments(r.path);
  } else {
    const Parts b = split(clean_reference(base_text));
    if (!b.has_scheme) return std::nullopt;
    t.scheme = b.scheme;
    t.has_scheme = true;
    if (r.has_authority) {
      t.authority = r.authority;
      t.has_authority = true;
      t.path = remove_dot_segments(r.path);
      t.query = r.query;
      t.has_query = r.has_query;
    } else {
      t.authority = b.authority;
      t.has_authority = b.has_authority;
      if (r.path.empty()) {
        t.path = b.path;
        t.query = r.has_query ? r.query : b.query;
        t.has_query = r.has_query || b.has_query;
      } else {
        t.path = r.path.starts_with('/') ? remove_dot_segments(r.path)
                                         : remove_dot_segments(merge(b, r.path));
        t.query = r.query;
        t.has_query = r.has_query;
      }
    }
  }
  const std::optional<Url> u = finish(t);
  if (!u) return std::nullopt;
  return u->str();
}

std::string file_url(const std::string& absolute_path) {
  return "file://" + normalize_escapes(absolute_path, false);
}

std::optional<std::string> file_path(std::string_view url) {
  const std::optional<Url> u = parse_url(url);
  if (!u || u->scheme != "file") return std::nullopt;
  std::string r;
  for (std::size_t i = 0; i < u->path.size(); ++i) {
    if (u->path[i] == '%' && i + 2 < u->path.size()) {
      r += static_cast<char>(hexval(u->path[i + 1]) * 16 + hexval(u->path[i + 2]));
      i += 2;
    } else {
      r += u->path[i];
    }
  }
  return r;
}

}  // namespace webrank::web

namespace webrank {

std::optional<std::string> resolve_link(std::string_view base, std::string_view ref) {
  return web::resolve_url(base, ref);
}

}  // namespace webrank
