// PageRank against usage (webrank/studies/usage.hpp): correlations from
// webrank/rank/rank_comparison.hpp, the two lists by percentile gap.
#include <algorithm>
#include <cmath>

#include "webrank/rank/presentation.hpp"
#include "webrank/rank/rank_comparison.hpp"
#include "webrank/studies/usage.hpp"
#include "webrank/util/error.hpp"

namespace webrank {

UsageComparison compare_usage(const Database& db, const std::vector<double>& visits,
                              const std::vector<double>& ranks, const std::string& vector_name,
                              std::size_t k) {
  const PageId n = db.num_pages();
  if (visits.size() != n || ranks.size() != n) {
    fail(ErrorKind::kInvalidArgument, "usage and rank vectors must have one value per page (", n,
         "), got ", visits.size(), " and ", ranks.size());
  }
  UsageComparison c;
  c.vector = vector_name;
  c.pages = n;
  std::vector<double> visited_usage, visited_rank;
  for (PageId u = 0; u < n; ++u) {
    c.total_visits += visits[u];
    if (visits[u] > 0) {
      visited_usage.push_back(visits[u]);
      visited_rank.push_back(ranks[u]);
    }
  }
  c.visited_pages = visited_usage.size();
  c.spearman = spearman_rho(visits, ranks);
  c.kendall = kendall_tau_b(visits, ranks);
  c.spearman_visited = visited_usage.size() > 1 ? spearman_rho(visited_usage, visited_rank) : NAN;
  c.kendall_visited = visited_usage.size() > 1 ? kendall_tau_b(visited_usage, visited_rank) : NAN;

  const std::vector<double> up = percentiles(visits), rp = percentiles(ranks);
  auto list = [&](bool usage_high) {
    // A page of no visits is no page of high usage, however low its rank (and a page of rank 0
    // none of high rank): zero ties share a high percentile, which would list them otherwise.
    std::vector<PageId> order;
    for (PageId u = 0; u < n; ++u) {
      if ((usage_high ? visits[u] : ranks[u]) > 0) order.push_back(u);
    }
    // The gap in the list's direction; ties by the larger value of the high side.
    auto gap = [&](PageId u) { return usage_high ? up[u] - rp[u] : rp[u] - up[u]; };
    auto before = [&](PageId a, PageId b) {
      if (gap(a) != gap(b)) return gap(a) > gap(b);
      const double xa = usage_high ? visits[a] : ranks[a], xb = usage_high ? visits[b] : ranks[b];
      if (xa != xb) return xa > xb;
      return a < b;
    };
    const std::size_t m = std::min<std::size_t>(k, order.size());
    std::partial_sort(order.begin(), order.begin() + m, order.end(), before);
    std::vector<UsagePage> pages;
    for (std::size_t i = 0; i < m; ++i) {
      const PageId u = order[i];
      if (gap(u) <= 0) break;  // the orders agree from here on
      pages.push_back({u, std::string(db.label(u)), visits[u], up[u], ranks[u], rp[u]});
    }
    return pages;
  };
  c.high_usage_low_rank = list(true);
  c.high_rank_low_usage = list(false);
  return c;
}

}  // namespace webrank
