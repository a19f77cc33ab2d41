// The JSON form of the search layer's reports (declared in its webrank/*_json.hpp).
#include "webrank/search/search_json.hpp"
#include "webrank/rank/rank_json.hpp"

namespace webrank {

void to_json(nlohmann::json& j, const IndexProgress& p) {
  j = {
      {"stage", p.stage}, {"pages_done", p.pages_done}, {"pages", p.pages}, {"seconds", p.seconds}};
}

void to_json(nlohmann::json& j, const IndexReport& r) {
  j = {{"pages", r.pages},       {"documents", r.documents},         {"bytes", r.bytes},
       {"seconds", r.seconds},   {"merge_seconds", r.merge_seconds}, {"threads", r.threads},
       {"path", r.path.string()}};
  if (r.shards > 1) j["shard"] = {{"index", r.shard}, {"of", r.shards}};
}

void to_json(nlohmann::json& j, const IndexInfo& i) {
  j = {{"path", i.path.string()},
       {"documents", i.documents},
       {"bytes", i.bytes},
       {"version", i.version},
       {"built", i.built},
       {"field_weights",
        {{"title", i.field_weights.title},
         {"text", i.field_weights.text},
         {"anchor", i.field_weights.anchor},
         {"url", i.field_weights.url},
         {"chrome", i.field_weights.chrome}}}};
}

void to_json(nlohmann::json& j, const Snippet& s) {
  nlohmann::json matches = nlohmann::json::array();
  for (const TextSpan& m : s.matches) matches.push_back({m.begin, m.end});
  j = {{"matches", matches}, {"cut_before", s.cut_before}, {"cut_after", s.cut_after}};
  set_text(j, "text", s.text);
}

void to_json(nlohmann::json& j, const SearchHit& h) {
  j = {{"position", h.position},
       {"title", nlohmann::json()},
       {"score", h.score},
       {"rank", h.page.rank},
       {"percentile", h.page.percentile},
       {"bar", h.page.bar},
       {"toolbar", h.page.toolbar},
       {"snippet", h.snippet}};
  set_text(j, "url", h.page.label);
  if (h.page.title) set_text(j, "title", *h.page.title);
}

void to_json(nlohmann::json& j, const SearchResults& r) {
  j = {{"query", r.query},
       {"mode", to_string(r.mode)},
       {"ranks", r.ranks.empty() ? nlohmann::json() : nlohmann::json(r.ranks)},
       {"offset", r.offset},
       {"k", r.k},
       {"matches",
        {{"estimated", r.matches_estimated},
         {"lower_bound", r.matches_lower},
         {"upper_bound", r.matches_upper}}},
       {"hits", r.hits},
       {"unknown_words", r.unknown_words},
       {"suggestion", r.suggestion.empty() ? nlohmann::json() : nlohmann::json(r.suggestion)},
       {"seconds", r.seconds}};
}

void to_json(nlohmann::json& j, const Backlinks& b) {
  j = {{"total", b.total}, {"pages", b.pages}};
}

void to_json(nlohmann::json& j, const ForwardLink& l) {
  j = l.target;
  j["nofollow"] = l.nofollow;
}

void to_json(nlohmann::json& j, const ModeQuality& m) {
  j = {{"mode", to_string(m.mode)},
       {"hit1", m.hit1},
       {"hit3", m.hit3},
       {"mrr", m.mrr},
       {"ndcg10", m.ndcg10},
       {"mean_seconds", m.mean_seconds},
       {"p50_seconds", m.p50_seconds},
       {"p99_seconds", m.p99_seconds},
       {"max_seconds", m.max_seconds}};
}

void to_json(nlohmann::json& j, const EvalReport& r) {
  nlohmann::json outcomes = nlohmann::json::array();
  for (const QueryOutcome& q : r.outcomes) {
    nlohmann::json positions = nlohmann::json::object();
    for (std::size_t i = 0; i < q.positions.size() && i < r.modes.size(); ++i) {
      positions[to_string(r.modes[i].mode)] = q.positions[i];
    }
    outcomes.push_back({{"line", q.line}, {"query", q.query}, {"positions", positions}});
  }
  j = {{"file", r.file},
       {"queries", r.queries},
       {"ranks", r.ranks.empty() ? nlohmann::json() : nlohmann::json(r.ranks)},
       {"rank_weight", r.rank_weight},
       {"name_weight", r.name_weight},
       {"anchor_name_weight", r.anchor_name_weight},
       {"family_name_weight", r.family_name_weight},
       {"bm25_k1", r.bm25_k1},
       {"bm25_b", r.bm25_b},
       {"modes", r.modes},
       {"outcomes", outcomes}};
}

}  // namespace webrank
