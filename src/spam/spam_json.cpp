// The JSON form of spam reports (declared in its webrank/*_json.hpp).
#include "webrank/spam/spam_json.hpp"

namespace webrank {

void to_json(nlohmann::json& j, const FarmStructure& s) {
  j = {{"supporters", s.supporters},
       {"mean_out_degree", s.mean_out_degree},
       {"out_share_to_farm", s.out_share_to_farm},
       {"mean_in_degree", s.mean_in_degree},
       {"in_share_from_farm", s.in_share_from_farm},
       {"reciprocal", s.reciprocal},
       {"hosts", s.hosts},
       {"duplicate_content", s.duplicate_content},
       {"hosts_sharing_a_title", s.hosts_sharing_a_title}};
}

void to_json(nlohmann::json& j, const SpamFarm& f) {
  j = {{"target", f.target},
       {"pagerank", f.pagerank},
       {"scaled_pagerank", f.scaled_pagerank},
       {"farm_share", f.farm_share},
       {"score", f.score},
       {"structure", f.structure},
       {"supporters", f.supporters},
       {"allied_targets", f.allied_targets}};
  if (f.relative_mass >= -0.5) j["relative_mass"] = f.relative_mass;
  if (f.farm_mass >= -0.5) j["farm_mass"] = f.farm_mass;
}

void to_json(nlohmann::json& j, const SpamReport& r) {
  j = {{"candidates", r.candidates},
       {"used_trust", r.used_trust},
       {"seconds", r.seconds},
       {"farms", r.farms}};
}

}  // namespace webrank
