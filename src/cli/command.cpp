// Every command of the table (command.hpp), made from its operation's declarations: flags and
// positionals with their help, type, range and default; the run flags; then, when it runs, the
// database opened, progress shown, interrupts armed, the result printed as JSON or text, and the
// exit status set from the notices.
#include "command.hpp"

#include <cstdio>
#include <memory>

#include "common.hpp"
#include "interrupts.hpp"
#include "progress_line.hpp"
#include "progress_text.hpp"
#include "webrank/app/app_json.hpp"

namespace webrank::cli {
namespace {

// How a spec's value shows in --help: FLOAT:in [0, 1], UINT:>= 1, TEXT:{a,b}, SIZE, FILE.
std::string type_name(const app::OptionSpec& s) {
  using app::ValueType;
  const std::string range = s.range.describe();
  const auto with_range = [&](const char* t) {
    return range.empty() ? std::string(t) : cat(t, ":", range);
  };
  switch (s.type) {
    case ValueType::kWhole:
    case ValueType::kWholes:
      return with_range(s.range.low >= 0 ? "UINT" : "INT");
    case ValueType::kNumber:
      return with_range("FLOAT");
    case ValueType::kChoice: {
      std::string c;
      for (const auto& x : s.choices) c += (c.empty() ? "" : ",") + x;
      return "TEXT:{" + c + "}";
    }
    case ValueType::kSize:
      return "SIZE";
    case ValueType::kFlag:
      return "";
    default:
      return s.value_name.empty() ? "TEXT" : s.value_name;
  }
}

std::string default_text(const nlohmann::json& d) {
  if (d.is_null()) return "";
  if (d.is_string()) return d.get<std::string>();
  if (d.is_number_float()) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", d.get<double>());
    return text;
  }
  if (d.is_array()) {
    std::string out;
    for (const auto& x : d)
      out += (out.empty() ? "" : " ") + (x.is_string() ? x.get<std::string>() : x.dump());
    return out;
  }
  return d.dump();
}

// An error of the library about an option's value, in CLI11's words for a bad value (it puts
// the flag before them): the detail, options named by their flags.
std::string detail_of(const Error& e) {
  return Error(e.kind(), e.detail()).message(flag_name);
}

}  // namespace

// The text a CLI11 option collected, one value per element.
struct Slot {
  app::OptionSpec spec;
  std::vector<std::string> values;  // of a list
  std::string value;                // of one value
  CLI::Option* option = nullptr;
  bool negated = false;  // --no-NAME of a flag that defaults to true
};

namespace {

// The CLI11 option of `spec` (a flag, an option or a positional), collecting into `slot`.
CLI::Option* add_spec(CLI::App* cmd, Slot& slot) {
  const app::OptionSpec& s = slot.spec;
  using app::ValueType;
  const bool list = s.type == ValueType::kTexts || s.type == ValueType::kWholes;
  std::string names;
  if (s.position >= 0) {
    names = s.value_name.empty() ? s.name : s.value_name;
    for (char& c : names) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  } else {
    names = s.flag();
    if (s.short_name) names = std::string("-") + s.short_name + "," + names;
  }
  CLI::Option* o = nullptr;
  if (s.type == ValueType::kFlag) {
    if (s.default_value == true) {
      slot.negated = true;
      const std::string help = "Turn off (on by default): " + s.help;
      o = cmd->add_flag("--no-" + s.flag().substr(2), help);
    } else {
      o = cmd->add_flag(names, s.help);
    }
    return slot.option = o;
  }
  o = list ? cmd->add_option(names, slot.values, s.help)
           : cmd->add_option(names, slot.value, s.help);
  if (list && s.position < 0) o->allow_extra_args(false);
  if (list && s.delimiter) o->delimiter(s.delimiter);
  const std::string t = type_name(s);
  if (!t.empty()) o->type_name(t);
  if (!s.required && !list) o->default_str(default_text(s.default_value));
  if (s.required) o->required();
  const app::OptionSpec spec = s;
  o->check(CLI::Validator(
      [spec](std::string& text) -> std::string {
        try {
          (void)app::parse_text(spec, text);
        } catch (const Error& e) {
          return detail_of(e);
        }
        return "";
      },
      ""));
  return slot.option = o;
}

// The options given, as the operation takes them: {name: value}.
nlohmann::json given_options(const std::vector<std::unique_ptr<Slot>>& slots) {
  nlohmann::json given = nlohmann::json::object();
  for (const auto& slot : slots) {
    const app::OptionSpec& s = slot->spec;
    if (!slot->option || slot->option->count() == 0) continue;
    if (s.type == app::ValueType::kFlag) {
      given[s.name] = !slot->negated;
      continue;
    }
    if (s.type == app::ValueType::kTexts || s.type == app::ValueType::kWholes) {
      nlohmann::json list = nlohmann::json::array();
      for (const auto& v : slot->values) list.push_back(app::parse_text(s, v));
      given[s.name] = list;
    } else {
      given[s.name] = app::parse_text(s, slot->value);
    }
  }
  return given;
}

}  // namespace

