// Usage errors the way a user reads them: numeric options checked with the allowed range said in
// words ("must be > 0"), a value that is not a number called so, and an unknown command or flag
// named with the nearest one that exists (CLI11 2.1 says only "A subcommand is required" or
// "arguments were not expected").
#include <cerrno>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdlib>

#include "command.hpp"
#include "common.hpp"

namespace webrank::cli {
namespace {

// 0.85, 1e-10, 1000, 2147483647: the shortest text that reads back as x.
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

// The candidate nearest to `word`, if near enough to be what was meant.
std::optional<std::string> nearest(std::string_view word, const std::vector<std::string>& names) {
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

bool is_number(std::string_view s) {
  if (s.empty()) return false;
  const std::string text(s);
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size();
}

std::vector<std::string> flag_names(const CLI::App* app) {
  std::vector<std::string> names;
  for (const CLI::Option* opt : app->get_options()) {
    for (const auto& l : opt->get_lnames()) names.push_back("--" + l);
    for (const auto& s : opt->get_snames()) names.push_back("-" + s);
  }
  return names;
}

}  // namespace

CLI::Validator number_check(NumberRange range) {
  const std::string words = range.describe();
  return CLI::Validator(
      [range](std::string& text) -> std::string {
        errno = 0;
        char* end = nullptr;
        const double x = std::strtod(text.c_str(), &end);
        const bool parsed = !text.empty() && end == text.c_str() + text.size() && !std::isnan(x);
        if (!parsed) {
          return cat("must be ", range.whole ? "a whole number" : "a number", " ", range.describe(),
                     ", got '", text, "' (not a number)");
        }
        const bool whole_ok = !range.whole || (std::isfinite(x) && x == std::floor(x));
        const bool low_ok = range.low_open ? x > range.low : x >= range.low;
        const bool high_ok = range.high_open ? x < range.high : x <= range.high;
        if (errno == ERANGE || std::isinf(x)) {
          return cat("must be a finite number ", range.describe(), ", got ", text);
        }
        if (!high_ok && !range.shows_high()) {
          return cat("must be ", range.high_open ? "< " : "<= ", show(range.high), ", got ", text);
        }
        if (!whole_ok || !low_ok || !high_ok) {
          return cat("must be ", range.whole ? "a whole number " : "", range.describe(), ", got ",
                     text);
        }
        return std::string();
      },
      range.describe());
}

CLI::Validator memory_size_check() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        return parse_memory_size(text) ? std::string()
                                       : cat("not a size: expected bytes or a number with K, M, G "
                                             "or T (e.g. 4G, 512M), got '",
                                             text, "'");
      },
      "SIZE");
}

bool NumberRange::shows_high() const {
  return std::isfinite(high) && high < static_cast<double>(INT_MAX);
}

std::string NumberRange::describe() const {
  if (!shows_high()) return cat(low_open ? "> " : ">= ", show(low));
  if (!low_open && !high_open) return cat("in [", show(low), ", ", show(high), "]");
  return cat("in ", low_open ? "(" : "[", show(low), ", ", show(high), high_open ? ")" : "]");
}

NumberRange positive() {
  return {.low = 0, .low_open = true};
}
NumberRange non_negative() {
  return {.low = 0};
}
NumberRange whole_at_least(double low, double high) {
  return {.low = low, .high = high, .whole = true};
}

std::string explain_usage_error(const CLI::App& app, const CLI::ParseError& e, int argc,
                                char** argv) {
  std::vector<std::string> commands;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    commands.push_back(sub->get_name());
  }
  // The command: the first word that is not a flag of webrank itself.
  int at = 1;
  while (at < argc && argv[at][0] == '-') ++at;
  if (at >= argc) {
    std::string list;
    for (const auto& c : commands) list += (list.empty() ? "" : ", ") + c;
    return cat("a command is required: ", list, " (webrank --help says what each does)");
  }
  const std::string word = argv[at];
  const CLI::App* command = nullptr;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->check_name(word)) command = sub;
  }
  if (!command) {
    const auto guess = nearest(word, commands);
    return cat("unknown command '", word, "'", guess ? "; did you mean '" + *guess + "'?" : "",
               " (webrank --help lists the commands)");
  }
  // An unknown flag of that command, with the nearest known one.
  const std::vector<std::string> known = flag_names(command);
  const std::vector<std::string> global = flag_names(&app);
  for (int i = at + 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") break;
    if (arg.size() < 2 || arg[0] != '-' || is_number(arg)) continue;
    const std::string name(arg.substr(0, arg.find('=')));
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    if (std::find(global.begin(), global.end(), name) != global.end()) continue;
    const auto guess = nearest(name, known);
    return cat("unknown option '", name, "' for 'webrank ", command->get_name(), "'",
               guess ? "; did you mean '" + *guess + "'?" : "", " (webrank ", command->get_name(),
               " --help lists the options)");
  }
  return e.what();
}

}  // namespace webrank::cli
