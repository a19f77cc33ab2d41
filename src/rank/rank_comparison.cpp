// compare_ranks() and the rank correlations (webrank/rank/rank_comparison.hpp).
#include "webrank/rank/rank_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "webrank/rank/presentation.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

// Σ t(t−1)/2 over the runs of equal values of `v` at positions `order` (sorted by v).
template <typename Key>
double tied_pairs(std::span<const std::uint64_t> order, const Key& key) {
  double pairs = 0, run = 1;
  for (std::size_t i = 1; i <= order.size(); ++i) {
    if (i < order.size() && key(order[i]) == key(order[i - 1])) {
      ++run;
    } else {
      pairs += run * (run - 1) / 2;
      run = 1;
    }
  }
  return pairs;
}

// Sorts order[lo, hi) by b with a merge sort, returning the number of swaps (pairs out of order).
double merge_count(std::vector<std::uint64_t>& order, std::vector<std::uint64_t>& scratch,
                   std::size_t lo, std::size_t hi, std::span<const double> b) {
  if (hi - lo < 2) return 0;
  const std::size_t mid = lo + (hi - lo) / 2;
  double swaps = merge_count(order, scratch, lo, mid, b) + merge_count(order, scratch, mid, hi, b);
  std::size_t i = lo, j = mid, k = lo;
  while (i < mid && j < hi) {
    if (b[order[j]] < b[order[i]]) {
      swaps += static_cast<double>(mid - i);
      scratch[k++] = order[j++];
    } else {
      scratch[k++] = order[i++];
    }
  }
  while (i < mid) scratch[k++] = order[i++];
  while (j < hi) scratch[k++] = order[j++];
  std::copy(scratch.begin() + static_cast<std::ptrdiff_t>(lo),
            scratch.begin() + static_cast<std::ptrdiff_t>(hi),
            order.begin() + static_cast<std::ptrdiff_t>(lo));
  return swaps;
}

// Average ranks (1-based; ties get the mean of the ranks they span).
std::vector<double> average_ranks(std::span<const double> v) {
  std::vector<std::uint64_t> order(v.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](auto x, auto y) { return v[x] < v[y]; });
  std::vector<double> rank(v.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]]) ++j;
    const double mean = (static_cast<double>(i) + static_cast<double>(j)) / 2 + 1;
    for (std::size_t t = i; t <= j; ++t) rank[order[t]] = mean;
    i = j + 1;
  }
  return rank;
}

std::vector<std::uint64_t> top_set(std::span<const double> v, std::uint64_t k) {
  std::vector<std::uint64_t> ids;
  for (const TopEntry& t : top_pages(v, k)) ids.push_back(t.page);
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace

double kendall_tau_b(std::span<const double> a, std::span<const double> b) {
  const std::size_t n = a.size();
  std::vector<std::uint64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](auto x, auto y) { return a[x] < a[y] || (a[x] == a[y] && b[x] < b[y]); });
  const double tied_a = tied_pairs(order, [&](auto i) { return a[i]; });
  const double tied_both = tied_pairs(order, [&](auto i) { return std::pair(a[i], b[i]); });
  std::vector<std::uint64_t> scratch(n);
  const double swaps = merge_count(order, scratch, 0, n, b);  // leaves order sorted by b
  const double tied_b = tied_pairs(order, [&](auto i) { return b[i]; });
  const double pairs = static_cast<double>(n) * static_cast<double>(n - 1) / 2;
  const double denominator = std::sqrt((pairs - tied_a) * (pairs - tied_b));
  if (!(denominator > 0)) return NAN;
  return (pairs - tied_a - tied_b + tied_both - 2 * swaps) / denominator;
}

double spearman_rho(std::span<const double> a, std::span<const double> b) {
  const std::vector<double> ra = average_ranks(a), rb = average_ranks(b);
  const double mean = (static_cast<double>(a.size()) + 1) / 2;
  double sab = 0, saa = 0, sbb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    sab += (ra[i] - mean) * (rb[i] - mean);
    saa += (ra[i] - mean) * (ra[i] - mean);
    sbb += (rb[i] - mean) * (rb[i] - mean);
  }
  if (!(saa > 0 && sbb > 0)) return NAN;
  return sab / std::sqrt(saa * sbb);
}

RankComparison compare_ranks(std::span<const double> a, std::span<const double> b,
                             std::span<const std::uint64_t> ks) {
  if (a.size() != b.size() || a.empty())
    fail(ErrorKind::kInvalidArgument, "the vectors to compare have ", a.size(), " and ", b.size(),
         " values; they need the same number, at least 1");
  RankComparison c;
  c.pages = a.size();
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double d = std::abs(a[i] - b[i]);
    c.l1 += d;
    if (d > c.max_difference) {
      c.max_difference = d;
      c.max_difference_at = i;
    }
  }
  c.kendall_tau = kendall_tau_b(a, b);
  c.spearman = spearman_rho(a, b);
  for (std::uint64_t k : ks) {
    k = std::min<std::uint64_t>(k, a.size());
    if (k == 0 || std::any_of(c.top.begin(), c.top.end(), [&](auto& t) { return t.k == k; }))
      continue;
    const auto ta = top_set(a, k), tb = top_set(b, k);
    std::vector<std::uint64_t> both;
    std::set_intersection(ta.begin(), ta.end(), tb.begin(), tb.end(), std::back_inserter(both));
    c.top.push_back({k, both.size(), static_cast<double>(both.size()) / static_cast<double>(k)});
  }
  return c;
}

}  // namespace webrank
