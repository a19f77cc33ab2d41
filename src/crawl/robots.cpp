#include "crawl/robots.hpp"

#include <strings.h>

#include <cctype>
#include <cstdlib>

namespace webrank::crawl {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && strncasecmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace

bool robots_pattern_matches(std::string_view pattern, std::string_view path) {
  const bool anchored = pattern.ends_with('$');
  if (anchored) pattern.remove_suffix(1);
  // Greedy glob matching with backtracking on the last '*' (linear for practical patterns).
  std::size_t p = 0, s = 0, star = std::string_view::npos, mark = 0;
  while (s < path.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = s;
    } else if (p < pattern.size() && pattern[p] == path[s]) {
      ++p;
      ++s;
    } else if (p == pattern.size() && !anchored) {
      return true;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      s = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

Robots Robots::disallow_all() {
  Robots r;
  r.rules_.push_back({"/", false});
  return r;
}

Robots Robots::parse(std::string_view text, std::string_view agent) {
  struct Group {
    std::vector<std::string> agents;
    std::vector<Rule> rules;
    std::optional<double> delay;
  };
  std::vector<Group> groups;
  bool in_agents = false;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    if (const std::size_t hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view key = trim(line.substr(0, colon));
    const std::string_view value = trim(line.substr(colon + 1));
    if (iequals(key, "user-agent")) {
      if (!in_agents) groups.emplace_back();
      in_agents = true;
      groups.back().agents.emplace_back(value);
      continue;
    }
    if (groups.empty()) continue;
    in_agents = false;
    if (iequals(key, "allow") || iequals(key, "disallow")) {
      const bool allow = iequals(key, "allow");
      if (value.empty()) {
        if (!allow) continue;  // "Disallow:" (empty) allows everything
      }
      groups.back().rules.push_back({std::string(value), allow});
    } else if (iequals(key, "crawl-delay")) {
      char* end = nullptr;
      const std::string v(value);
      const double d = std::strtod(v.c_str(), &end);
      if (end != v.c_str() && d >= 0) groups.back().delay = d;
    }
  }
  Robots r;
  bool found = false;
  // Our own group first, then "*".
  for (int pass = 0; pass < 2 && !found; ++pass) {
    for (const Group& g : groups) {
      bool match = false;
      for (const std::string& a : g.agents) {
        if (pass == 0 && a != "*" && a.size() <= agent.size() &&
            strncasecmp(a.data(), agent.data(), a.size()) == 0)
          match = true;
        if (pass == 1 && a == "*") match = true;
      }
      if (!match) continue;
      found = true;
      r.rules_.insert(r.rules_.end(), g.rules.begin(), g.rules.end());
      if (g.delay) r.delay_ = g.delay;
    }
  }
  return r;
}

bool Robots::allowed(std::string_view path) const {
  if (path == "/robots.txt") return true;
  std::size_t best = 0;
  bool allow = true, any = false;
  for (const Rule& rule : rules_) {
    if (!robots_pattern_matches(rule.pattern, path)) continue;
    const std::size_t len = rule.pattern.size();
    if (!any || len > best || (len == best && rule.allow)) {
      best = len;
      allow = rule.allow;
      any = true;
    }
  }
  return allow;
}

}  // namespace webrank::crawl
