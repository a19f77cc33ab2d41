// Parsing BVGraph .properties files (contract in bv_properties.hpp).
#include "ingest/formats/bv_properties.hpp"

#include <charconv>
#include <filesystem>
#include <map>
#include <sstream>
#include <string_view>
#include <vector>

#include "util/error.hpp"
#include "util/input_stream.hpp"

namespace webrank {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\f' || c == '\r';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// Drops backslash escapes, keeping the escaped character (enough for the keys and values
// BVGraph writes: numbers, class names and flag lists).
std::string unescape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) ++i;
    out += s[i];
  }
  return out;
}

struct Value {
  std::string text;
  int line = 0;
};

std::map<std::string, Value> parse_lines(const std::string& text) {
  std::map<std::string, Value> props;
  std::istringstream in(text);
  std::string raw;
  int line_no = 0;
  while (std::getline(in, raw)) {
    ++line_no;
    const int first_line = line_no;
    std::string logical(trim(raw));
    if (logical.empty() || logical.front() == '#' || logical.front() == '!') continue;
    // A line ending in an odd number of backslashes continues on the next line.
    auto continues = [](const std::string& s) {
      std::size_t n = 0;
      while (n < s.size() && s[s.size() - 1 - n] == '\\') ++n;
      return n % 2 == 1;
    };
    while (continues(logical) && std::getline(in, raw)) {
      ++line_no;
      logical.pop_back();
      logical += trim(raw);
    }
    // The key ends at the first unescaped '=', ':' or blank.
    std::size_t i = 0;
    while (i < logical.size()) {
      if (logical[i] == '\\') {
        i += 2;
        continue;
      }
      if (logical[i] == '=' || logical[i] == ':' || is_space(logical[i])) break;
      ++i;
    }
    i = std::min(i, logical.size());
    std::string key = unescape(std::string_view(logical).substr(0, i));
    std::string_view rest = std::string_view(logical).substr(i);
    rest = trim(rest);
    if (!rest.empty() && (rest.front() == '=' || rest.front() == ':')) rest.remove_prefix(1);
    props[key] = Value{unescape(trim(rest)), first_line};
  }
  return props;
}

std::uint64_t number(const std::map<std::string, Value>& props, const std::string& key,
                     const std::string& name, bool required, std::uint64_t fallback) {
  auto it = props.find(key);
  if (it == props.end()) {
    if (required)
      fail(ErrorKind::kInvalidInput, name, ": no '", key, "' property: expected ", key, "=NUMBER");
    return fallback;
  }
  const std::string& t = it->second.text;
  std::uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || ptr != t.data() + t.size() || t.empty()) {
    fail(ErrorKind::kInvalidInput, name, ":", it->second.line, ": ", key, "='", t,
         "': expected a non-negative integer");
  }
  return v;
}

BvCode parse_code(std::string_view code, unsigned* zeta_k, const std::string& where) {
  if (code == "GAMMA") return BvCode::kGamma;
  if (code == "DELTA") return BvCode::kDelta;
  if (code == "UNARY") return BvCode::kUnary;
  if (code == "NIBBLE") return BvCode::kNibble;
  if (code == "ZETA") return BvCode::kZeta;
  if (code.size() == 5 && code.substr(0, 4) == "ZETA" && code[4] >= '1' && code[4] <= '7') {
    const unsigned k = static_cast<unsigned>(code[4] - '0');
    if (*zeta_k != k && *zeta_k != 0) {
      fail(ErrorKind::kInvalidInput, where, ": ", code, " conflicts with another zeta parameter (",
           *zeta_k, "): only one k is supported");
    }
    *zeta_k = k;
    return BvCode::kZeta;
  }
  fail(ErrorKind::kInvalidInput, where, ": code '", code,
       "' is not supported (expected GAMMA, DELTA, UNARY, ZETA, ZETA1..ZETA7 or NIBBLE)");
}

}  // namespace

const char* bv_code_name(BvCode code) {
  switch (code) {
    case BvCode::kGamma:
      return "gamma";
    case BvCode::kDelta:
      return "delta";
    case BvCode::kUnary:
      return "unary";
    case BvCode::kZeta:
      return "zeta";
    case BvCode::kNibble:
      return "nibble";
  }
  return "?";
}

