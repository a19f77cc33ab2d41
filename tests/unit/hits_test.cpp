// HITS (webrank/rank/hits.hpp) on webs whose hubs and authorities are known in closed form.
#include "webrank/rank/hits.hpp"
#include "webrank/writer/owned_graph.hpp"

#include <cmath>
#include <stop_token>

#include "test_graphs.hpp"
#include "webrank/util/error.hpp"

namespace webrank::testing {
namespace {

HitsOptions tight() {
  HitsOptions o;
  o.tol = 1e-14;
  return o;
}

TEST(Hits, AStarHasOneHubAndEqualAuthorities) {
  LabeledWeb w;
  for (const char* leaf : {"b", "c", "d", "e"}) w.link("hub", leaf);
  const OwnedGraph g = w.graph();
  const HitsResult r = compute_hits(g.view(), tight());
  EXPECT_TRUE(r.converged);
  EXPECT_DOUBLE_EQ(r.hubs[0], 1);
  EXPECT_DOUBLE_EQ(r.authorities[0], 0);
  for (PageId leaf = 1; leaf <= 4; ++leaf) {
    EXPECT_DOUBLE_EQ(r.authorities[leaf], 0.25);
    EXPECT_DOUBLE_EQ(r.hubs[leaf], 0);
  }
}

TEST(Hits, TheGoldenRatioWeb) {
  // A -> C, A -> D, B -> C: AᵀA = [[2, 1], [1, 1]] on (C, D), whose principal eigenvector is
  // (φ, 1): authorities C = 1/φ, D = 1/φ² after normalization, and hubs A = 1/φ, B = 1/φ².
  LabeledWeb w;
  w.link("A", "C").link("A", "D").link("B", "C");
  const OwnedGraph g = w.graph();
  const HitsResult r = compute_hits(g.view(), tight());
  const double phi = (1 + std::sqrt(5.0)) / 2;
  EXPECT_NEAR(r.authorities[w.ids["C"]], 1 / phi, 1e-13);
  EXPECT_NEAR(r.authorities[w.ids["D"]], 1 / (phi * phi), 1e-13);
  EXPECT_NEAR(r.hubs[w.ids["A"]], 1 / phi, 1e-13);
  EXPECT_NEAR(r.hubs[w.ids["B"]], 1 / (phi * phi), 1e-13);
  EXPECT_EQ(r.hubs[w.ids["C"]], 0);
  // Weights scale the links: doubling every weight changes nothing, and a weight of 2 on B -> C
  // gives AᵀA = [[5, 1], [1, 1]] (C = (2 + √5)/(3 + √5) of the authority).
  LabeledWeb heavy = w;
  heavy.weighted = true;
  for (auto& l : heavy.links) l.weight = 2;
  EXPECT_LT(l1(compute_hits(heavy.graph().view(), tight()).authorities, r.authorities), 1e-13);
  heavy.links.back().weight = 4;  // B -> C = 2 × the others
  const double c = (2 + std::sqrt(5.0)) / (3 + std::sqrt(5.0));
  EXPECT_NEAR(compute_hits(heavy.graph().view(), tight()).authorities[heavy.ids["C"]], c, 1e-13);
}

TEST(Hits, RefusesWhatItCannotRank) {
  LabeledWeb pages;
  pages.page("a").page("b");
  try {
    compute_hits(pages.graph().view(), tight());
    FAIL() << "a web without links was ranked";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInvalidArgument);
  }
  LabeledWeb w;
  w.link("a", "b");
  HitsOptions o = tight();
  o.tol = 0;
  EXPECT_THROW(compute_hits(w.graph().view(), o), Error);
  std::stop_source stop;
  stop.request_stop();
  o = tight();
  o.stop = stop.get_token();
  try {
    compute_hits(w.graph().view(), o);
    FAIL() << "not stopped";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kCancelled);
  }
}

TEST(Hits, StopsAtTheIterationCap) {
  const LabeledWeb w = random_web(300, 1500, 4);
  HitsOptions o = tight();
  o.max_iter = 3;
  const HitsResult r = compute_hits(w.graph().view(), o);
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.iterations, 3);
  EXPECT_EQ(r.deltas.size(), 3u);
}

}  // namespace
}  // namespace webrank::testing
