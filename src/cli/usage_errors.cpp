// Usage errors the way a user reads them: an unknown command or flag named with the nearest one
// that exists (CLI11 2.1 says only "A subcommand is required" or "arguments were not expected").
// Values are checked against their declarations (app::parse_text, in command.cpp).
#include <algorithm>
#include <cstdlib>

#include "command.hpp"
#include "common.hpp"
#include "webrank/app/options.hpp"

namespace webrank::cli {
namespace {

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

// Words past a command's positional arguments, in the order given (CLI11's message reverses them),
// with what the command takes and, when it has an option taking a list, that option with the
// words as its list: `compare DB pagerank vac` meant `--views pagerank,vac`.
std::string explain_extras(const CLI::App& app, const CLI::App& command) {
  const std::vector<std::string> extras = app.remaining(true);
  std::string words, list, takes;
  for (const std::string& w : extras) {
    words += " '" + w + "'";
    list += (list.empty() ? "" : ",") + w;
  }
  std::string hint;
  for (const CLI::Option* opt : command.get_options()) {
    if (opt->get_positional()) {
      takes += (takes.empty() ? "" : " ") + opt->get_name(true);
    } else if (hint.empty() && opt->get_delimiter() == ',' && opt->get_expected_max() > 1 &&
               !opt->get_lnames().empty()) {
      hint = cat("; did you mean '--", opt->get_lnames().front(), " ", list, "'?");
    }
  }
  return cat("unexpected argument", extras.size() == 1 ? "" : "s", words, " for 'webrank ",
             command.get_name(), "'", takes.empty() ? "" : " (it takes " + takes + ")", hint,
             " (webrank ", command.get_name(), " --help lists the options)");
}

}  // namespace

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
    const auto guess = app::nearest_name(word, commands);
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
    const auto guess = app::nearest_name(name, known);
    return cat("unknown option '", name, "' for 'webrank ", command->get_name(), "'",
               guess ? "; did you mean '" + *guess + "'?" : "", " (webrank ", command->get_name(),
               " --help lists the options)");
  }
  // (CLI11 names an ExtrasError after the command that threw it, hence the cast.)
  if (dynamic_cast<const CLI::ExtrasError*>(&e)) return explain_extras(app, *command);
  return e.what();
}

}  // namespace webrank::cli
