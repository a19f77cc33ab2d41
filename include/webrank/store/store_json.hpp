// The JSON form of the store layer's reports.
// One of the per-layer JSON headers that webrank/json.hpp gathers (why, and conventions, there).
#pragma once

#include "webrank/store/summary.hpp"
#include "webrank/store/vector_record.hpp"
#include "webrank/util/json_text.hpp"

namespace webrank {

// Database statistics (`webrank info --json`).
void to_json(nlohmann::json& j, const DegreeStats& s);
void to_json(nlohmann::json& j, const CrawlStats& s);
void to_json(nlohmann::json& j, const RankVectorSummary& s);
void to_json(nlohmann::json& j, const DatabaseSummary& s);
// A stored vector's record: the form of ranks/NAME.json (docs/format.md, "Rank vectors"),
// written beside its reader (src/store/vector_record.cpp).
void to_json(nlohmann::json& j, const VectorRecord& r);

}  // namespace webrank
