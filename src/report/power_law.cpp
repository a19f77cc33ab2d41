// Power-law fits by maximum likelihood with the x_min of least Kolmogorov–Smirnov distance
// (Clauset, Shalizi and Newman 2009; webrank/report/report.hpp).
#include <algorithm>
#include <cmath>

#include "webrank/report/report.hpp"

namespace webrank {

PowerLawFit fit_power_law(std::span<const double> values, bool integers) {
  std::vector<double> x;
  for (double v : values) {
    if (v > 0 && std::isfinite(v)) x.push_back(v);
  }
  std::sort(x.begin(), x.end());
  constexpr std::size_t kMaxValues = std::size_t{1} << 20;
  if (x.size() > kMaxValues) {  // evenly spaced in order: the same distribution, bounded work
    std::vector<double> sample(kMaxValues);
    for (std::size_t i = 0; i < kMaxValues; ++i) sample[i] = x[i * x.size() / kMaxValues];
    x.swap(sample);
  }
  PowerLawFit best;
  const std::size_t n = x.size();
  if (n < 10 || x.front() == x.back()) return best;
  // Prefix sums of ln x, so the likelihood of every candidate x_min costs O(1).
  std::vector<double> log_suffix(n + 1, 0.0);
  for (std::size_t i = n; i-- > 0;) log_suffix[i] = log_suffix[i + 1] + std::log(x[i]);
  // Candidates: the first index of each distinct value, thinned to about 200 whose tails shrink
  // geometrically from all values to 10.
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i + 10 <= n; ++i) {
    if (i == 0 || x[i] != x[i - 1]) starts.push_back(i);
  }
  if (starts.size() > 200) {
    std::vector<std::size_t> thinned;
    double next_tail = static_cast<double>(n);
    for (std::size_t s : starts) {
      if (static_cast<double>(n - s) <= next_tail) {
        thinned.push_back(s);
        next_tail = static_cast<double>(n - s) / 1.04;
      }
    }
    starts.swap(thinned);
  }
  best.ks = INFINITY;
  for (std::size_t s : starts) {
    const double x_min = x[s];
    const double shift = integers ? x_min - 0.5 : x_min;
    if (!(shift > 0)) continue;
    const auto tail = static_cast<double>(n - s);
    const double sum_log = log_suffix[s] - tail * std::log(shift);
    if (!(sum_log > 0)) continue;
    const double alpha = 1 + tail / sum_log;
    // KS distance between the empirical and the fitted P(X >= x) at each distinct value.
    double ks = 0;
    for (std::size_t i = s; i < n;) {
      const double emp = static_cast<double>(n - i) / tail;
      const double fit = std::pow((integers ? x[i] - 0.5 : x[i]) / shift, 1 - alpha);
      ks = std::max(ks, std::abs(emp - fit));
      std::size_t j = i;
      while (j < n && x[j] == x[i]) ++j;
      // Just past the last of the ties, the empirical CCDF has dropped.
      const double emp_after = static_cast<double>(n - j) / tail;
      ks = std::max(ks, std::abs(emp_after - fit));
      i = j;
    }
    if (ks < best.ks) {
      best.ok = true;
      best.alpha = alpha;
      best.x_min = x_min;
      best.tail = n - s;
      best.ks = ks;
      best.tail_fraction = tail / static_cast<double>(n);
    }
  }
  if (!best.ok) best.ks = 0;
  return best;
}

}  // namespace webrank
