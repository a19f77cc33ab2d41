// Rank vectors side by side (webrank/rank/compare.hpp).
#include "webrank/rank/compare.hpp"

#include <algorithm>

#include "webrank/rank/presentation.hpp"
#include "webrank/util/error.hpp"

namespace webrank {

ViewComparison compare_views(const Database& db, const std::vector<std::string>& names,
                             const std::vector<std::span<const double>>& vectors,
                             const std::vector<PageId>& pages) {
  if (names.size() != vectors.size())
    fail(ErrorKind::kInvalidArgument, names.size(), " view names for ", vectors.size(), " vectors");
  const PageId n = db.num_pages();
  ViewComparison c;
  c.views = names;
  std::vector<std::vector<double>> sorted;
  for (std::size_t i = 0; i < vectors.size(); ++i) {
    if (vectors[i].size() != n)
      fail(ErrorKind::kInvalidArgument, "view '", names[i], "' has ", vectors[i].size(),
           " ranks, the database ", n, " pages");
    sorted.emplace_back(vectors[i].begin(), vectors[i].end());
    std::sort(sorted.back().begin(), sorted.back().end());
  }
  for (PageId u : pages) {
    if (u >= n)
      fail(ErrorKind::kInvalidArgument, "page id ", u, " is out of range (", n, " pages)");
    ViewComparison::Row row;
    row.page = u;
    row.label = db.label(u);
    if (const auto title = db.title(u)) row.title = std::string(*title);
    for (std::size_t i = 0; i < vectors.size(); ++i) {
      const double r = vectors[i][u];
      const auto at_or_below =
          std::upper_bound(sorted[i].begin(), sorted[i].end(), r) - sorted[i].begin();
      row.ranks.push_back(r);
      row.percentiles.push_back(100.0 * static_cast<double>(at_or_below) / static_cast<double>(n));
    }
    c.rows.push_back(std::move(row));
  }
  return c;
}

std::vector<PageId> top_pages_of_views(const std::vector<std::span<const double>>& vectors,
                                       std::size_t k) {
  std::vector<PageId> pages;
  for (const auto& v : vectors) {
    for (const TopEntry& t : top_pages(v, k)) pages.push_back(t.page);
  }
  std::sort(pages.begin(), pages.end());
  pages.erase(std::unique(pages.begin(), pages.end()), pages.end());
  if (!vectors.empty()) {
    const auto& first = vectors.front();
    std::sort(pages.begin(), pages.end(), [&](PageId a, PageId b) {
      return first[a] > first[b] || (first[a] == first[b] && a < b);
    });
  }
  return pages;
}

}  // namespace webrank