BvProperties parse_bv_properties(const std::string& text, const std::string& name) {
  const auto props = parse_lines(text);
  auto line_of = [&](const std::string& key) { return cat(name, ":", props.at(key).line); };
  BvProperties p;
  p.nodes = number(props, "nodes", name, true, 0);
  p.nodes_line = props.at("nodes").line;
  p.arcs = number(props, "arcs", name, true, 0);
  p.window_size = number(props, "windowsize", name, true, 0);
  p.min_interval_length = number(props, "minintervallength", name, true, 0);
  p.max_ref_count = number(props, "maxrefcount", name, false, 0);
  if (p.nodes > 0xFFFFFFFEull) {
    fail(ErrorKind::kInvalidInput, line_of("nodes"), ": nodes=", p.nodes,
         " exceeds webrank's 4,294,967,294 pages (32-bit page ids)");
  }
  if (p.window_size > 1024) {
    fail(ErrorKind::kInvalidInput, line_of("windowsize"), ": windowsize=", p.window_size,
         " is implausible (WebGraph uses small windows, default 7; at most 1024 accepted)");
  }
  if (p.min_interval_length == 1) {
    fail(ErrorKind::kInvalidInput, line_of("minintervallength"),
         ": minintervallength=1 is not a valid BVGraph parameter (expected 0 = no intervals, or "
         ">= 2)");
  }
  if (auto it = props.find("version"); it != props.end() && it->second.text != "0") {
    fail(ErrorKind::kInvalidInput, line_of("version"), ": version=", it->second.text,
         ": only BVGraph format version 0 (big-endian, Java WebGraph) is supported");
  }
  if (auto it = props.find("endianness"); it != props.end() && it->second.text != "big") {
    fail(ErrorKind::kInvalidInput, line_of("endianness"), ": endianness=", it->second.text,
         ": only big-endian BVGraph bit streams are supported");
  }
  if (auto it = props.find("graphclass"); it != props.end()) {
    const std::string& c = it->second.text;
    if (c != "it.unimi.dsi.webgraph.BVGraph" && c != "it.unimi.dsi.big.webgraph.BVGraph" &&
        c != "BVGraph") {
      fail(ErrorKind::kInvalidInput, line_of("graphclass"), ": graphclass=", c,
           ": not a BVGraph (expected it.unimi.dsi.webgraph.BVGraph)");
    }
  }
  unsigned k_from_names = 0;
  if (auto it = props.find("compressionflags"); it != props.end()) {
    const std::string where = line_of("compressionflags");
    std::string_view flags = it->second.text;
    while (!flags.empty()) {
      const std::size_t bar = flags.find('|');
      std::string_view flag = trim(flags.substr(0, bar));
      flags = bar == std::string_view::npos ? std::string_view() : flags.substr(bar + 1);
      if (flag.empty()) continue;
      struct Component {
        const char* prefix;
        BvCode* target;
      };
      BvCode offsets_code = BvCode::kGamma;
      const Component components[] = {
          {"OUTDEGREES_", &p.codes.outdegrees},
          {"REFERENCES_", &p.codes.references},
          {"BLOCK_COUNT_", &p.codes.block_count},
          {"BLOCKS_", &p.codes.blocks},
          {"INTERVALS_", &p.codes.intervals},
          {"RESIDUALS_", &p.codes.residuals},
          {"OFFSETS_", &offsets_code},
      };
      bool known = false;
      for (const auto& c : components) {
        const std::string_view prefix = c.prefix;
        if (flag.substr(0, prefix.size()) == prefix) {
          *c.target = parse_code(flag.substr(prefix.size()), &k_from_names,
                                 cat(where, ": flag '", flag, "'"));
          known = true;
          break;
        }
      }
      if (!known) {
        fail(ErrorKind::kInvalidInput, where, ": unknown compression flag '", flag,
             "' (expected OUTDEGREES_, REFERENCES_, BLOCKS_, BLOCK_COUNT_, INTERVALS_, "
             "RESIDUALS_ or OFFSETS_ followed by a code name)");
      }
    }
  }
  const std::uint64_t k = number(props, "zetak", name, false, k_from_names ? k_from_names : 3);
  if (k < 1 || k > 32)
    fail(ErrorKind::kInvalidInput, line_of("zetak"), ": zetak=", k, ": expected 1..32");
  if (k_from_names && props.count("zetak") && k != k_from_names) {
    fail(ErrorKind::kInvalidInput, line_of("zetak"), ": zetak=", k, " conflicts with ZETA",
         k_from_names, " in compressionflags");
  }
  p.codes.zeta_k = static_cast<unsigned>(k);
  return p;
}

BvProperties read_bv_properties(const std::string& path) {
  // A .properties file is a few hundred bytes; one of megabytes is not one.
  constexpr std::uint64_t kMaxBytes = 1 << 20;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    fail(ErrorKind::kNotFound, path, ": no such file (a BVGraph needs BASENAME.properties)");
  }
  bool truncated = false;
  const std::string text = read_file_prefix(path, kMaxBytes, &truncated);
  if (truncated) {
    fail(ErrorKind::kInvalidInput, path, ": longer than ", kMaxBytes >> 20,
         " MiB: not a BVGraph .properties file");
  }
  return parse_bv_properties(text, path);
}

}  // namespace webrank
