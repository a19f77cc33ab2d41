#include "graph/page_order.hpp"

#include <algorithm>
#include <numeric>

#include "webrank/error.hpp"

namespace webrank {

std::vector<PageId> page_order(const std::string& order, const CsrLinks& links, PageId pages) {
  if (order != "degree") fail("unknown page order '", order, "' (known: input, degree)");
  std::vector<PageId> by_rank(pages);
  std::iota(by_rank.begin(), by_rank.end(), PageId{0});
  auto degree = [&](PageId u) { return links.out_offsets[u + 1] - links.out_offsets[u]; };
  std::stable_sort(by_rank.begin(), by_rank.end(),
                   [&](PageId a, PageId b) { return degree(a) > degree(b); });
  std::vector<PageId> new_id(pages);
  for (PageId i = 0; i < pages; ++i) new_id[by_rank[i]] = i;
  return new_id;
}

CsrLinks renumber(CsrLinks&& links, const std::vector<PageId>& new_id) {
  const PageId n = static_cast<PageId>(new_id.size());
  const bool weighted = !links.out_weights.empty();
  std::vector<PageId> sources, targets;
  std::vector<double> weights;
  sources.reserve(links.out_ids.size());
  targets.reserve(links.out_ids.size());
  for (PageId u = 0; u < n; ++u) {
    for (std::uint64_t e = links.out_offsets[u]; e < links.out_offsets[u + 1]; ++e) {
      sources.push_back(new_id[u]);
      targets.push_back(new_id[links.out_ids[e]]);
    }
  }
  if (weighted) weights = std::move(links.out_weights);
  links = CsrLinks{};  // free the old arrays before building the new ones
  return build_csr(n, std::move(sources), std::move(targets), std::move(weights));
}

}  // namespace webrank
