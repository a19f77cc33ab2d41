// Visits from a web server access log, Common or Combined Log Format (webrank/studies/usage.hpp).
#include <algorithm>
#include <cctype>
#include <unordered_map>

#include "ingest/edge_list_reader.hpp"
#include "util/input_stream.hpp"
#include "web/url.hpp"
#include "webrank/ingest/page_weights_file.hpp"
#include "webrank/studies/usage.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

// The fields of one log line that matter here.
struct LogLine {
  std::string_view request, status, agent;
  bool combined = false;
};

// Splits a line of the Common Log Format
//   host ident authuser [date] "request" status bytes
// optionally followed by the Combined Log Format's "referer" "user-agent" (and anything after).
// Returns an empty optional with `why` set when the line is in neither.
std::optional<LogLine> parse_line(std::string_view s, std::string& why) {
  std::size_t i = 0;
  auto skip_spaces = [&] {
    while (i < s.size() && s[i] == ' ') ++i;
  };
  auto token = [&]() -> std::string_view {
    const std::size_t b = i;
    while (i < s.size() && s[i] != ' ') ++i;
    return s.substr(b, i - b);
  };
  // A quoted field with backslash escapes; returns false when it does not close.
  auto quoted = [&](std::string_view& out) {
    if (i >= s.size() || s[i] != '"') return false;
    const std::size_t b = ++i;
    while (i < s.size() && s[i] != '"') i += s[i] == '\\' ? 2 : 1;
    if (i >= s.size()) return false;
    out = s.substr(b, i - b);
    ++i;
    return true;
  };
  for (const char* field : {"client host", "ident", "user"}) {
    skip_spaces();
    if (token().empty()) {
      why = cat("expected the ", field, " field");
      return std::nullopt;
    }
  }
  skip_spaces();
  if (i >= s.size() || s[i] != '[') {
    why = "expected a [date] after the user field";
    return std::nullopt;
  }
  const std::size_t close = s.find(']', i);
  if (close == std::string_view::npos) {
    why = "the [date] does not close";
    return std::nullopt;
  }
  i = close + 1;
  skip_spaces();
  LogLine l;
  if (!quoted(l.request)) {
    why = "expected a quoted \"request\" after the date";
    return std::nullopt;
  }
  skip_spaces();
  l.status = token();
  if (l.status.size() != 3 || !std::all_of(l.status.begin(), l.status.end(), ::isdigit)) {
    why = cat("expected a three-digit status after the request, got '", l.status, "'");
    return std::nullopt;
  }
  skip_spaces();
  const std::string_view bytes = token();
  if (bytes.empty() || (bytes != "-" && !std::all_of(bytes.begin(), bytes.end(), ::isdigit))) {
    why = cat("expected the response size (digits or -) after the status, got '", bytes, "'");
    return std::nullopt;
  }
  skip_spaces();
  std::string_view referer;
  if (i < s.size() && quoted(referer)) {
    skip_spaces();
    if (!quoted(l.agent)) {
      why = "a quoted referer must be followed by a quoted user agent (Combined Log Format)";
      return std::nullopt;
    }
    l.combined = true;
  } else if (i < s.size()) {
    why = "expected the end of the line or a quoted referer after the response size";
    return std::nullopt;
  }
  return l;
}

bool is_robot(std::string_view agent) {
  std::string a(agent);
  std::transform(a.begin(), a.end(), a.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const char* word : {"bot", "crawler", "spider", "slurp"}) {
    if (a.find(word) != std::string::npos) return true;
  }
  return false;
}

// The origin every URL label of the database shares, or "" when they do not share one.
std::string shared_origin(const Database& db) {
  std::string origin;
  for (PageId u = 0; u < db.num_pages(); ++u) {
    const auto url = web::parse_url(db.label(u));
    if (!url || url->scheme == "file") return "";
    if (origin.empty()) {
      origin = url->origin();
    } else if (url->origin() != origin) {
      return "";
    }
  }
  return origin;
}

}  // namespace

UsageCounts read_usage_counts(const Database& db, const std::string& path, bool strict) {
  UsageCounts c;
  c.visits.assign(db.num_pages(), 0.0);
  for (const auto& [page, count] : read_page_weights(db, path, strict ? nullptr : &c.unknown))
    c.visits[page] += count;
  for (double v : c.visits) {
    c.total += v;
    c.visited_pages += v > 0;
  }
  return c;
}

