// The JSON form of `update`'s progress and report (the ingest layer).
// Declared per layer so its implementation (src/LAYER/NAME_json.cpp) sees only its own structs
// and those below it; front ends include webrank/json.hpp, which gathers every layer's
// (conventions there).
#pragma once

#include "webrank/json_text.hpp"
#include "webrank/update.hpp"

namespace webrank {

// Updating: {"stage", "bytes", "total"}; the report.
void to_json(nlohmann::json& j, const UpdateProgress& p);
void to_json(nlohmann::json& j, const UpdateReport& r);

}  // namespace webrank
