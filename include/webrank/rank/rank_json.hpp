// The JSON form of the rank layer's results and reports.
// One of the per-layer JSON headers that webrank/json.hpp gathers (why, and conventions, there).
#pragma once

#include "webrank/rank/batch.hpp"
#include "webrank/rank/compare.hpp"
#include "webrank/rank/presentation.hpp"
#include "webrank/rank/push.hpp"
#include "webrank/rank/rank.hpp"
#include "webrank/rank/rank_comparison.hpp"
#include "webrank/rank/verify.hpp"
#include "webrank/util/json_text.hpp"

namespace webrank {

// Ranking: {"iteration", "delta", "seconds"}; gauss-seidel's progress; the result's counts and
// convergence (the keys a stored vector's metadata has: docs/format.md).
void to_json(nlohmann::json& j, const IterationInfo& i);
void to_json(nlohmann::json& j, const SolveProgress& p);
void to_json(nlohmann::json& j, const MethodChoice& c);
void to_json(nlohmann::json& j, const RankResult& r);
// A batch's progress: {"iteration", "vectors", "done", "largest_delta", "seconds"}.
void to_json(nlohmann::json& j, const BatchProgress& p);
// {"label", "rank", "percentile", "bar", "toolbar", "title" (crawled webs)}.
void to_json(nlohmann::json& j, const RankedPage& p);
// One page (`webrank page --json`): {"id", "label", "title", "final_url", "status" (crawled
// webs), "out_links", "in_links", "nofollow_links", "self_link", "pages", "ranks": [{"name",
// "rank", "percentile", "position", "bar", "toolbar", "converged"} or {"name", "error"}]}.
void to_json(nlohmann::json& j, const PageVectorPlace& p);
void to_json(nlohmann::json& j, const PageReport& r);
// Two vectors compared: {"pages", "l1", "max_difference", "kendall_tau", "spearman", "top":
// [{"k", "shared", "fraction"}]} (correlations null when undefined).
void to_json(nlohmann::json& j, const RankComparison& c);
// A push answer: {"top": [{"page", "lower", "upper"}], "certified", "outside_upper",
// "error_bound" (Σr), "pushes", "links_visited", "pages_touched", "sweeps", "seconds"}.
void to_json(nlohmann::json& j, const PprTop& t);
// {"views": [...], "rows": [{"label", "title" (crawled webs), "ranks": [...], "percentiles":
// [...]}]}.
void to_json(nlohmann::json& j, const ViewComparison& c);
// The verifier's verdict on a stored vector.
void to_json(nlohmann::json& j, const RankCheck& c);

}  // namespace webrank
