#include "rank/stored_formulation.hpp"

#include <algorithm>
#include <cmath>

#include "webrank/util/error.hpp"

namespace webrank {
namespace {

// A stored distribution, normalized to sum 1.
std::vector<double> stored_distribution(const StoredWeights& w, PageId n, const char* what,
                                        const std::string& name) {
  const auto& pages = w.pages;
  const auto& weights = w.weights;
  std::vector<double> d(n, 0.0);
  double largest = 0;
  for (std::size_t i = 0; i < pages.size(); ++i) {
    if (pages[i] >= n) {
      fail(ErrorKind::kCorrupt, "rank vector '", name, "': its ", what, " names page ", pages[i],
           " of ", n);
    }
    if (!std::isfinite(weights[i]) || weights[i] < 0) {
      fail(ErrorKind::kCorrupt, "rank vector '", name, "': its ", what, " gives page ", pages[i],
           " the weight ", weights[i]);
    }
    largest = std::max(largest, weights[i]);
  }
  if (!(largest > 0)) fail(ErrorKind::kCorrupt, "rank vector '", name, "': its ", what, " is zero");
  // Scaled by the largest before they are added, as the solvers do (rank/distribution.cpp).
  double sum = 0;
  for (std::size_t i = 0; i < pages.size(); ++i) {
    d[pages[i]] += weights[i] / largest;
    sum += weights[i] / largest;
  }
  for (double& x : d) x /= sum;
  return d;
}

}  // namespace

StoredFormulation stored_formulation(const VectorRecord& r, PageId n) {
  StoredFormulation f;
  f.pages = n;
  if (!r.is_pagerank() || !r.damping) {
    f.not_a_fixed_point = "it is not a PageRank vector (algorithm " + r.algorithm + ")";
    return f;
  }
  f.damping = *r.damping;
  if (r.dangling == "remove") {
    f.not_a_fixed_point =
        "computed with dangling pages removed and added back (--dangling remove): not the fixed "
        "point of an iteration over the whole web";
    return f;
  }
  if (r.personalized) {
    if (!r.source_weights) {
      f.not_a_fixed_point = "its rank source is not stored (more pages than the metadata keeps)";
      return f;
    }
    f.source = stored_distribution(*r.source_weights, n, "rank source", r.name);
  }
  if (r.dangling == "custom") {
    if (!r.dangling_weights) {
      f.not_a_fixed_point =
          "its dangling weights are not stored (more pages than the metadata keeps)";
      return f;
    }
    f.dangling_to = stored_distribution(*r.dangling_weights, n, "dangling weights", r.name);
  } else if (r.dangling == "uniform") {
    f.dangling_to.assign(n, 1.0 / n);
  }
  f.leak = r.dangling == "leak";
  return f;
}

}  // namespace webrank
