// The JSON form of database summaries (declared in its webrank/*_json.hpp).
#include "webrank/store/store_json.hpp"

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
  j["algorithm"] = s.algorithm;
  if (!s.kind.empty()) j["kind"] = s.kind;
  j["precision"] = s.precision;
  j["method"] = s.method;
  j["tol"] = s.tol;
  j["personalized"] = s.personalized;
  j["created"] = s.created;
  j["bytes"] = s.bytes;
  if (s.solved_by) j["solved_by"] = *s.solved_by;
  j["damping"] = s.damping;
  j["dangling"] = s.dangling;
  j["iterations"] = s.iterations;
  j["converged"] = s.converged;
  j["final_delta"] = s.final_delta;
  j["stale"] = s.stale;
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
