#include <cmath>

#include "rank/solver.hpp"
#include "webrank/error.hpp"

namespace webrank {

Distribution Distribution::uniform(PageId n) {
  Distribution d;
  d.uniform_value = 1.0 / static_cast<double>(n);
  return d;
}

Distribution Distribution::from_weights(const PageWeights& weights, PageId n, const char* what) {
  if (weights.empty()) return uniform(n);
  Distribution d;
  d.dense.assign(n, 0.0);
  double sum = 0;
  for (const auto& [page, w] : weights) {
    if (page >= n) fail_option(what, "names page id ", page, ", out of range (", n, " pages)");
    if (!std::isfinite(w) || w < 0)
      fail_option(what, "gives page ", page, " the weight ", w, ", not a finite number >= 0");
    d.dense[page] += w;
    sum += w;
  }
  if (!(sum > 0))
    fail_option(what, "has only zero weights; at least one page needs a positive weight");
  for (double& x : d.dense) x /= sum;
  return d;
}

template <typename Real>
FreshVector<Real> inverse_out_strength(const GraphView& g) {
  FreshVector<Real> inv(g.num_pages);
#pragma omp parallel for schedule(static) if (g.num_pages >= kMinParallelPages)
  for (std::int64_t v = 0; v < static_cast<std::int64_t>(g.num_pages); ++v) {
    double s = 0;
    if (g.weighted()) {
      for (double w : g.out.neighbor_weights(static_cast<PageId>(v))) s += w;
    } else {
      s = static_cast<double>(g.out.degree(static_cast<PageId>(v)));
    }
    inv[v] = static_cast<Real>(s > 0 ? 1.0 / s : 0.0);
  }
  return inv;
}
template FreshVector<float> inverse_out_strength<float>(const GraphView& g);
template FreshVector<double> inverse_out_strength<double>(const GraphView& g);

}  // namespace webrank
