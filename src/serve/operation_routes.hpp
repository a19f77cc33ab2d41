// The app layer's served operations (webrank/app/operation.hpp, `served`) as the server's
// parameters: a request's query parameters are the operations' declared options (a
// declaration's http name where it has one), parsed and checked as the command line's flags are,
// and held to the server's bounds declared with them (OptionSpec::served, served_values), so that
// a request answers exactly what `webrank NAME --json` prints (tests/cli/test_parity.py) and
// costs no more than the bounds allow.
#pragma once

#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "http.hpp"
#include "webrank/app/operation.hpp"

namespace webrank::serve {

// The options of `op` given by `request`'s query parameters, as the JSON Operation::run takes.
// Throws Error(kInvalidArgument) naming a parameter the operation does not take over HTTP (the
// nearest one it does take, if any), a value it refuses, or one past the server's bounds.
nlohmann::json operation_params(const app::Operation& op, const HttpRequest& request);

// The same for a page drawn from several operations: each parameter goes to every one of `ops`
// that declares it, and must be declared by one; one JSON object per operation, in order.
std::vector<nlohmann::json> operation_params(std::span<const app::Operation* const> ops,
                                             const HttpRequest& request);

// The paths the served operations answer at, for the API's index.
std::vector<std::string> operation_paths();

}  // namespace webrank::serve
