#include "webrank/search/links.hpp"

#include <algorithm>

namespace webrank {
namespace {

// Orders `pages` by rank, highest first, ties by smaller id, keeping only [offset, offset + k).
void order_by_rank(std::vector<PageId>& pages, const PresentedRanks& ranks, std::size_t offset,
                   std::size_t k) {
  const auto r = ranks.values();
  auto higher = [&](PageId a, PageId b) { return r[a] > r[b] || (r[a] == r[b] && a < b); };
  const std::size_t keep = std::min(pages.size(), offset + k);
  std::partial_sort(pages.begin(), pages.begin() + static_cast<std::ptrdiff_t>(keep), pages.end(),
                    higher);
  pages.resize(keep);
  pages.erase(pages.begin(), pages.begin() + static_cast<std::ptrdiff_t>(std::min(offset, keep)));
}

// The pages of `linked` but `page`: a page's link to itself counts in its rank (an ordinary
// out-link of the model) but is no other page citing it (`page` reports it as self_link).
template <typename Pages>
std::vector<PageId> others(const Pages& linked, PageId page) {
  std::vector<PageId> out;
  out.reserve(linked.size());
  for (PageId p : linked) {
    if (p != page) out.push_back(p);
  }
  return out;
}

}  // namespace

Backlinks backlinks(const Database& db, const PresentedRanks& ranks, PageId page, std::size_t k,
                    std::size_t offset) {
  const auto in = db.graph().in.neighbors(page);
  std::vector<PageId> sources = others(in, page);
  Backlinks b;
  b.total = sources.size();
  order_by_rank(sources, ranks, offset, k);
  for (PageId s : sources) b.pages.push_back(ranks.page(db, s));
  return b;
}

std::vector<ForwardLink> forward_links(const Database& db, const PresentedRanks& ranks,
                                       PageId page) {
  std::vector<PageId> followed = others(db.graph().out.neighbors(page), page);
  std::vector<PageId> nofollow = others(db.nofollow_links(page), page);
  order_by_rank(followed, ranks, 0, followed.size());
  order_by_rank(nofollow, ranks, 0, nofollow.size());
  std::vector<ForwardLink> links;
  for (PageId t : followed) links.push_back({ranks.page(db, t), false});
  for (PageId t : nofollow) links.push_back({ranks.page(db, t), true});
  return links;
}

}  // namespace webrank
