// The JSON form of the studies layer's results.
// One of the per-layer JSON headers that webrank/json.hpp gathers (why, and conventions, there).
#pragma once

#include "webrank/algo/centrality.hpp"
#include "webrank/studies/crawl_order.hpp"
#include "webrank/studies/explain.hpp"
#include "webrank/studies/host_graph.hpp"
#include "webrank/studies/usage.hpp"
#include "webrank/util/json_text.hpp"

namespace webrank {

// Studies (docs/studies.md). Usage against a vector: {"vector", "pages", "visited_pages",
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
// {"stage": "crawl-order", "order", "fetched", "reachable", "seconds"}.
void to_json(nlohmann::json& j, const CrawlOrderProgress& p);

}  // namespace webrank
