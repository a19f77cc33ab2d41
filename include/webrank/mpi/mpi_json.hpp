// The JSON form of the dist layer's report.
// One of the per-layer JSON headers that webrank/json.hpp gathers (why, and conventions, there).
#pragma once

#include "webrank/mpi/distributed.hpp"
#include "webrank/util/json_text.hpp"

namespace webrank {

// Partitioning: {"pages", "links", "parts": [{"first_page", "pages", "links", "remote_pages"}],
// "seconds"}.
void to_json(nlohmann::json& j, const PartitionReport& r);
// {"stage": "partition", "parts_written", "parts"}.
void to_json(nlohmann::json& j, const PartitionProgress& p);

}  // namespace webrank
