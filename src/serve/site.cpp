#include "site.hpp"

#include <algorithm>

namespace webrank::serve {

void Site::add_defaults(const app::Operation& op, nlohmann::json& values) const {
  if (!ranks_named || values.contains("ranks")) return;
  const bool takes = std::any_of(op.options.begin(), op.options.end(), [](const auto& s) {
    return s.name == "ranks" && (s.fronts & app::kHttp);
  });
  if (takes) values["ranks"] = ranks;
}

app::Run Site::run(const HttpRequest& request) const {
  app::Run one;
  one.threads = 1;
  one.stop = request.stop;
  return one;
}

std::shared_ptr<const app::StatusResult> Site::update_status() {
  auto now = std::make_shared<const app::StatusResult>(
      call<app::StatusResult>("status", nlohmann::json::object(), HttpRequest{}));
  status_.store(now);
  return now;
}

}  // namespace webrank::serve
