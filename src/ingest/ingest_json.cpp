// The JSON form of update progress and reports (declared in its webrank/*_json.hpp).
#include "webrank/ingest/ingest_json.hpp"

namespace webrank {

void to_json(nlohmann::json& j, const UpdateProgress& p) {
  j = {{"stage", p.stage}, {"bytes", p.bytes_read}, {"total", p.bytes_total}};
}

void to_json(nlohmann::json& j, const UpdateReport& r) {
  j = {{"pages_before", r.pages_before},
       {"pages", r.pages},
       {"pages_added", r.pages_added},
       {"pages_removed", r.pages_removed},
       {"links_before", r.links_before},
       {"links", r.links},
       {"links_added", r.links_added},
       {"links_removed", r.links_removed},
       {"removals_not_found", r.removals_not_found},
       {"additions_read", r.additions_read},
       {"vectors_carried", r.vectors_carried},
       {"seconds", r.seconds}};
}

}  // namespace webrank
