// The quotient of a web by a grouping of its pages (the host graph: pages grouped by host or
// pay-level domain): one node per group, a link between two groups weighted by the page links
// between them (or the sum of their weights on a weighted web).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "webrank/util/graph.hpp"

namespace webrank {

inline constexpr std::uint32_t kNoGroup = 0xFFFFFFFFu;

struct GroupLink {
  std::uint32_t source, target;
  double weight;        // page links (or their summed weight) from source's pages to target's
  std::uint64_t links;  // page links
};

// The links between groups, sorted by (source, target). `group[u]` is page u's group, or
// kNoGroup to leave the page out. Links within a group are kept as self-links when
// `keep_internal`, dropped otherwise. O(links log links).
std::vector<GroupLink> quotient_links(const GraphView& web, std::span<const std::uint32_t> group,
                                      bool keep_internal);

}  // namespace webrank
