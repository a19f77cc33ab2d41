// The JSON form of crawl progress and reports (declared in its webrank/*_json.hpp).
#include "webrank/crawl/crawl_json.hpp"
#include "webrank/ingest/ingest_json.hpp"
#include "webrank/writer/writer_json.hpp"

namespace webrank {

void to_json(nlohmann::json& j, const CrawlProgress& p) {
  j = {{"stage", "crawl"},     {"pages", p.pages},         {"queued", p.queued},
       {"spilled", p.spilled}, {"in_flight", p.in_flight}, {"errors", p.errors},
       {"bytes", p.bytes},     {"seconds", p.seconds}};
}

void to_json(nlohmann::json& j, const CrawlReport& r) {
  j = {{"pages", r.pages},
       {"fetched_now", r.fetched_now},
       {"resumed", r.resumed},
       {"errors", r.errors},
       {"retries", r.retries},
       {"robots_blocked", r.robots_blocked},
       {"trapped", r.trapped},
       {"too_deep", r.too_deep},
       {"out_of_scope", r.out_of_scope},
       {"bytes", r.bytes},
       {"ok_pages", r.ok_pages},
       {"interrupted", r.interrupted},
       {"page_limit", r.page_limit},
       {"crawl_seconds", r.crawl_seconds},
       {"build", r.build}};
  j["seed_failures"] = nlohmann::json::array();
  for (const SeedFailure& f : r.seed_failures)
    j["seed_failures"].push_back({{"url", f.url}, {"reason", f.reason}});
}

void to_json(nlohmann::json& j, const RecrawlReport& r) {
  j = {{"known", r.known},
       {"conditional", r.conditional},
       {"unchanged", r.unchanged},
       {"not_modified", r.not_modified},
       {"changed", r.changed},
       {"gone", r.gone},
       {"failed", r.failed},
       {"new", r.new_pages},
       {"bytes_saved", r.bytes_saved},
       {"journal", r.journal},
       {"updated", r.updated},
       {"crawl", r.crawl},
       {"update", r.update}};
  j["crawl"].erase("build");  // a recrawl builds nothing: it updates
}

}  // namespace webrank
