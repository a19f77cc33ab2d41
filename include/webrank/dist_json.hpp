// The JSON form of the dist layer's report.
// Declared per layer so its implementation (src/LAYER/NAME_json.cpp) sees only its own structs
// and those below it; front ends include webrank/json.hpp, which gathers every layer's
// (conventions there).
#pragma once

#include "webrank/dist.hpp"
#include "webrank/json_text.hpp"

namespace webrank {

// Partitioning: {"pages", "links", "parts": [{"first_page", "pages", "links", "remote_pages"}],
// "seconds"}.
void to_json(nlohmann::json& j, const PartitionReport& r);

}  // namespace webrank
