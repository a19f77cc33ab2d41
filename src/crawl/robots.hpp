// robots.txt (RFC 9309): which paths of a host the crawler may fetch, and its Crawl-delay.
//
// Contract:
// - The group whose User-agent line matches our product token (case-insensitive prefix match
//   of the token, "webrank") is used, else the "*" group, else everything is allowed. Groups
//   may share rules (consecutive User-agent lines).
// - Allow/Disallow rules match the path and query from their start; "*" matches any run of
//   characters and a final "$" anchors the end. The longest matching rule wins; on a tie Allow
//   wins; an empty Disallow allows everything. /robots.txt itself is always allowed.
// - Crawl-delay (seconds, fractional allowed) of the chosen group, if any.
// - from_status(): a 4xx robots.txt allows everything; 5xx or an unreachable host disallows
//   everything (RFC 9309 §2.3.1.3/§2.3.1.4).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace webrank::crawl {

class Robots {
 public:
  static Robots parse(std::string_view text, std::string_view agent = "webrank");
  static Robots allow_all() { return Robots{}; }
  static Robots disallow_all();

  bool allowed(std::string_view path_and_query) const;
  std::optional<double> crawl_delay() const { return delay_; }

 private:
  struct Rule {
    std::string pattern;
    bool allow;
  };
  std::vector<Rule> rules_;
  std::optional<double> delay_;
};

// Whether `pattern` (with * and a final $) matches the start of `path`.
bool robots_pattern_matches(std::string_view pattern, std::string_view path);

}  // namespace webrank::crawl
