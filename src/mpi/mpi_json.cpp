// The JSON form of partition reports (declared in its webrank/*_json.hpp).
#include "webrank/mpi/mpi_json.hpp"
#include "webrank/mpi/distributed.hpp"

namespace webrank {

void to_json(nlohmann::json& j, const PartitionReport& r) {
  nlohmann::json parts = nlohmann::json::array();
  for (const PartInfo& p : r.parts) {
    parts.push_back({{"first_page", p.first_page},
                     {"pages", p.pages},
                     {"links", p.links},
                     {"remote_pages", p.remote_pages}});
  }
  j = {{"pages", r.pages}, {"links", r.links}, {"parts", parts}, {"seconds", r.seconds}};
}

void to_json(nlohmann::json& j, const PartitionProgress& p) {
  j = {{"stage", "partition"}, {"parts_written", p.parts_written}, {"parts", p.parts}};
}

}  // namespace webrank
