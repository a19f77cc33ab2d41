#include "webrank/presentation.hpp"

#include <algorithm>
#include <cmath>

namespace webrank {

RankScale make_rank_scale(std::span<const double> ranks) {
  RankScale s;
  s.min_rank = INFINITY;
  for (double r : ranks) {
    if (r > 0) {
      s.max_rank = std::max(s.max_rank, r);
      s.min_rank = std::min(s.min_rank, r);
    }
  }
  if (!std::isfinite(s.min_rank)) s.min_rank = 0;
  return s;
}

double RankScale::bar_percent(double rank) const {
  if (!(rank > 0) || max_rank <= 0) return 0;
  if (max_rank == min_rank) return 100;
  return std::clamp(100 * std::log(rank / min_rank) / std::log(max_rank / min_rank), 0.0, 100.0);
}

int RankScale::toolbar(double rank) const {
  if (!(rank > 0) || max_rank <= 0) return 0;
  if (max_rank == min_rank) return 10;
  const double x = 11 * std::log(rank / min_rank) / std::log(max_rank / min_rank);
  return std::clamp(static_cast<int>(std::floor(x)), 0, 10);
}

std::vector<TopEntry> top_pages(std::span<const double> ranks, std::size_t k) {
  const std::size_t n = ranks.size();
  k = std::min(k, n);
  std::vector<PageId> ids(n);
  for (std::size_t i = 0; i < n; ++i) ids[i] = static_cast<PageId>(i);
  auto higher = [&](PageId a, PageId b) {
    return ranks[a] > ranks[b] || (ranks[a] == ranks[b] && a < b);
  };
  std::partial_sort(ids.begin(), ids.begin() + k, ids.end(), higher);
  std::vector<TopEntry> top;
  // Pages ranked strictly higher than a top-k page are all within the top k, so its percentile
  // 100·|{v : R(v) <= R(u)}|/N follows from its position among the ties.
  std::size_t greater = 0;
  for (std::size_t i = 0; i < k; ++i) {
    if (i > 0 && ranks[ids[i]] < ranks[ids[i - 1]]) greater = i;
    top.push_back(
        {ids[i], ranks[ids[i]], 100.0 * static_cast<double>(n - greater) / static_cast<double>(n)});
  }
  return top;
}

std::vector<RankedPage> top_ranked_pages(const Database& db, std::span<const double> ranks,
                                         std::size_t k) {
  const RankScale scale = make_rank_scale(ranks);
  std::vector<RankedPage> pages;
  for (const TopEntry& t : top_pages(ranks, k)) {
    RankedPage p;
    p.page = t.page;
    p.label = db.label(t.page);
    if (const auto title = db.title(t.page)) p.title = std::string(*title);
    p.rank = t.rank;
    p.percentile = t.percentile;
    p.bar = scale.bar_percent(t.rank);
    p.toolbar = scale.toolbar(t.rank);
    pages.push_back(std::move(p));
  }
  return pages;
}

}  // namespace webrank
