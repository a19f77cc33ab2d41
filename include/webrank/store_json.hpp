// The JSON form of the store layer's reports.
// Declared per layer so its implementation (src/LAYER/NAME_json.cpp) sees only its own structs
// and those below it; front ends include webrank/json.hpp, which gathers every layer's
// (conventions there).
#pragma once

#include "webrank/json_text.hpp"
#include "webrank/summary.hpp"

namespace webrank {

// Database statistics (`webrank info --json`).
void to_json(nlohmann::json& j, const DegreeStats& s);
void to_json(nlohmann::json& j, const CrawlStats& s);
void to_json(nlohmann::json& j, const RankVectorSummary& s);
void to_json(nlohmann::json& j, const DatabaseSummary& s);

}  // namespace webrank
