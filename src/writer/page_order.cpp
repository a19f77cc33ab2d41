#include "writer/page_order.hpp"

#include <algorithm>
#include <numeric>

#include "webrank/util/error.hpp"

namespace webrank {

std::string url_order_key(std::string_view label) {
  const std::size_t scheme = label.find("://");
  // The first byte puts URLs (1) before other labels (2) whatever their characters.
  if (scheme == std::string_view::npos) return std::string(1, '\x02') + std::string(label);
  std::string_view rest = label.substr(scheme + 3);
  const std::size_t end_of_host = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, end_of_host);
  const std::string_view tail =
      end_of_host == std::string_view::npos ? std::string_view() : rest.substr(end_of_host);
  if (const std::size_t at = authority.rfind('@'); at != std::string_view::npos) {
    authority.remove_prefix(at + 1);  // user info
  }
  std::string_view port;
  if (const std::size_t colon = authority.rfind(':'); colon != std::string_view::npos) {
    port = authority.substr(colon);
    authority = authority.substr(0, colon);
  }
  if (authority.size() > 4 && authority.substr(0, 4) == "www.") authority.remove_prefix(4);
  std::string key(1, '\x01');
  key.reserve(label.size() + 2);
  while (!authority.empty()) {  // host labels last to first
    const std::size_t dot = authority.rfind('.');
    key += authority.substr(dot == std::string_view::npos ? 0 : dot + 1);
    if (dot == std::string_view::npos) break;
    key += '.';
    authority = authority.substr(0, dot);
  }
  key += port;
  key += tail.empty() ? std::string_view("/") : tail;
  return key;
}

std::span<const Named<PageOrder>> names(PageOrder) {
  static constexpr Named<PageOrder> kNames[] = {
      {PageOrder::kInput, "input"}, {PageOrder::kDegree, "degree"}, {PageOrder::kUrl, "url"}};
  return kNames;
}

const char* to_string(PageOrder order) {
  return name_in(names(order), order);
}

std::vector<PageId> page_order(PageOrder order, const CsrLinks& links, PageId pages,
                               const std::function<std::string_view(PageId)>& label) {
  std::vector<PageId> by_rank(pages);
  std::iota(by_rank.begin(), by_rank.end(), PageId{0});
  if (order == PageOrder::kDegree) {
    auto degree = [&](PageId u) { return links.out_offsets[u + 1] - links.out_offsets[u]; };
    std::stable_sort(by_rank.begin(), by_rank.end(),
                     [&](PageId a, PageId b) { return degree(a) > degree(b); });
  } else if (order == PageOrder::kUrl) {
    std::vector<std::string> key(pages);
#pragma omp parallel for schedule(dynamic, 4096) if (pages >= (1 << 14))
    for (std::int64_t u = 0; u < static_cast<std::int64_t>(pages); ++u) {
      key[u] = url_order_key(label(static_cast<PageId>(u)));
    }
    std::stable_sort(by_rank.begin(), by_rank.end(),
                     [&](PageId a, PageId b) { return key[a] < key[b]; });
  }
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
