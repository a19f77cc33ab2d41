// The JSON form of `update`'s progress and report (the ingest layer).
// One of the per-layer JSON headers that webrank/json.hpp gathers (why, and conventions, there).
#pragma once

#include "webrank/ingest/update.hpp"
#include "webrank/util/json_text.hpp"

namespace webrank {

// Updating: {"stage", "bytes", "total"}; the report.
void to_json(nlohmann::json& j, const UpdateProgress& p);
void to_json(nlohmann::json& j, const UpdateReport& r);

}  // namespace webrank
