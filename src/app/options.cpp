// Option declarations: values checked against their specs, in the words every front end shows
// (webrank/app/options.hpp).
#include "webrank/app/options.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstdlib>

#include "webrank/util/units.hpp"

namespace webrank::app {
namespace {

// 0.85, 1e-10, 1000: the shortest text that reads back as x.
std::string show(double x) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, x).ptr;
  return std::string(text, end);
}

// Levenshtein distance, for suggestions; names are short.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = up;
    }
  }
  return row[b.size()];
}

bool is_whole(const OptionSpec& spec) {
  return spec.type == ValueType::kWhole || spec.type == ValueType::kWholes;
}

bool shows_high(const Range& r) {
  return std::isfinite(r.high) && r.high < static_cast<double>(INT_MAX);
}

std::string excerpt(std::string_view text) {
  return std::string(text.substr(0, 64));
}

// A number's value checked against `spec`: "must be a whole number >= 1, got 1.5".
void check_number(const OptionSpec& spec, double x, const std::string& shown) {
  const bool whole = is_whole(spec);
  const Range& r = spec.range;
  if (std::isinf(x))
    fail_option(spec.name, "must be a finite number ", r.describe(), ", got ", shown);
  const bool whole_ok = !whole || x == std::floor(x);
  const bool high_ok = r.high_open ? x < r.high : x <= r.high;
  if (!high_ok && !shows_high(r))
    fail_option(spec.name, "must be ", r.high_open ? "< " : "<= ", show(r.high), ", got ", shown);
  if (!whole_ok || !r.contains(x)) {
    fail_option(spec.name, "must be ", whole ? "a whole number " : "", r.describe(), ", got ",
                shown);
  }
}

double number_from_text(const OptionSpec& spec, std::string_view text) {
  const std::string s(text);
  errno = 0;
  char* end = nullptr;
  const double x = std::strtod(s.c_str(), &end);
  const bool whole = is_whole(spec);
  if (s.empty() || end != s.c_str() + s.size() || std::isnan(x)) {
    fail_option(spec.name, "must be ", whole ? "a whole number" : "a number", " ",
                spec.range.describe(), ", got '", excerpt(text), "' (not a number)");
  }
  if (errno == ERANGE && std::isinf(x))
    fail_option(spec.name, "must be a finite number ", spec.range.describe(), ", got ", s);
  check_number(spec, x, s);
  return x;
}

std::string choices_text(const OptionSpec& spec) {
  std::string out;
  for (const auto& c : spec.choices) out += (out.empty() ? "" : ",") + c;
  return "{" + out + "}";
}

}  // namespace

const char* to_string(ValueType type) {
  switch (type) {
    case ValueType::kFlag:
      return "flag";
    case ValueType::kWhole:
      return "whole";
    case ValueType::kNumber:
      return "number";
    case ValueType::kText:
      return "text";
    case ValueType::kChoice:
      return "choice";
    case ValueType::kTexts:
      return "texts";
    case ValueType::kWholes:
      return "wholes";
    case ValueType::kSize:
      return "size";
    case ValueType::kWeights:
      return "weights";
    case ValueType::kBatch:
      return "batch";
  }
  return "?";
}

void check_served(const OptionSpec& spec, const nlohmann::json& value) {
  if (value.is_array()) {
    if (spec.served_values > 0 && value.size() > spec.served_values) {
      fail_option(spec.name, "takes at most ", spec.served_values, " values on a server, got ",
                  value.size());
    }
    for (const auto& v : value) check_served(spec, v);
    return;
  }
  if (!value.is_number()) return;
  const double x = value.get<double>();
  if (!spec.served.contains(x)) {
    fail_option(spec.name, "must be ", spec.served.describe(), " on a server, got ",
                value.is_number_float() ? show(x) : value.dump());
  }
}

std::string Range::describe() const {
  const bool has_low = std::isfinite(low);
  if (!has_low && !shows_high(*this)) return "";
  if (!shows_high(*this)) return cat(low_open ? "> " : ">= ", show(low));
  if (!low_open && !high_open) return cat("in [", show(low), ", ", show(high), "]");
  return cat("in ", low_open ? "(" : "[", show(low), ", ", show(high), high_open ? ")" : "]");
}

bool Range::contains(double x) const {
  return (low_open ? x > low : x >= low) && (high_open ? x < high : x <= high);
}

Range positive() {
  return {.low = 0, .low_open = true};
}
Range at_least(double low) {
  return {.low = low};
}
Range closed(double low, double high) {
  return {.low = low, .high = high};
}
Range half_open(double low, double high) {
  return {.low = low, .high = high, .high_open = true};
}
Range open_closed(double low, double high) {
  return {.low = low, .low_open = true, .high = high};
}

std::string OptionSpec::flag() const {
  if (name.size() == 1) return std::string("-") + name;
  std::string out = "--";
  for (char c : name) out += c == '_' ? '-' : c;
  return out;
}

std::optional<std::string> nearest_name(std::string_view word, std::span<const std::string> names) {
  std::optional<std::string> best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (const auto& name : names) {
    const std::size_t d = edit_distance(word, name);
    if (d < best_distance) {
      best_distance = d;
      best = name;
    }
  }
  return best;
}

const OptionSpec& find_option(std::span<const OptionSpec> specs, std::string_view name,
                              std::string_view what) {
  for (const OptionSpec& s : specs) {
    if (s.name == name) return s;
    if (std::find(s.aliases.begin(), s.aliases.end(), name) != s.aliases.end()) return s;
  }
  std::vector<std::string> names;
  for (const OptionSpec& s : specs) names.push_back(s.name);
  const auto guess = nearest_name(name, names);
  fail(ErrorKind::kInvalidArgument, what, ": unknown option '", excerpt(name), "'",
       guess ? "; did you mean '" + *guess + "'?" : "");
}

