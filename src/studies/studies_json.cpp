// The JSON forms of the studies' reports (declared in its webrank/*_json.hpp).
#include <cmath>

#include "webrank/rank/rank_json.hpp"
#include "webrank/studies/studies_json.hpp"

namespace webrank {
namespace {

nlohmann::json number(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json();
}

}  // namespace

void to_json(nlohmann::json& j, const UsagePage& p) {
  j = {{"label", p.label},
       {"visits", p.visits},
       {"usage_percentile", p.usage_percentile},
       {"rank", p.rank},
       {"rank_percentile", p.rank_percentile}};
}

void to_json(nlohmann::json& j, const UsageComparison& c) {
  j = {{"vector", c.vector},
       {"pages", c.pages},
       {"visited_pages", c.visited_pages},
       {"total_visits", c.total_visits},
       {"spearman", number(c.spearman)},
       {"kendall", number(c.kendall)},
       {"spearman_visited", number(c.spearman_visited)},
       {"kendall_visited", number(c.kendall_visited)},
       {"high_usage_low_rank", c.high_usage_low_rank},
       {"high_rank_low_usage", c.high_rank_low_usage}};
}

void to_json(nlohmann::json& j, const AccessLogReport& r) {
  j = {{"site", r.site},
       {"lines", r.lines},
       {"counted", r.counted},
       {"not_get", r.not_get},
       {"not_success", r.not_success},
       {"bots", r.bots},
       {"unknown_urls", r.unknown_urls},
       {"combined_lines", r.combined_lines}};
  j["top_unknown"] = nlohmann::json::array();
  for (const auto& [path, n] : r.top_unknown)
    j["top_unknown"].push_back({{"path", path}, {"requests", n}});
}

void to_json(nlohmann::json& j, const CrawlCurve& c) {
  j = {{"order", to_string(c.order)},
       {"crawled", c.crawled},
       {"hot", c.hot},
       {"hot_at_10", number(c.hot_at_10)},
       {"hot_at_20", number(c.hot_at_20)},
       {"hot_at_50", number(c.hot_at_50)},
       {"mean_hot", c.mean_hot},
       {"pagerank_computations", c.pagerank_computations},
       {"seconds", c.seconds}};
}

void to_json(nlohmann::json& j, const CrawlOrderStudy& s) {
  j = {{"seed", s.seed},
       {"pages", s.pages},
       {"reachable", s.reachable},
       {"hot_pages", s.hot_pages},
       {"hot_by", to_string(s.hot_by)},
       {"hot_fraction", s.hot_fraction},
       {"recompute_every", s.recompute_every},
       {"curves", s.curves}};
  nlohmann::json ideal = s.ideal;
  ideal.erase("order");
  ideal.erase("pagerank_computations");
  ideal.erase("seconds");
  j["ideal"] = ideal;
}

void to_json(nlohmann::json& j, const BacklinkContribution& b) {
  j = {{"label", b.label},
       {"contribution", b.contribution},
       {"rank", b.rank},
       {"out_links", b.out_links},
       {"share", b.share}};
}

void to_json(nlohmann::json& j, const RankPath& p) {
  j = {{"first", p.first_label}, {"via", p.via_label}, {"contribution", p.contribution}};
}

void to_json(nlohmann::json& j, const WhatIf& w) {
  j = {{"without", w.without},
       {"links_removed", w.links_removed},
       {"rank", w.rank},
       {"change", w.change},
       {"error_bound", w.error_bound},
       {"within_tolerance", w.within_tolerance},
       {"pushes", w.pushes},
       {"seconds", w.seconds}};
}

void to_json(nlohmann::json& j, const RankExplanation& e) {
  j = {{"page", e.page},
       {"label", e.label},
       {"vector", e.vector},
       {"damping", e.damping},
       {"rank", e.rank},
       {"source_term", e.source_term},
       {"dangling_term", e.dangling_term},
       {"backlinks_term", e.backlinks_term},
       {"sum", e.sum},
       {"residual", e.residual},
       {"backlinks", e.backlinks},
       {"paths", e.paths},
       {"what_if", e.what_if}};
}

void to_json(nlohmann::json& j, const HostSummary& h) {
  j = {{"host", h.host},
       {"pages", h.pages},
       {"hostrank", h.hostrank},
       {"links_out", h.links_out},
       {"links_in", h.links_in}};
}

void host_graph_json(nlohmann::json& j, const HostGraphReport& r, std::size_t top) {
  j = {{"pages", r.pages},
       {"hosts", r.hosts},
       {"pages_without_host", r.pages_without_host},
       {"host_links", r.host_links},
       {"page_links_between", r.page_links_between},
       {"page_links_within", r.page_links_within},
       {"hostrank", r.hostrank}};
  const std::size_t n = top == 0 ? r.hosts_by_rank.size() : std::min(top, r.hosts_by_rank.size());
  j["top"] = std::vector<HostSummary>(r.hosts_by_rank.begin(), r.hosts_by_rank.begin() + n);
}

void to_json(nlohmann::json& j, const HarmonicResult& r) {
  j = {{"exact", r.exact},
       {"iterations", r.iterations},
       {"reachable_pairs", r.reachable_pairs},
       {"seconds", r.seconds}};
  if (!r.exact) j["log2m"] = r.log2m;
}

void to_json(nlohmann::json& j, const HarmonicProgress& p) {
  j = {{"stage", "harmonic"},
       {"distance", p.distance},
       {"pages_changed", p.pages_changed},
       {"seconds", p.seconds}};
}

void to_json(nlohmann::json& j, const CrawlOrderProgress& p) {
  j = {{"stage", "crawl-order"},
       {"order", to_string(p.order)},
       {"fetched", p.fetched},
       {"reachable", p.reachable},
       {"seconds", p.seconds}};
}

}  // namespace webrank
