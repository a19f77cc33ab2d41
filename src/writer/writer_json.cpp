// The JSON form of build progress and reports (declared in its webrank/*_json.hpp).
#include "webrank/writer/writer_json.hpp"

namespace webrank {

void to_json(nlohmann::json& j, const BuildProgress& p) {
  j = {{"stage", p.stage}, {"bytes", p.bytes_read}, {"total", p.bytes_total}};
}

void to_json(nlohmann::json& j, const BuildReport& r) {
  j = {{"pages", r.pages},           {"links", r.links}, {"input_links", r.input_links},
       {"self_links", r.self_links}, {"lines", r.lines}, {"spilled_runs", r.spilled_runs},
       {"seconds", r.seconds}};
}

}  // namespace webrank
