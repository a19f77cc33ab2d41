// The JSON form of the search layer's results and reports.
// One of the per-layer JSON headers that webrank/json.hpp gathers (why, and conventions, there).
#pragma once

#include "webrank/search/links.hpp"
#include "webrank/search/search.hpp"
#include "webrank/search/search_eval.hpp"
#include "webrank/util/json_text.hpp"

namespace webrank {

// Search (webrank/search/search.hpp, docs/search.md): index progress {"stage", "pages_done",
// "pages", "seconds"}, report and description; results {"query", "mode", "ranks", "offset", "k",
// "matches": {"estimated", "lower_bound", "upper_bound"}, "hits", "unknown_words", "seconds"},
// each hit {"position", "url", "title", "score", "rank", "percentile", "bar", "toolbar",
// "snippet": {"text", "matches": [[begin, end], ...] (byte offsets into text), "cut_before",
// "cut_after"}}.
void to_json(nlohmann::json& j, const IndexProgress& p);
void to_json(nlohmann::json& j, const IndexReport& r);
void to_json(nlohmann::json& j, const IndexInfo& i);
void to_json(nlohmann::json& j, const Snippet& s);
void to_json(nlohmann::json& j, const SearchHit& h);
void to_json(nlohmann::json& j, const SearchResults& r);
// Backlinks {"total", "pages": [ranked pages]}; a forward link is a ranked page with "nofollow".
void to_json(nlohmann::json& j, const Backlinks& b);
void to_json(nlohmann::json& j, const ForwardLink& l);
// An evaluation: {"file", "queries", "ranks", "rank_weight", "modes": [{"mode", "hit1", "hit3",
// "mrr", "ndcg10", "mean_seconds", "p50_seconds", "p99_seconds", "max_seconds"}], "outcomes":
// [{"line", "query", "positions": {mode: n}}]}.
void to_json(nlohmann::json& j, const ModeQuality& m);
void to_json(nlohmann::json& j, const EvalReport& r);

}  // namespace webrank
