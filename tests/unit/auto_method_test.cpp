// The rules of --method auto (rank/auto_method.hpp): what the cost model chooses for a web's
// shape, a probe's changes and a thread count; and on small webs, that the choice is reported
// with its reasons and the ranks are those of the method it names. No timings: the rules are
// functions of counts.
#include "rank/auto_method.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "test_graphs.hpp"
#include "webrank/rank/rank.hpp"
#include "webrank/writer/owned_graph.hpp"

namespace webrank::testing {
namespace {

// A crawl's shape: links between nearby ids, most of them inside cycles.
WebShape crawl(double share_in_cycles, std::size_t closed) {
  WebShape w;
  w.pages = 300000;
  w.links = 1.5e6;
  w.cycle_pages = 0.4 * w.pages;
  w.cycle_links = share_in_cycles * w.links;
  w.cycles = 1000;
  w.closed_components = closed;
  w.local_share = 0.95;
  return w;
}

// A generated web's: links join pages anywhere, nearly all in one component.
WebShape scattered() {
  WebShape w = crawl(0.98, 0);
  w.local_share = 0.25;
  return w;
}

// The changes of k power iterations converging at `rate`.
ProbeOutcome probe(double rate, double closed_change = 0, int k = 4) {
  ProbeOutcome p;
  double change = 0.5;
  for (int i = 0; i < k; ++i, change *= rate) p.changes.push_back(change);
  p.closed_change = closed_change;
  return p;
}

ChoiceSettings at(int threads, double tol = 1e-10) {
  ChoiceSettings s;
  s.threads = threads;
  s.tol = tol;
  return s;
}

TEST(AutoMethod, FastMixingWebRunsPower) {
  // Rate 0.3: about 20 power iterations to 1e-10, and gauss-seidel would sweep the same web's
  // cycles nearly as often: power, at any thread count.
  for (int t : {1, 2, 16}) {
    const MethodChoice c = choose_method(scattered(), probe(0.3), at(t));
    EXPECT_EQ(c.method, Method::kPower) << t << ": " << c.reason;
    EXPECT_LT(c.power_work, c.gauss_seidel_work) << t;
    EXPECT_EQ(c.threads, t);
    EXPECT_NE(c.reason.find("power:"), std::string::npos) << c.reason;
  }
}

TEST(AutoMethod, ClosedComponentsHoldingPowerBackChooseGaussSeidelWithoutProbe) {
  // The rank the closed components hold changes by 0.05 in the first iteration and falls only
  // as d per iteration: about 130 power iterations to 1e-10. Even as many sweeps of a crawl's
  // cycles cost less: gauss-seidel at once.
  const WebShape web = crawl(0.6, 300);
  const std::optional<MethodChoice> c = choose_without_probe(web, 0.05, at(1));
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->method, Method::kGaussSeidel);
  EXPECT_NEAR(c->power_iterations, 1 + std::log(1e-10 / 0.05) / std::log(0.85), 1e-9);
  EXPECT_NE(c->reason.find("300 closed components"), std::string::npos) << c->reason;
  // Its sweeps are a bound there, not a prediction, and the sentence says so; every number is
  // labelled.
  EXPECT_EQ(c->reason.find("gauss-seidel: at most 124 sweeps"), 0u) << c->reason;
  EXPECT_NE(c->reason.find("(their work "), std::string::npos) << c->reason;
  // Without closed components (or when their rank is already settled) a probe must tell.
  EXPECT_FALSE(choose_without_probe(web, 0, at(1)).has_value());
  EXPECT_FALSE(choose_without_probe(web, 1e-12, at(1)).has_value());
}

TEST(AutoMethod, ThreadsFavourPower) {
  // Power's passes split evenly over threads, gauss-seidel's less so and with more sweeps: with
  // the same web and probe, once power is chosen at t threads it stays chosen above t, and
  // somewhere between 1 and 64 threads the choice flips on a web where gauss-seidel wins at 1.
  const WebShape web = crawl(0.9, 0);
  const ProbeOutcome p = probe(0.8);
  EXPECT_EQ(choose_method(web, p, at(1)).method, Method::kGaussSeidel);
  bool power = false;
  for (int t = 1; t <= 64; ++t) {
    const MethodChoice c = choose_method(web, p, at(t));
    if (power) {
      EXPECT_EQ(c.method, Method::kPower) << t;
    }
    power |= c.method == Method::kPower;
  }
  EXPECT_TRUE(power);
  // On a scattered web gauss-seidel scales worse still: the flip comes at fewer threads.
  const auto flip = [&](const WebShape& w) {
    for (int t = 1; t <= 64; ++t) {
      if (choose_method(w, p, at(t)).method == Method::kPower) return t;
    }
    return 65;
  };
  WebShape far = web;
  far.local_share = 0.25;
  EXPECT_LE(flip(far), flip(web));
}

TEST(AutoMethod, ChoiceDependsOnTolerance) {
  // The slow mode of closed components only matters to a tight tolerance: to 1e-3 the probe's
  // fast early rate wins for power; to 1e-12 the closed components' d-rate decides for
  // gauss-seidel.
  const WebShape web = crawl(0.5, 200);
  const ProbeOutcome p = probe(0.35, 1e-3);
  EXPECT_EQ(choose_method(web, p, at(1, 1e-3)).method, Method::kPower);
  EXPECT_EQ(choose_method(web, p, at(1, 1e-12)).method, Method::kGaussSeidel);
}

TEST(AutoMethod, RisingRateIsExtrapolated) {
  // A probe whose rate still rises (0.2, 0.4, 0.8) predicts more iterations than its last ratio
  // alone would: the rise is assumed to go on once more, capped at d.
  ProbeOutcome rising;
  rising.changes = {1, 0.2, 0.08, 0.064};
  ProbeOutcome steady;
  steady.changes = {1, 0.8, 0.64, 0.512};
  const MethodChoice a = choose_method(scattered(), rising, at(1));
  const MethodChoice b = choose_method(scattered(), steady, at(1));
  EXPECT_GT(a.power_iterations, 4 + std::log(1e-10 / 0.064) / std::log(0.8));
  EXPECT_LE(a.power_iterations, 4 + std::log(1e-10 / 0.064) / std::log(0.85) + 1);
  EXPECT_GT(b.power_iterations, 4);
}

RankResult run(const LabeledWeb& w, RankOptions o) {
  OwnedGraph g = w.graph();
  return compute_rank(g.view(), o);
}

// Closed components: pairs of pages linking only to each other, fed by a chain of pages.
LabeledWeb closed_pairs(int pairs) {
  LabeledWeb w;
  for (int i = 0; i < pairs; ++i) {
    const std::string a = "a" + std::to_string(i), b = "b" + std::to_string(i);
    w.link(a, b);
    w.link(b, a);
    w.link("f" + std::to_string(i), a);
    w.link("f" + std::to_string(i), "f" + std::to_string(i + 1));
  }
  return w;
}

TEST(AutoMethod, IsTheDefaultAndSaysWhatItChose) {
  EXPECT_EQ(RankOptions{}.method, Method::kAuto);
  RankOptions o;
  o.tol = 1e-12;
  o.max_iter = 10000;
  o.threads = 1;
  const LabeledWeb slow = closed_pairs(40);
  const RankResult r = run(slow, o);
  ASSERT_TRUE(r.choice.has_value());
  EXPECT_EQ(r.method, Method::kGaussSeidel);
  EXPECT_EQ(r.choice->method, r.method);
  EXPECT_EQ(r.choice->threads, 1);
  EXPECT_NE(r.choice->reason.find("closed components"), std::string::npos) << r.choice->reason;
  EXPECT_FALSE(r.phases.empty());
  RankOptions direct = o;
  direct.method = Method::kDirect;
  EXPECT_LT(l1(r.ranks, run(slow, direct).ranks), 1e-10);
  // Where gauss-seidel by component does not apply (uniform dangling with a personalized
  // source), power, and the reason says why.
  o.dangling = Dangling::kUniform;
  o.source = slow.weights({{"a3", 1}});
  const RankResult p = run(slow, o);
  EXPECT_EQ(p.method, Method::kPower);
  ASSERT_TRUE(p.choice.has_value());
  EXPECT_NE(p.choice->reason.find("needs"), std::string::npos) << p.choice->reason;
}

}  // namespace
}  // namespace webrank::testing
