// The JSON form of every report the library produces, for front ends that print, serve or
// return JSON (`--json` flags, JSON progress lines, a server's API). One form per struct, written
// with nlohmann-json: `nlohmann::json j = report;` (found by argument-dependent lookup).
// Doubles are written as JSON numbers (non-finite ones as null); rank vectors are never included.
#pragma once

#include <nlohmann/json.hpp>

#include "webrank/batch.hpp"
#include "webrank/build.hpp"
#include "webrank/centrality.hpp"
#include "webrank/compare.hpp"
#include "webrank/crawl.hpp"
#include "webrank/crawl_order.hpp"
#include "webrank/dist.hpp"
#include "webrank/error.hpp"
#include "webrank/explain.hpp"
#include "webrank/host_graph.hpp"
#include "webrank/links.hpp"
#include "webrank/presentation.hpp"
#include "webrank/push.hpp"
#include "webrank/rank.hpp"
#include "webrank/rank_comparison.hpp"
#include "webrank/report.hpp"
#include "webrank/search.hpp"
#include "webrank/search_eval.hpp"
#include "webrank/spam.hpp"
#include "webrank/summary.hpp"
#include "webrank/update.hpp"
#include "webrank/usage.hpp"
#include "webrank/verify.hpp"

namespace webrank {

// Text from inputs and from the web (labels, titles, URLs, snippets) is bytes, not always UTF-8,
// and JSON strings must be UTF-8. set_text() writes j[key] = text when it is valid UTF-8;
// otherwise every byte that is not part of a valid UTF-8 sequence is written as U+FFFD and the
// raw bytes are given beside it as lowercase hex in j[key + "_hex"]. Never throws.
void set_text(nlohmann::json& j, const std::string& key, std::string_view text);
// The whole value as JSON text (dump(indent)), with any invalid UTF-8 left in a string replaced by
// U+FFFD instead of throwing: what every front end prints.
std::string json_text(const nlohmann::json& j, int indent = 2);

// {"kind", "message", "field" (when about an option)}.
void to_json(nlohmann::json& j, const Error& e);

// Database statistics (`webrank info --json`).
void to_json(nlohmann::json& j, const DegreeStats& s);
void to_json(nlohmann::json& j, const CrawlStats& s);
void to_json(nlohmann::json& j, const RankVectorSummary& s);
void to_json(nlohmann::json& j, const DatabaseSummary& s);

// Building: {"stage", "bytes", "total"}; the report.
void to_json(nlohmann::json& j, const BuildProgress& p);
void to_json(nlohmann::json& j, const BuildReport& r);

// Ranking: {"iteration", "delta", "seconds"}; gauss-seidel's progress; the result's counts and
// convergence (the keys a stored vector's metadata has: docs/format.md).
void to_json(nlohmann::json& j, const IterationInfo& i);
void to_json(nlohmann::json& j, const SolveProgress& p);
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

// Spam farms: the report, with page ids (front ends add labels): {"candidates", "used_trust",
// "seconds", "farms": [{"target", "pagerank", "scaled_pagerank", "farm_share", "relative_mass"
// (with trust), "score", "structure": {...}, "supporters": [...], "allied_targets": [...]}]}.
void to_json(nlohmann::json& j, const FarmStructure& s);
void to_json(nlohmann::json& j, const SpamFarm& f);
void to_json(nlohmann::json& j, const SpamReport& r);

// Partitioning: {"pages", "links", "parts": [{"first_page", "pages", "links", "remote_pages"}],
// "seconds"}.
void to_json(nlohmann::json& j, const PartitionReport& r);

// Updating: {"stage", "bytes", "total"}; the report.
void to_json(nlohmann::json& j, const UpdateProgress& p);
void to_json(nlohmann::json& j, const UpdateReport& r);

// Crawling: progress {"stage": "crawl", ...}; the report, with the build's.
void to_json(nlohmann::json& j, const CrawlProgress& p);
void to_json(nlohmann::json& j, const CrawlReport& r);
// A recrawl: {"known", "conditional", "unchanged", "not_modified", "changed", "gone", "failed",
// "new", "bytes_saved", "journal", "updated", "crawl": the crawl's report, "update": the update's}.
void to_json(nlohmann::json& j, const RecrawlReport& r);

// Search (webrank/search.hpp, docs/search.md): index progress {"stage", "pages_done", "pages",
// "seconds"}, report and description; results {"query", "mode", "ranks", "offset", "k",
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
// Studies (issue 23). Usage against a vector: {"vector", "pages", "visited_pages",
// "total_visits", "spearman", "kendall", "spearman_visited", "kendall_visited",
// "high_usage_low_rank": [{"label", "visits", "usage_percentile", "rank", "rank_percentile"}],
// "high_rank_low_usage": [...]}; the access log's line counts.
void to_json(nlohmann::json& j, const UsagePage& p);
void to_json(nlohmann::json& j, const UsageComparison& c);
void to_json(nlohmann::json& j, const AccessLogReport& r);
// Crawl orders: {"seed", "pages", "reachable", "hot_pages", "hot_by", "hot_fraction",
// "recompute_every", "curves": [{"order", "crawled", "hot", "hot_at_10", "hot_at_20",
// "hot_at_50", "mean_hot", "pagerank_computations", "seconds"}], "ideal": {...}}.
void to_json(nlohmann::json& j, const CrawlCurve& c);
void to_json(nlohmann::json& j, const CrawlOrderStudy& s);
// A rank explained: {"page", "label", "vector", "damping", "rank", "source_term",
// "dangling_term", "backlinks_term", "sum", "residual", "backlinks": [{"label", "contribution",
// "rank", "out_links", "share"}] (all of them), "paths": [{"first", "via", "contribution"}],
// "what_if": [{"without", "links_removed", "rank", "change", "error_bound", "within_tolerance",
// "pushes", "seconds"}]}.
void to_json(nlohmann::json& j, const BacklinkContribution& b);
void to_json(nlohmann::json& j, const RankPath& p);
void to_json(nlohmann::json& j, const WhatIf& w);
void to_json(nlohmann::json& j, const RankExplanation& e);
// The host graph: {"pages", "hosts", "pages_without_host", "host_links", "page_links_between",
// "page_links_within", "hostrank": RankResult, "top": [{"host", "pages", "hostrank",
// "links_out", "links_in"}]} (top: the first `top` hosts; all when top is 0).
void to_json(nlohmann::json& j, const HostSummary& h);
void host_graph_json(nlohmann::json& j, const HostGraphReport& r, std::size_t top);
// Harmonic centrality, without its values: {"exact", "log2m", "iterations", "reachable_pairs",
// "seconds"}; progress {"stage": "harmonic", "distance", "pages_changed", "seconds"}.
void to_json(nlohmann::json& j, const HarmonicResult& r);
void to_json(nlohmann::json& j, const HarmonicProgress& p);
// The report's data (`webrank report`; the JSON the chart code of web/src/charts.js draws).
void to_json(nlohmann::json& j, const PowerLawFit& f);
void to_json(nlohmann::json& j, const ReportData& r);
// {"id", "label", "vector", "value", "fraction" (null off the log axis), "in_degree",
// "out_degree"}: where a page stands in the report's charts.
void to_json(nlohmann::json& j, const ReportPage& p);

}  // namespace webrank
