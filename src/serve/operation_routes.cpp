#include "operation_routes.hpp"

#include "webrank/util/error.hpp"

namespace webrank::serve {
namespace {

// An option offered over HTTP, under its parameter's name, and which operation declares it.
struct Offered {
  app::OptionSpec spec;  // named as the parameter
  std::string option;    // the option's own name
  std::size_t op;        // index in the operations
};

}  // namespace

std::vector<nlohmann::json> operation_params(std::span<const app::Operation* const> ops,
                                             const HttpRequest& request) {
  std::vector<Offered> offered;
  std::vector<app::OptionSpec> specs;  // of `offered`, for find_option
  std::string where;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    where += (where.empty() ? "/api/v1/op/" : ", /api/v1/op/") + ops[i]->name;
    for (const app::OptionSpec& spec : ops[i]->options) {
      if (!(spec.fronts & app::kHttp)) continue;
      app::OptionSpec shown = spec;
      if (!spec.http_name.empty()) shown.name = spec.http_name;
      offered.push_back({shown, spec.name, i});
      specs.push_back(std::move(shown));
    }
  }
  std::vector<nlohmann::json> values(ops.size(), nlohmann::json::object());
  for (const auto& [name, text] : request.params()) {
    const app::OptionSpec& found = app::find_option(specs, name, where);
    bool parsed = false;
    nlohmann::json value;
    for (const Offered& o : offered) {
      if (o.spec.name != found.name) continue;
      if (!parsed) {
        value = app::parse_text(o.spec, text);
        parsed = true;
      }
      nlohmann::json& into = values[o.op];
      if (o.spec.type == app::ValueType::kTexts || o.spec.type == app::ValueType::kWholes) {
        if (!into.contains(o.option)) into[o.option] = nlohmann::json::array();
        into[o.option].push_back(value);
      } else {
        if (into.contains(o.option)) fail_option(name, "is given twice");
        into[o.option] = value;
      }
    }
  }
  // The server's bounds on what one request may cost (docs/serve.md, "Bounds").
  for (const Offered& o : offered) {
    if (values[o.op].contains(o.option)) app::check_served(o.spec, values[o.op][o.option]);
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
