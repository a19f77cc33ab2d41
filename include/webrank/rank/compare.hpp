// Rank vectors side by side: the paper's Table 2 ("Page Ranks for Two Different Views:
// Netscape vs John McCarthy"), the percentile of chosen pages in each view.
//
// A view is any stored rank vector (a personalized rank, a topic, TrustRank...). Percentiles are
// those of `webrank top` (docs/ranking.md): 100·|{v : R(v) <= R(u)}|/N.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "webrank/store/database.hpp"

namespace webrank {

struct ViewComparison {
  struct Row {
    PageId page = kNoPage;
    std::string label;
    std::optional<std::string> title;  // crawled webs
    std::vector<double> ranks;         // one per view
    std::vector<double> percentiles;   // one per view
  };
  std::vector<std::string> views;
  std::vector<Row> rows;
};

// The percentile of every page of `pages` in every vector of `vectors` (each of the database's
// size; names[i] names vectors[i]). Rows come in the order of `pages`.
ViewComparison compare_views(const Database& db, const std::vector<std::string>& names,
                             const std::vector<std::span<const double>>& vectors,
                             const std::vector<PageId>& pages);

// The pages a comparison shows when none are chosen: the k highest of each view (ties by
// smaller id), each once, ordered by the first view's rank (highest first, ties by smaller id).
std::vector<PageId> top_pages_of_views(const std::vector<std::span<const double>>& vectors,
                                       std::size_t k);

}  // namespace webrank