nlohmann::json parse_text(const OptionSpec& spec, std::string_view text) {
  switch (spec.type) {
    case ValueType::kFlag:
      if (text == "true" || text == "1" || text == "yes" || text == "on") return true;
      if (text == "false" || text == "0" || text == "no" || text == "off" || text.empty())
        return false;
      fail_option(spec.name, "must be true or false, got '", excerpt(text), "'");
    case ValueType::kWhole:
    case ValueType::kWholes: {
      const double x = number_from_text(spec, text);
      if (x < 0) return static_cast<std::int64_t>(x);
      return static_cast<std::uint64_t>(x);
    }
    case ValueType::kNumber:
      return number_from_text(spec, text);
    case ValueType::kChoice:
      if (std::find(spec.choices.begin(), spec.choices.end(), text) == spec.choices.end())
        fail_option(spec.name, excerpt(text), " not in ", choices_text(spec));
      return std::string(text);
    case ValueType::kSize: {
      const auto bytes = parse_memory_size(std::string(text));
      if (!bytes) {
        fail_option(spec.name,
                    "not a size: expected bytes or a number with K, M, G or T (e.g. 4G, 512M), "
                    "got '",
                    excerpt(text), "'");
      }
      return *bytes;
    }
    case ValueType::kText:
    case ValueType::kTexts:
      // Texts of a few values (crawl-order's --order) are checked as choices are.
      if (!spec.choices.empty() &&
          std::find(spec.choices.begin(), spec.choices.end(), text) == spec.choices.end())
        fail_option(spec.name, excerpt(text), " not in ", choices_text(spec));
      return std::string(text);
    case ValueType::kWeights:  // a file
    case ValueType::kBatch:
      return std::string(text);
  }
  return nullptr;
}

nlohmann::json check_value(const OptionSpec& spec, const nlohmann::json& given) {
  const auto wrong = [&](const char* expected) {
    throw Error(ErrorKind::kInvalidType,
                cat("must be ", expected, ", got ", given.type_name(), " ", excerpt(given.dump())),
                spec.name);
  };
  switch (spec.type) {
    case ValueType::kFlag:
      if (!given.is_boolean()) wrong("true or false");
      return given;
    case ValueType::kWhole:
    case ValueType::kNumber: {
      if (!given.is_number()) wrong(spec.type == ValueType::kWhole ? "a whole number" : "a number");
      const double x = given.get<double>();
      if (std::isnan(x))
        fail_option(spec.name, "must be a number ", spec.range.describe(), ", got nan");
      check_number(spec, x, given.dump());
      if (spec.type == ValueType::kNumber) return x;
      if (x < 0) return static_cast<std::int64_t>(x);
      return static_cast<std::uint64_t>(x);
    }
    case ValueType::kChoice:
    case ValueType::kSize:
      if (spec.type == ValueType::kSize && given.is_number_unsigned()) return given;
      if (!given.is_string()) wrong(spec.type == ValueType::kSize ? "a size" : "a string");
      return parse_text(spec, given.get<std::string>());
    case ValueType::kText:
      if (!given.is_string()) wrong("a string");
      return parse_text(spec, given.get<std::string>());
    case ValueType::kTexts: {
      if (given.is_string())
        return nlohmann::json::array({parse_text(spec, given.get<std::string>())});
      if (!given.is_array()) wrong("a list of strings");
      for (const auto& item : given) {
        if (!item.is_string()) wrong("a list of strings");
        (void)parse_text(spec, item.get<std::string>());
      }
      return given;
    }
    case ValueType::kWholes: {
      const nlohmann::json list = given.is_array() ? given : nlohmann::json::array({given});
      nlohmann::json out = nlohmann::json::array();
      OptionSpec one = spec;
      one.type = ValueType::kWhole;
      for (const auto& item : list) out.push_back(check_value(one, item));
      return out;
    }
    case ValueType::kWeights:
      // A file (a string), labels (strings), {label: weight} or one number per page.
      if (!given.is_string() && !given.is_object() && !given.is_array())
        wrong("a file, a list of pages, {page: weight} or one weight per page");
      return given;
    case ValueType::kBatch: {
      // A file, or its lines: [[NAME, PAGE...], ...].
      if (given.is_string()) return given;
      if (!given.is_array() || given.empty()) wrong("a file or a list of [NAME, PAGE...] lines");
      for (const auto& line : given) {
        if (!line.is_array() || line.empty()) wrong("a file or a list of [NAME, PAGE...] lines");
        for (const auto& field : line) {
          if (!field.is_string()) wrong("a file or a list of [NAME, PAGE...] lines");
        }
      }
      return given;
    }
  }
  return given;
}

namespace detail {

WeightsValue Field<WeightsValue>::set(const nlohmann::json& j) {
  WeightsValue w;
  if (j.is_string()) {
    w.file = j.get<std::string>();
  } else if (j.is_object()) {
    for (const auto& [label, weight] : j.items()) {
      if (!weight.is_number())
        fail(ErrorKind::kInvalidArgument, "weight of '", label, "' is not a number");
      w.labels.emplace_back(label, weight.get<double>());
    }
  } else if (!j.empty() && j.front().is_string()) {
    for (const auto& label : j) w.labels.emplace_back(label.get<std::string>(), 1.0);
  } else {
    w.dense = j.get<std::vector<double>>();
  }
  return w;
}

BatchValue Field<BatchValue>::set(const nlohmann::json& j) {
  BatchValue b;
  if (j.is_string()) {
    b.file = j.get<std::string>();
  } else {
    b.lines = j.get<std::vector<std::vector<std::string>>>();
  }
  return b;
}

}  // namespace detail

}  // namespace webrank::app
