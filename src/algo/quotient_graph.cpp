#include "algo/quotient_graph.hpp"

#include <algorithm>

namespace webrank {

std::vector<GroupLink> quotient_links(const GraphView& g, std::span<const std::uint32_t> group,
                                      bool keep_internal) {
  // (source group, target group) pairs with the page link's weight, sorted and summed.
  struct Pair {
    std::uint64_t key;
    double weight;
  };
  std::vector<Pair> pairs;
  pairs.reserve(g.num_links);
  for (PageId u = 0; u < g.num_pages; ++u) {
    const std::uint32_t a = group[u];
    if (a == kNoGroup) continue;
    const auto targets = g.out.neighbors(u);
    for (std::size_t i = 0; i < targets.size(); ++i) {
      const std::uint32_t b = group[targets[i]];
      if (b == kNoGroup || (a == b && !keep_internal)) continue;
      pairs.push_back(
          {std::uint64_t{a} << 32 | b, g.weighted() ? g.out.neighbor_weights(u)[i] : 1.0});
    }
  }
  std::sort(pairs.begin(), pairs.end(), [](const Pair& x, const Pair& y) { return x.key < y.key; });
  std::vector<GroupLink> links;
  for (const Pair& p : pairs) {
    if (links.empty() ||
        (std::uint64_t{links.back().source} << 32 | links.back().target) != p.key) {
      links.push_back({static_cast<std::uint32_t>(p.key >> 32),
                       static_cast<std::uint32_t>(p.key & 0xFFFFFFFFu), 0.0, 0});
    }
    links.back().weight += p.weight;
    ++links.back().links;
  }
  return links;
}

}  // namespace webrank
