// The JSON form of the crawl layer's progress and reports.
// One of the per-layer JSON headers that webrank/json.hpp gathers (why, and conventions, there).
#pragma once

#include "webrank/crawl/crawl.hpp"
#include "webrank/util/json_text.hpp"

namespace webrank {

// Crawling: progress {"stage": "crawl", ...}; the report, with the build's.
void to_json(nlohmann::json& j, const CrawlProgress& p);
void to_json(nlohmann::json& j, const CrawlReport& r);
// A recrawl: {"known", "conditional", "unchanged", "not_modified", "changed", "gone", "failed",
// "new", "bytes_saved", "journal", "updated", "crawl": the crawl's report, "update": the update's}.
void to_json(nlohmann::json& j, const RecrawlReport& r);

}  // namespace webrank
