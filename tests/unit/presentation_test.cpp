// The presentation scales of docs/ranking.md.
#include "webrank/rank/presentation.hpp"

#include <cmath>

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

TEST(Presentation, TheScaleSpansAtLeastAFactorNBelowTheTop) {
  // The paper's 3-page web (d = 0.85): the lowest page is not at 0 just for being the lowest.
  const std::vector<double> fig3{0.38779, 0.214811, 0.3974};
  RankScale s = make_rank_scale(fig3);
  EXPECT_DOUBLE_EQ(s.floor, 0.3974 / 3);
  EXPECT_NEAR(s.bar_percent(0.214811), 100 * std::log(0.214811 * 3 / 0.3974) / std::log(3.0),
              1e-12);
  EXPECT_GT(s.bar_percent(0.214811), 40);
  EXPECT_EQ(s.toolbar(0.214811), 4);
  EXPECT_EQ(s.toolbar(0.38779), 10);
  // A page at half the top rank: 1 - ln 2 / ln 3 of the bar.
  s = make_rank_scale(std::vector<double>{0.4, 0.2, 0.4});
  EXPECT_NEAR(s.bar_percent(0.2), 100 * (1 - std::log(2.0) / std::log(3.0)), 1e-12);
  // One page: the top.
  s = make_rank_scale(std::vector<double>{1.0});
  EXPECT_DOUBLE_EQ(s.bar_percent(1.0), 100);
  EXPECT_EQ(s.toolbar(1.0), 10);
}

TEST(Presentation, PercentilesShowOnePagesStep) {
  EXPECT_EQ(percentile_decimals(3), 2);
  EXPECT_EQ(percentile_decimals(10'000), 2);
  EXPECT_EQ(percentile_decimals(10'001), 3);
  EXPECT_EQ(percentile_decimals(325'729), 4);
  EXPECT_EQ(percentile_decimals(1'000'000'000), 7);
  EXPECT_EQ(format_percentile(100.0 * 325'728 / 325'729, 325'729), "99.9997");
  EXPECT_EQ(format_percentile(100, 3), "100.00");
}

TEST(Presentation, PlaceOfAPage) {
  const std::vector<double> r{0.1, 0.4, 0.1, 0.3, 0.1};
  EXPECT_EQ(place_of(r, 1).position, 1u);
  EXPECT_DOUBLE_EQ(place_of(r, 1).percentile, 100);
  EXPECT_EQ(place_of(r, 2).position, 3u);  // ties share the smallest position
  EXPECT_DOUBLE_EQ(place_of(r, 2).percentile, 60);
}

TEST(Presentation, TextLayout) {
  const std::vector<std::string> site{"http://a.example:8080/x", "http://a.example:8080/",
                                      "http://a.example:8080"};
  EXPECT_EQ(common_origin(site), "http://a.example:8080");
  EXPECT_EQ(common_origin(std::vector<std::string>{"http://a.example/", "http://b.example/"}), "");
  // file:// labels have no host: the deepest folder they share stands for it.
  EXPECT_EQ(common_origin(std::vector<std::string>{"file:///tmp/a.html"}), "file:///tmp");
  EXPECT_EQ(common_origin(std::vector<std::string>{"file:///d/html/a.html", "file:///d/html/b/c",
                                                   "file:///d/html/abc.html"}),
            "file:///d/html");
  EXPECT_EQ(common_origin(std::vector<std::string>{"file:///a.html", "file:///b.html"}), "");
  EXPECT_EQ(common_origin(std::vector<std::string>{"file:///d/a.html", "http://x/d/a.html"}), "");
  EXPECT_EQ(common_origin(std::vector<std::string>{"17", "http://a.example/"}), "");
  EXPECT_EQ(elide_middle("/abcdefghij", 20), "/abcdefghij");
  EXPECT_EQ(elide_middle("/abcdefghij", 9), "/ab...hij");
  EXPECT_EQ(display_columns("Ä\u00e9x"), 3u);
  EXPECT_EQ(elide_middle("ÄÄÄÄÄÄÄÄÄÄ", 7), "ÄÄ...ÄÄ");
}

}  // namespace
}  // namespace webrank::testing
