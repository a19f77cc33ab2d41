// The app layer's served operations (webrank/app/operation.hpp, `served`) as JSON endpoints:
// /api/v1/op/NAME for every one, and /api/v1/NAME for those without an endpoint of their own.
// Their query parameters are the operations' declared options (a declaration's http name where
// it has one), parsed and checked as the command line's flags are, so that a request answers
// exactly what `webrank NAME --json` prints (tests/cli/test_parity.py).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "http.hpp"
#include "webrank/app/operation.hpp"

namespace webrank::serve {

// The options of `op` given by `request`'s query parameters, as the JSON Operation::run takes.
// Throws Error(kInvalidArgument) naming a parameter the operation does not take over HTTP (the
// nearest one it does take, if any), a value it refuses, or a cost above the server's bounds
// (k above kServeMaxResults, offset above kMaxOffset).
nlohmann::json operation_params(const app::Operation& op, const HttpRequest& request);

// The paths the served operations answer at, for the API's index.
std::vector<std::string> operation_paths();

}  // namespace webrank::serve
