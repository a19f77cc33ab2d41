#include <algorithm>
#include <cmath>

#include "rank/solver.hpp"
#include "webrank/util/error.hpp"

namespace webrank {

Distribution Distribution::uniform(PageId n) {
  Distribution d;
  d.uniform_value = 1.0 / static_cast<double>(n);
  return d;
}

Distribution Distribution::from_weights(const PageWeights& weights, PageId n, const char* what,
                                        PageId first, PageId count) {
  if (weights.empty()) return uniform(n);
  Distribution d;
  d.dense.assign(count, 0.0);
  double largest = 0;
  for (const auto& [page, w] : weights) {
    if (page >= n) fail_option(what, "names page id ", page, ", out of range (", n, " pages)");
    if (!std::isfinite(w) || w < 0)
      fail_option(what, "gives page ", page, " the weight ", w, ", not a finite number >= 0");
    largest = std::max(largest, w);
  }
  if (!(largest > 0))
    fail_option(what, "has only zero weights; at least one page needs a positive weight");
  // Scaled by the largest before they are added: finite weights may have no finite sum
  // (1e308 + 1e308), which would make every page's share 0.
  double sum = 0;
  for (const auto& [page, w] : weights) {
    if (page >= first && page - first < count) d.dense[page - first] += w / largest;
    sum += w / largest;
  }
  for (double& x : d.dense) x /= sum;
  return d;
}

}  // namespace webrank
