// The JSON form of the build layer's reports.
// Declared per layer so its implementation (src/LAYER/NAME_json.cpp) sees only its own structs
// and those below it; front ends include webrank/json.hpp, which gathers every layer's
// (conventions there).
#pragma once

#include "webrank/build.hpp"
#include "webrank/json_text.hpp"

namespace webrank {

// Building: {"stage", "bytes", "total"}; the report.
void to_json(nlohmann::json& j, const BuildProgress& p);
void to_json(nlohmann::json& j, const BuildReport& r);

}  // namespace webrank