UsageCounts count_log_visits(const Database& db, const std::string& path, const AccessLogOptions& o,
                             AccessLogReport* report) {
  AccessLogReport r;
  r.site = o.site.empty() ? shared_origin(db) : o.site;
  if (r.site.empty()) {
    fail_option("site", "is needed: an access log gives paths, not hosts, and the pages of ",
                db.path().string(), " do not share one origin (give scheme://host[:port])");
  }
  while (!r.site.empty() && r.site.back() == '/') r.site.pop_back();
  if (!web::parse_url(r.site + "/")) {
    fail_option("site", "must be an http(s) origin such as http://www.example.org, got '", o.site,
                "'");
  }
  auto in = open_input(path);
  LineReader reader(*in);
  UsageCounts c;
  c.visits.assign(db.num_pages(), 0.0);
  std::unordered_map<std::string, PageId> page_of;  // request target -> page (kNoPage: unknown)
  std::unordered_map<std::string, std::uint64_t> unknown;
  auto find_page = [&](const std::string& target) -> PageId {
    std::string url = target.rfind("http://", 0) == 0 || target.rfind("https://", 0) == 0
                          ? target
                          : r.site + (target.empty() || target[0] != '/' ? "/" : "") + target;
    std::vector<std::string> candidates{url};
    if (auto n = web::normalize_url(url)) candidates.push_back(*n);
    for (std::size_t i = 0, end = candidates.size(); i < end; ++i) {
      const std::string u = candidates[i];
      if (!u.empty() && u.back() == '/') {
        candidates.push_back(u + "index.html");
        candidates.push_back(u + "index.htm");
        candidates.push_back(u.substr(0, u.size() - 1));
      } else {
        candidates.push_back(u + "/");
      }
    }
    for (const std::string& u : candidates) {
      if (auto id = db.find(u)) return *id;
    }
    return kNoPage;
  };
  std::string_view line;
  std::string why;
  while (reader.next(line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (line.empty()) continue;
    ++r.lines;
    const auto l = parse_line(line, why);
    if (!l) {
      fail(ErrorKind::kInvalidInput, reader.name(), ":", reader.line_number(), ": ", why,
           " (expected the Common or Combined Log Format: host ident user [date] \"GET /path "
           "HTTP/1.1\" status bytes [\"referer\" \"user-agent\"])");
    }
    r.combined_lines += l->combined;
    // "GET /path HTTP/1.1" (HTTP/0.9 has no protocol).
    const std::size_t sp = l->request.find(' ');
    if (sp == std::string_view::npos || l->request.substr(0, sp) != "GET") {
      ++r.not_get;
      continue;
    }
    std::string_view target = l->request.substr(sp + 1);
    if (const std::size_t end = target.rfind(" HTTP/"); end != std::string_view::npos) {
      target = target.substr(0, end);
    }
    if (!(l->status[0] == '2' || l->status == "304")) {
      ++r.not_success;
      continue;
    }
    if (!o.keep_bots && l->combined && is_robot(l->agent)) {
      ++r.bots;
      continue;
    }
    std::string key(target);
    auto it = page_of.find(key);
    if (it == page_of.end()) it = page_of.emplace(key, find_page(key)).first;
    if (it->second == kNoPage) {
      ++r.unknown_urls;
      ++unknown[key];
      continue;
    }
    c.visits[it->second] += 1;
    ++r.counted;
  }
  if (r.lines == 0) fail(ErrorKind::kInvalidInput, reader.name(), ": the access log is empty");
  r.top_unknown.assign(unknown.begin(), unknown.end());
  std::sort(r.top_unknown.begin(), r.top_unknown.end(), [](const auto& a, const auto& b) {
    return a.second > b.second || (a.second == b.second && a.first < b.first);
  });
  if (r.top_unknown.size() > 10) r.top_unknown.resize(10);
  for (double v : c.visits) {
    c.total += v;
    c.visited_pages += v > 0;
  }
  if (c.total == 0) {
    fail(ErrorKind::kInvalidInput, reader.name(), ": none of its ", r.lines,
         " requests is a successful GET of a page of ", db.path().string(), " (site ", r.site, "; ",
         r.unknown_urls, " requests of unknown paths", r.top_unknown.empty() ? "" : ", e.g. ",
         r.top_unknown.empty() ? "" : r.top_unknown[0].first, ")");
  }
  if (report) *report = std::move(r);
  return c;
}

}  // namespace webrank
