// Writing the link sections of a database from sorted runs of links (link_runs.hpp), for webs
// whose links do not fit in the memory budget. The result is byte for byte what build_csr and
// write_section give in memory.
//
// One merge of the runs streams fwd.targets (and fwd.weights) to disk, merging identical links,
// while counting out- and in-degrees: memory holds only per-page arrays and the runs' read
// buffers. The backlinks are then made in slices of consecutive targets whose backlinks fit the
// budget, each slice by one sequential scan of the forward section just written.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "webrank/util/graph.hpp"

namespace webrank {

struct ExternalLinkStats {
  std::uint64_t links = 0;  // distinct links written
  std::uint64_t self_links = 0;
  PageId dangling_pages = 0;
};

// Called now and then with the stage ("merging", "backlinks"), the bytes done and the total.
using ExternalProgress =
    std::function<void(const std::string& stage, std::uint64_t done, std::uint64_t total)>;

// Writes fwd.*, bwd.* into `dir` and lists them in `manifest`. The runs are deleted once
// merged. `memory_budget` (what the caller has not used already) bounds the per-page arrays,
// the read buffers and the backlink slices.
ExternalLinkStats write_links_from_runs(const std::filesystem::path& dir, PageId pages,
                                        const std::vector<std::filesystem::path>& runs,
                                        bool weighted, std::uint64_t memory_budget,
                                        nlohmann::json& manifest, const ExternalProgress& progress);

}  // namespace webrank
