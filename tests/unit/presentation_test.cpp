// The presentation scales of docs/ranking.md.
#include "webrank/presentation.hpp"

#include "test_graphs.hpp"

namespace webrank::testing {
namespace {

TEST(Presentation, PercentilesCountPagesAtOrBelow) {
  const std::vector<double> r{0.1, 0.4, 0.1, 0.3, 0.1};
  auto top = top_pages(r, 5);
  ASSERT_EQ(top.size(), 5u);
  EXPECT_EQ(top[0].page, 1u);
  EXPECT_DOUBLE_EQ(top[0].percentile, 100);
  EXPECT_DOUBLE_EQ(top[1].percentile, 80);
  EXPECT_EQ(top[2].page, 0u);  // ties by smaller id
  EXPECT_DOUBLE_EQ(top[2].percentile, 60);
  EXPECT_DOUBLE_EQ(top[4].percentile, 60);
  EXPECT_EQ(top_pages(r, 2).size(), 2u);
  EXPECT_EQ(top_pages(r, 99).size(), 5u);
}

TEST(Presentation, LogBarAndToolbar) {
  const std::vector<double> r{1e-6, 1e-4, 1e-2, 0.0};
  RankScale s = make_rank_scale(r);
  EXPECT_DOUBLE_EQ(s.max_rank, 1e-2);
  EXPECT_DOUBLE_EQ(s.min_rank, 1e-6);
  EXPECT_DOUBLE_EQ(s.bar_percent(1e-2), 100);
  EXPECT_NEAR(s.bar_percent(1e-4), 50, 1e-9);
  EXPECT_DOUBLE_EQ(s.bar_percent(1e-6), 0);
  EXPECT_DOUBLE_EQ(s.bar_percent(0), 0);
  EXPECT_EQ(s.toolbar(1e-2), 10);
  EXPECT_EQ(s.toolbar(1e-4), 5);  // floor(11 · 0.5)
  EXPECT_EQ(s.toolbar(1e-6), 0);
  EXPECT_EQ(s.toolbar(0), 0);
  RankScale flat = make_rank_scale(std::vector<double>{0.5, 0.5});
  EXPECT_DOUBLE_EQ(flat.bar_percent(0.5), 100);
  EXPECT_EQ(flat.toolbar(0.5), 10);
}

}  // namespace
}  // namespace webrank::testing
