#include "operation_routes.hpp"

#include <algorithm>
#include <map>

#include "webrank/util/error.hpp"

namespace webrank::serve {
namespace {

// An option offered over HTTP, named as its parameter.
struct Offered {
  app::OptionSpec spec;  // named as the parameter
  std::string option;    // the option's own name
};

// The options each served operation offers over HTTP: made once, read by every request.
const std::vector<Offered>& offered_by(const app::Operation& op) {
  static const auto table = [] {
    std::map<const app::Operation*, std::vector<Offered>> t;
    for (const app::Operation& o : app::operations()) {
      std::vector<Offered>& offered = t[&o];
      for (const app::OptionSpec& spec : o.options) {
        if (!(spec.fronts & app::kHttp)) continue;
        app::OptionSpec shown = spec;
        if (!spec.http_name.empty()) shown.name = spec.http_name;
        offered.push_back({std::move(shown), spec.name});
      }
    }
    return t;
  }();
  return table.at(&op);
}

bool names(const app::OptionSpec& spec, std::string_view name) {
  return spec.name == name ||
         std::find(spec.aliases.begin(), spec.aliases.end(), name) != spec.aliases.end();
}

}  // namespace

std::vector<nlohmann::json> operation_params(std::span<const app::Operation* const> ops,
                                             const HttpRequest& request) {
  std::vector<nlohmann::json> values(ops.size(), nlohmann::json::object());
  for (const auto& [name, text] : request.params()) {
    bool taken = false;
    nlohmann::json value;
    for (std::size_t i = 0; i < ops.size(); ++i) {
      for (const Offered& o : offered_by(*ops[i])) {
        if (!names(o.spec, name)) continue;
        if (!taken) value = app::parse_text(o.spec, text);
        taken = true;
        nlohmann::json& into = values[i];
        if (o.spec.type == app::ValueType::kTexts || o.spec.type == app::ValueType::kWholes) {
          if (!into.contains(o.option)) into[o.option] = nlohmann::json::array();
          into[o.option].push_back(value);
        } else {
          if (into.contains(o.option)) fail_option(name, "is given twice");
          into[o.option] = value;
        }
      }
    }
    if (taken) continue;
    // No operation takes it: the error names the nearest parameter they do take.
    std::vector<app::OptionSpec> specs;
    std::string where;
    for (const app::Operation* op : ops) {
      where += (where.empty() ? "/api/v1/op/" : ", /api/v1/op/") + op->name;
      for (const Offered& o : offered_by(*op)) specs.push_back(o.spec);
    }
    app::find_option(specs, name, where);
  }
  // The server's bounds on what one request may cost (docs/serve.md, "Bounds").
  for (std::size_t i = 0; i < ops.size(); ++i) {
    for (const Offered& o : offered_by(*ops[i])) {
      if (values[i].contains(o.option)) app::check_served(o.spec, values[i][o.option]);
    }
  }
  return values;
}

nlohmann::json operation_params(const app::Operation& op, const HttpRequest& request) {
  const app::Operation* one[] = {&op};
  return std::move(operation_params(one, request).front());
}

std::vector<std::string> operation_paths() {
  std::vector<std::string> paths;
  for (const app::Operation& op : app::operations()) {
    if (op.served) paths.push_back("/api/v1/op/" + op.name);
  }
  return paths;
}

}  // namespace webrank::serve
