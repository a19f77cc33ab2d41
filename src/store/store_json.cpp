// The JSON form of database summaries (declared in its webrank/*_json.hpp).
#include "webrank/store/store_json.hpp"

#include <cmath>

namespace webrank {

void to_json(nlohmann::json& j, const DegreeStats& s) {
  j = {{"min", s.min}, {"max", s.max}, {"mean", s.mean}, {"median", s.median}, {"zero", s.zero}};
}

void to_json(nlohmann::json& j, const CrawlStats& s) {
  j = {{"fetched_pages", s.fetched_pages},
       {"not_fetched_pages", s.not_fetched_pages},
       {"status", s.status_classes},
       {"pages_with_title", s.pages_with_title},
       {"exact_duplicates", s.exact_duplicates},
       {"nofollow_links", s.nofollow_links}};
  if (s.status_classes.empty()) j["status"] = nlohmann::json::object();
}

void to_json(nlohmann::json& j, const RankVectorSummary& s) {
  j = {{"name", s.name}};
  if (!s.error.empty()) {
    j["error"] = s.error;
    return;
  }
  // A few of the record's fields (`info` and `ranks` list them; check --ranks and the record
  // itself have the rest), 0 where the vector has none.
  const VectorRecord& v = s.record;
  j["algorithm"] = v.algorithm;
  if (!v.kind.empty()) j["kind"] = v.kind;
  j["precision"] = to_string(v.precision);
  j["method"] = v.method;
  j["tol"] = v.tol.value_or(0);
  j["personalized"] = v.personalized;
  j["created"] = v.created;
  j["bytes"] = s.bytes;
  if (!v.solved_by.empty()) j["solved_by"] = v.solved_by;
  j["damping"] = v.damping.value_or(0);
  j["dangling"] = v.dangling;
  j["iterations"] = v.iterations;
  j["converged"] = v.converged;
  j["final_delta"] = std::isnan(v.final_delta) ? 0.0 : v.final_delta;
  j["stale"] = v.stale.has_value();
}

void to_json(nlohmann::json& j, const DatabaseSummary& s) {
  j = {{"database", s.path},
       {"pages", s.stats.pages},
       {"links", s.stats.links},
       {"dangling_pages", s.stats.dangling_pages},
       {"self_links", s.stats.self_links},
       {"isolated_pages", s.isolated_pages},
       {"weighted", s.stats.weighted},
       {"out_degree", s.out_degree},
       {"in_degree", s.in_degree},
       {"bytes_on_disk", s.bytes_on_disk},
       {"ranks", s.ranks}};
  if (s.ranks.empty()) j["ranks"] = nlohmann::json::array();
  if (s.crawl) j["crawl"] = *s.crawl;
}

}  // namespace webrank
