// to_json(Error) (webrank/json.hpp).
#include "webrank/json.hpp"

namespace webrank {

void to_json(nlohmann::json& j, const Error& e) {
  j = {{"kind", to_string(e.kind())}, {"message", e.what()}};
  if (!e.field().empty()) j["field"] = e.field();
}

}  // namespace webrank
