// The JSON form of the report layer's data.
// One of the per-layer JSON headers that webrank/json.hpp gathers (why, and conventions, there).
#pragma once

#include "webrank/report/report.hpp"
#include "webrank/util/json_text.hpp"

namespace webrank {

// The report's data (`webrank report`; the JSON the chart code of web/src/charts.js draws).
void to_json(nlohmann::json& j, const PowerLawFit& f);
void to_json(nlohmann::json& j, const ReportData& r);
// {"id", "label", "vector", "value", "fraction" (null off the log axis), "in_degree",
// "out_degree"}: where a page stands in the report's charts.
void to_json(nlohmann::json& j, const ReportPage& p);

}  // namespace webrank