void print_notices(const app::Notices& n, bool quiet) {
  if (!quiet) {
    for (const auto& s : n.said) {
      std::fprintf(stderr, "%s\n", with_option_names(s, flag_name).c_str());
    }
  }
  for (const auto& w : n.warnings) {
    std::fprintf(stderr, "webrank: warning: %s\n", with_option_names(w, flag_name).c_str());
  }
  for (const auto& e : n.errors) {
    std::fprintf(stderr, "webrank: error: %s\n", with_option_names(e, flag_name).c_str());
  }
  if (!n.errors.empty()) exit_status() = kExitError;
  if (n.not_converged && exit_status() == kExitOk) exit_status() = kExitNotConverged;
}

std::string flag_name(std::string_view field) {
  // Options whose flag is not their field's name.
  if (field == "summation") return "--sweep";
  if (field == "k") return "-k";
  if (field == "query") return "QUERY";
  std::string flag = "--";
  for (char c : field) flag += c == '_' ? '-' : c;
  return flag;
}

nlohmann::json given_or(const Rendered& r, const std::string& name) {
  if (r.given.contains(name)) return r.given[name];
  for (const auto& s : r.op.options) {
    if (s.name == name) return s.default_value;
  }
  return nullptr;
}

DeclaredOptions::DeclaredOptions(CLI::App* cmd, const std::vector<app::OptionSpec>& specs) {
  for (const auto& s : specs) {
    slots_.push_back(std::make_unique<Slot>(Slot{s, {}, {}, nullptr, false}));
    add_spec(cmd, *slots_.back());
  }
  for (const auto& slot : slots_) {
    for (const auto& other : slot->spec.excludes) {
      for (const auto& o : slots_) {
        if (o->spec.name == other && o->option && slot->option) slot->option->excludes(o->option);
      }
    }
  }
}

DeclaredOptions::~DeclaredOptions() = default;

nlohmann::json DeclaredOptions::given() const {
  return given_options(slots_);
}

void add_run_flags(CLI::App* cmd, RunFlags& flags, bool verify) {
  cmd->add_flag("--json", flags.json, "Print the result as one JSON object");
  cmd->add_flag("-q,--quiet", flags.quiet, "Print nothing but errors and warnings");
  if (verify) {
    cmd->add_flag("--no-verify", flags.no_verify, "Skip checksum verification of the database");
  }
  add_progress_option(cmd, &flags.progress);
}

void add_command(CLI::App& app, const Command& command) {
  const app::Operation& op = app::find_operation(command.op);
  CLI::App* cmd = app.add_subcommand(op.name, op.summary);
  cmd->group(op.group);
  struct State {
    std::string db;
    std::unique_ptr<DeclaredOptions> options;
    RunFlags flags;
  };
  auto st = std::make_shared<State>();
  if (op.access != app::Access::kNone) {
    cmd->add_option("DB", st->db, command.db_help)->required();
  }
  std::vector<app::OptionSpec> specs;
  for (const auto& s : op.options) {
    if (s.fronts & app::kCli) specs.push_back(s);
  }
  std::stable_sort(specs.begin(), specs.end(), [](const auto& a, const auto& b) {
    return (a.position < 0 ? 1 << 20 : a.position) < (b.position < 0 ? 1 << 20 : b.position);
  });
  for (const auto& s : command.render_flags) specs.push_back(s);
  for (const auto& s : app::run_options()) {
    if (s.fronts & app::kCli) specs.push_back(s);
  }
  st->options = std::make_unique<DeclaredOptions>(cmd, specs);
  add_run_flags(cmd, st->flags, op.access != app::Access::kNone && op.verifies);

  cmd->callback([st, &op, command] {
    nlohmann::json given = st->options->given();
    for (const auto& s : command.render_flags) {
      if (!given.contains(s.name)) given[s.name] = s.default_value;
    }
    RunFlags flags = st->flags;
    if (command.before) command.before(given, flags);
    app::Run run;
    if (given.contains("threads")) run.threads = given["threads"].get<int>();
    nlohmann::json op_options = nlohmann::json::object();
    for (const auto& [key, value] : given.items()) {
      for (const auto& s : op.options) {
        if (s.name == key) op_options[key] = value;
      }
    }
    // --format json of commands whose --format is a render flag (search, links, explain).
    const bool format_json = std::any_of(
        command.render_flags.begin(), command.render_flags.end(),
        [&](const app::OptionSpec& s) { return s.name == "format" && given["format"] == "json"; });
    const bool json = flags.json || format_json;
    std::unique_ptr<app::Session> session;
    if (op.access != app::Access::kNone) {
      session = std::make_unique<app::Session>(
          st->db, app::Session::Options{.verify = op.verifies && !flags.no_verify});
    }
    ProgressLine line(flags.quiet ? ProgressMode::kNever : flags.progress);
    ProgressPrinter printer(op.name);
    if (line.active()) {
      const bool json_lines = flags.progress == ProgressMode::kJson;
      run.on_progress = [&line, &printer, json_lines](const app::Progress& p) {
        const ProgressText t = printer(p);
        line.update(t.text, json_text(app::progress_json(p), -1), t.always || json_lines);
      };
    }
    run.stop = arm_interrupts();
    run.unstoppable = [] { disarm_interrupts(); };
    const app::Output out = op.run(session.get(), op_options, run);
    disarm_interrupts();
    line.finish();
    if (json || !command.render) {
      std::printf("%s\n", json_text(out.json).c_str());
    } else {
      command.render(Rendered{op, out, session.get(), given, st->db, flags.quiet});
    }
    print_notices(out.notices, flags.quiet || json);
  });
}

}  // namespace webrank::cli
