// Presentation scales for rank values (the paper's tables and search results), defined in
// docs/ranking.md:
//   percentile  = 100 · |{v : R(v) <= R(u)}| / N          (the top page is at 100)
//   bar         = 100 · ln(R(u)/Rmin) / ln(Rmax/Rmin)      (log scale; top page 100, Rmin 0)
//   toolbar     = min(10, floor(11 · ln(R(u)/Rmin) / ln(Rmax/Rmin)))   (0–10, 11 equal log bins)
// where Rmax and Rmin are the largest and smallest positive ranks of the vector. A page of rank
// 0 gets bar 0 and toolbar 0; when all positive ranks are equal every such page gets 100 and 10.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "webrank/database.hpp"
#include "webrank/graph.hpp"

namespace webrank {

struct RankScale {
  double max_rank = 0;  // Rmax
  double min_rank = 0;  // Rmin (smallest positive)
  double bar_percent(double rank) const;
  int toolbar(double rank) const;
};

RankScale make_rank_scale(std::span<const double> ranks);

struct TopEntry {
  PageId page;
  double rank;
  double percentile;
};

// The k pages of highest rank (ties broken by smaller id), with their percentiles.
std::vector<TopEntry> top_pages(std::span<const double> ranks, std::size_t k);

// A page as the paper's result lists show it: its label, title (crawled webs), rank and the
// three scales. JSON form in webrank/json.hpp.
struct RankedPage {
  PageId page = kNoPage;
  std::string label;
  std::optional<std::string> title;
  double rank = 0, percentile = 0, bar = 0;
  int toolbar = 0;
};

// top_pages() of a vector of `db`, with labels, titles and scales.
std::vector<RankedPage> top_ranked_pages(const Database& db, std::span<const double> ranks,
                                         std::size_t k);

}  // namespace webrank
