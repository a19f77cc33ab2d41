// The JSON form of the build layer's reports.
// One of the per-layer JSON headers that webrank/json.hpp gathers (why, and conventions, there).
#pragma once

#include "webrank/util/json_text.hpp"
#include "webrank/writer/database_writer.hpp"

namespace webrank {

// Building: {"stage", "bytes", "total"}; the report.
void to_json(nlohmann::json& j, const BuildProgress& p);
void to_json(nlohmann::json& j, const BuildReport& r);

}  // namespace webrank
