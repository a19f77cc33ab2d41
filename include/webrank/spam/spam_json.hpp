// The JSON form of the spam layer's report.
// One of the per-layer JSON headers that webrank/json.hpp gathers (why, and conventions, there).
#pragma once

#include "webrank/spam/spam.hpp"
#include "webrank/util/json_text.hpp"

namespace webrank {

// Spam farms: the report, with page ids (front ends add labels): {"candidates", "used_trust",
// "seconds", "farms": [{"target", "pagerank", "scaled_pagerank", "farm_share", "relative_mass"
// (with trust), "score", "structure": {...}, "supporters": [...], "allied_targets": [...]}]}.
void to_json(nlohmann::json& j, const FarmStructure& s);
void to_json(nlohmann::json& j, const SpamFarm& f);
void to_json(nlohmann::json& j, const SpamReport& r);

}  // namespace webrank
