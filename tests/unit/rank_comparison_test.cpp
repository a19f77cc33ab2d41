// Rank correlations (webrank/rank/rank_comparison.hpp) against their definitions, pair by pair.
#include "webrank/rank/rank_comparison.hpp"

#include <cmath>
#include <random>

#include "test_graphs.hpp"
#include "webrank/util/error.hpp"

namespace webrank::testing {
namespace {

// Kendall's tau-b by its definition: every pair of indices.
double tau_b_by_pairs(const std::vector<double>& a, const std::vector<double>& b) {
  double concordant = 0, discordant = 0, tied_a = 0, tied_b = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (std::size_t j = i + 1; j < a.size(); ++j) {
      const double x = a[i] - a[j], y = b[i] - b[j];
      if (x == 0 && y == 0) continue;
      if (x == 0) {
        ++tied_a;
      } else if (y == 0) {
        ++tied_b;
      } else if ((x > 0) == (y > 0)) {
        ++concordant;
      } else {
        ++discordant;
      }
    }
  }
  return (concordant - discordant) /
         std::sqrt((concordant + discordant + tied_a) * (concordant + discordant + tied_b));
}

TEST(RankComparison, KendallTauMatchesItsDefinitionWithTies) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    const int n = 2 + trial * 7;
    std::uniform_int_distribution<int> few(0, 1 + trial % 5);  // many ties
    std::vector<double> a(n), b(n);
    for (int i = 0; i < n; ++i) {
      a[i] = few(rng);
      b[i] = few(rng) + 0.5 * a[i];
    }
    const double want = tau_b_by_pairs(a, b);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(kendall_tau_b(a, b)));
    } else {
      EXPECT_NEAR(kendall_tau_b(a, b), want, 1e-12) << "n = " << n;
    }
  }
}

TEST(RankComparison, ExtremesAndOverlap) {
  const std::vector<double> a{0.1, 0.4, 0.2, 0.3}, reversed{0.4, 0.1, 0.3, 0.2};
  EXPECT_DOUBLE_EQ(kendall_tau_b(a, a), 1);
  EXPECT_DOUBLE_EQ(kendall_tau_b(a, reversed), -1);
  EXPECT_DOUBLE_EQ(spearman_rho(a, a), 1);
  EXPECT_DOUBLE_EQ(spearman_rho(a, reversed), -1);
  EXPECT_TRUE(std::isnan(spearman_rho(a, std::vector<double>(4, 0.25))));
  const std::vector<std::uint64_t> ks{1, 2, 9};
  const RankComparison c = compare_ranks(a, reversed, ks);
  EXPECT_NEAR(c.l1, 0.3 + 0.3 + 0.1 + 0.1, 1e-15);
  EXPECT_DOUBLE_EQ(c.max_difference, 0.3);
  ASSERT_EQ(c.top.size(), 3u);
  EXPECT_EQ(c.top[0].shared, 0u);  // page 1 against page 0
  EXPECT_EQ(c.top[1].shared, 0u);  // {1, 3} against {0, 2}
  EXPECT_EQ(c.top[2].k, 4u);       // capped at the pages
  EXPECT_EQ(c.top[2].shared, 4u);
  EXPECT_THROW(compare_ranks(a, std::vector<double>{1.0}, ks), Error);
}

}  // namespace
}  // namespace webrank::testing
