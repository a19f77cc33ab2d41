#include "operation_routes.hpp"

#include "webrank/search/search.hpp"
#include "webrank/serve/serve.hpp"
#include "webrank/util/error.hpp"

namespace webrank::serve {

nlohmann::json operation_params(const app::Operation& op, const HttpRequest& request) {
  // The options offered over HTTP, under their parameter names.
  std::vector<app::OptionSpec> offered;
  std::vector<std::string> names;  // the option's own name, by the index in `offered`
  for (const app::OptionSpec& spec : op.options) {
    if (!(spec.fronts & app::kHttp)) continue;
    app::OptionSpec shown = spec;
    if (!spec.http_name.empty()) shown.name = spec.http_name;
    offered.push_back(std::move(shown));
    names.push_back(spec.name);
  }
  const std::string where = "/api/v1/op/" + op.name;
  nlohmann::json values = nlohmann::json::object();
  for (const auto& [name, text] : request.params()) {
    const app::OptionSpec& spec = app::find_option(offered, name, where);
    const std::string& option = names[&spec - offered.data()];
    nlohmann::json value = app::parse_text(spec, text);
    if (spec.type == app::ValueType::kTexts || spec.type == app::ValueType::kWholes) {
      if (!values.contains(option)) values[option] = nlohmann::json::array();
      values[option].push_back(std::move(value));
    } else {
      if (values.contains(option)) fail_option(name, "is given twice");
      values[option] = std::move(value);
    }
  }
  // The server's bounds on what one request may cost (docs/serve.md).
  if (values.contains("k") && values["k"].is_number() &&
      values["k"].get<double>() > static_cast<double>(kServeMaxResults)) {
    fail_option("k", "must be at most ", kServeMaxResults, " on the server, got ", values["k"]);
  }
  if (values.contains("offset") && values["offset"].is_number() &&
      values["offset"].get<double>() > static_cast<double>(kMaxOffset)) {
    fail_option("offset", "must be at most ", kMaxOffset, " on the server, got ", values["offset"]);
  }
  return values;
}

std::vector<std::string> operation_paths() {
  std::vector<std::string> paths;
  for (const app::Operation& op : app::operations()) {
    if (op.served) paths.push_back("/api/v1/op/" + op.name);
  }
  return paths;
}

}  // namespace webrank::serve
