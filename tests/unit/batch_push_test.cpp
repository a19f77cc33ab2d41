// The batch solver and forward push at the library level: a batch's vectors are the separate
// power iterations' (to the rounding of the dangling sums), and push keeps its invariant and
// its bounds against a direct solve.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "test_graphs.hpp"
#include "webrank/rank/batch.hpp"
#include "webrank/rank/push.hpp"
#include "webrank/util/error.hpp"
#include "webrank/writer/owned_graph.hpp"

namespace webrank::testing {
namespace {

// Sources of every kind: one page, several with weights, a dangling page, uniform.
std::vector<PageWeights> sources_of(PageId n) {
  std::vector<PageWeights> s;
  for (PageId k = 0; k < 6; ++k) s.push_back({{(k * 37) % n, 1.0}});
  s.push_back({{1, 2.0}, {5, 0.5}, {9, 1.0}});
  s.push_back({});
  return s;
}

TEST(Batch, EqualsSeparatePowerIterations) {
  for (const bool weighted : {false, true}) {
    const LabeledWeb web = random_web(400, 2400, 7, weighted);
    const OwnedGraph g = web.graph();
    const PageId n = g.view().num_pages;
    for (const Precision precision : {Precision::kDouble, Precision::kFloat}) {
      for (const Dangling dangling : {Dangling::kSource, Dangling::kUniform}) {
        BatchOptions bo;
        bo.rank.method = Method::kPower;
        bo.rank.precision = precision;
        bo.rank.dangling = dangling;
        bo.rank.tol = precision == Precision::kFloat ? 1e-6 : 1e-12;
        const auto sources = sources_of(n);
        const auto batch = compute_rank_batch(g.view(), sources, bo);
        ASSERT_EQ(batch.size(), sources.size());
        for (std::size_t j = 0; j < sources.size(); ++j) {
          RankOptions o = bo.rank;
          o.source = sources[j];
          const RankResult alone = compute_rank(g.view(), o);
          EXPECT_LT(l1(batch[j].ranks, alone.ranks), 1e-13) << j;
          EXPECT_EQ(batch[j].iterations, alone.iterations) << j;
          EXPECT_EQ(batch[j].converged, alone.converged);
          EXPECT_EQ(batch[j].batch_size, static_cast<int>(sources.size()));
        }
      }
    }
  }
}

// 12 and 16 vectors: rows of 12 (a width that is no power of two), and rows narrowed from 16 to 12,
// 8, 4 as the vectors stop at their own iterations.
TEST(Batch, WideRowsNarrowAsVectorsStop) {
  const LabeledWeb web = random_web(600, 3000, 11);
  const OwnedGraph g = web.graph();
  const PageId n = g.view().num_pages;
  for (const std::size_t k : {12, 16}) {
    std::vector<PageWeights> sources = sources_of(n);
    for (PageId p = 0; sources.size() < k; ++p) sources.push_back({{(p * 53 + 2) % n, 1.0}});
    BatchOptions bo;
    bo.rank.method = Method::kPower;
    bo.rank.tol = 1e-12;
    const auto batch = compute_rank_batch(g.view(), sources, bo);
    ASSERT_EQ(batch.size(), k);
    std::vector<int> iterations;
    for (std::size_t j = 0; j < k; ++j) {
      RankOptions o = bo.rank;
      o.source = sources[j];
      const RankResult alone = compute_rank(g.view(), o);
      EXPECT_LT(l1(batch[j].ranks, alone.ranks), 1e-13) << k << " vectors, vector " << j;
      EXPECT_EQ(batch[j].iterations, alone.iterations) << k << " vectors, vector " << j;
      iterations.push_back(batch[j].iterations);
    }
    // The vectors stop at different iterations, so the rows were narrowed on the way.
    EXPECT_LT(*std::min_element(iterations.begin(), iterations.end()),
              *std::max_element(iterations.begin(), iterations.end()));
  }
}

// Gauss–Seidel by component over rows of 1, 4, 8 and 16 vectors (and a second group): each
// vector goes through the sweeps and extrapolations of its separate run (one thread, double: the
// same changes), then the same finishing power iterations.
TEST(Batch, GaussSeidelEqualsSeparateRuns) {
  for (const bool weighted : {false, true}) {
    const LabeledWeb web = random_web(400, 2400, 7, weighted);
    const OwnedGraph g = web.graph();
    const PageId n = g.view().num_pages;
    for (const Precision precision : {Precision::kDouble, Precision::kFloat}) {
      for (const std::size_t k : {1, 3, 8, 16, 19}) {
        std::vector<PageWeights> sources = sources_of(n);
        for (PageId p = 0; sources.size() < k; ++p) sources.push_back({{(p * 53 + 2) % n, 1.0}});
        sources.resize(k);
        BatchOptions bo;
        bo.rank.method = Method::kGaussSeidel;
        bo.rank.precision = precision;
        bo.rank.tol = precision == Precision::kFloat ? 1e-6 : 1e-12;
        const auto batch = compute_rank_batch(g.view(), sources, bo);
        ASSERT_EQ(batch.size(), k);
        for (std::size_t j = 0; j < k; ++j) {
          RankOptions o = bo.rank;
          o.source = sources[j];
          const RankResult alone = compute_rank(g.view(), o);
          EXPECT_EQ(batch[j].method, Method::kGaussSeidel);
          EXPECT_EQ(alone.method, Method::kGaussSeidel);
          EXPECT_LT(l1(batch[j].ranks, alone.ranks), 1e-13) << k << " vectors, vector " << j;
          EXPECT_EQ(batch[j].iterations, alone.iterations) << k << " vectors, vector " << j;
          EXPECT_EQ(batch[j].finishing_iterations, alone.finishing_iterations);
          EXPECT_EQ(batch[j].deltas.size(), alone.deltas.size());
          const auto sweeps = alone.deltas.size() - alone.finishing_iterations;
          for (std::size_t i = 0; i < sweeps; ++i) {
            // In float, a weighted web's first sweep differs in the last bits of its change.
            const double slack = precision == Precision::kFloat ? 1e-9 * alone.deltas[i] : 0.0;
            EXPECT_NEAR(batch[j].deltas[i], alone.deltas[i], slack)
                << k << " vectors, sweep " << i + 1 << ", vector " << j;
          }
          EXPECT_EQ(batch[j].converged, alone.converged);
          EXPECT_EQ(batch[j].batch_size, static_cast<int>(k));
        }
      }
    }
  }
}

// auto takes Gauss–Seidel by component where dangling rank follows each vector's E, power
// where it does not.
TEST(Batch, AutoChoosesByTheDanglingRule) {
  const LabeledWeb web = random_web(300, 1500, 5);
  const OwnedGraph g = web.graph();
  const auto sources = sources_of(g.view().num_pages);
  BatchOptions bo;
  for (const RankResult& r : compute_rank_batch(g.view(), sources, bo))
    EXPECT_EQ(r.method, Method::kGaussSeidel);
  bo.rank.dangling = Dangling::kUniform;
  for (const RankResult& r : compute_rank_batch(g.view(), sources, bo))
    EXPECT_EQ(r.method, Method::kPower);
  bo.rank.dangling = Dangling::kSource;
  bo.rank.dangling_weights = {{3, 1.0}};
  for (const RankResult& r : compute_rank_batch(g.view(), sources, bo))
    EXPECT_EQ(r.method, Method::kPower);
}

// On several threads a large component is swept asynchronously: the vectors agree with their
// separate runs to the tolerance, not to the last bit.
TEST(Batch, GaussSeidelOnThreadsMeetsTheTolerance) {
  const LabeledWeb web = random_web(40000, 200000, 8);
  const OwnedGraph g = web.graph();
  BatchOptions bo;
  bo.rank.method = Method::kGaussSeidel;
  bo.rank.tol = 1e-11;
  bo.rank.threads = 2;
  const auto sources = sources_of(g.view().num_pages);
  const auto batch = compute_rank_batch(g.view(), sources, bo);
  for (std::size_t j = 0; j < sources.size(); ++j) {
    RankOptions o = bo.rank;
    o.method = Method::kPower;
    o.threads = 1;
    o.source = sources[j];
    const RankResult alone = compute_rank(g.view(), o);
    EXPECT_TRUE(batch[j].converged);
    EXPECT_LT(l1(batch[j].ranks, alone.ranks), 1e-9) << j;
    EXPECT_LE(batch[j].final_delta, 1e-11) << j;
  }
}

TEST(Batch, CustomDanglingWeightsAndThreads) {
  // Large enough for the parallel loops (kMinParallelPages) to run on several threads.
  const LabeledWeb web = random_web(20000, 100000, 8);
  const OwnedGraph g = web.graph();
  BatchOptions bo;
  bo.rank.dangling_weights = {{3, 1.0}, {4, 2.0}};
  bo.rank.tol = 1e-7;
  const auto sources = sources_of(g.view().num_pages);
  bo.rank.threads = 1;
  const auto one = compute_rank_batch(g.view(), sources, bo);
  bo.rank.threads = 2;
  const auto two = compute_rank_batch(g.view(), sources, bo);
  for (std::size_t j = 0; j < sources.size(); ++j) {
    EXPECT_EQ(one[j].ranks, two[j].ranks) << "the thread count changed vector " << j;
    RankOptions o = bo.rank;
    o.source = sources[j];
    EXPECT_LT(l1(one[j].ranks, compute_rank(g.view(), o).ranks), 1e-13);
  }
}

TEST(Batch, RefusesWhatItDoesNotCompute) {
  const LabeledWeb web = random_web(50, 200, 9);
  const OwnedGraph g = web.graph();
  BatchOptions bo;
  bo.rank.dangling = Dangling::kLeak;
  EXPECT_THROW(compute_rank_batch(g.view(), {{}}, bo), Error);
  bo = {};
  bo.rank.source = {{1, 1.0}};
  EXPECT_THROW(compute_rank_batch(g.view(), {{}}, bo), Error);
  bo = {};
  EXPECT_THROW(compute_rank_batch(g.view(), {{{1000, 1.0}}}, bo), Error);
  // Gauss–Seidel by component is exact only with dangling rank along each vector's E.
  bo.rank.method = Method::kGaussSeidel;
  bo.rank.dangling = Dangling::kUniform;
  EXPECT_THROW(compute_rank_batch(g.view(), {{}}, bo), Error);
  bo.rank.dangling = Dangling::kSource;
  bo.rank.dangling_weights = {{3, 1.0}};
  EXPECT_THROW(compute_rank_batch(g.view(), {{}}, bo), Error);
}

TEST(Push, BoundsHoldAgainstADirectSolve) {
  const LabeledWeb web = random_web(300, 1500, 10);
  const OwnedGraph g = web.graph();
  for (const PageWeights& source : {PageWeights{{0, 1.0}}, PageWeights{{2, 1.0}, {7, 3.0}}}) {
    RankOptions exact;
    exact.method = Method::kDirect;
    exact.source = source;
    const RankResult r = compute_rank(g.view(), exact);
    for (const double eps : {1e-4, 1e-7}) {
      PushOptions po;
      po.eps = eps;
      po.k = 10;
      const PprTop t = personalized_top(g.view(), source, po);
      std::vector<double> p(r.ranks.size(), 0.0), res(r.ranks.size(), 0.0);
      for (const auto& [u, x] : t.push.estimate) p[u] = x;
      for (const auto& [u, x] : t.push.residual) res[u] = x;
      // Mass is conserved: Σp + Σr = 1; and ‖π − p‖₁ = Σr.
      const double sum_p = std::accumulate(p.begin(), p.end(), 0.0);
      EXPECT_NEAR(sum_p + t.push.residual_sum, 1.0, 1e-12);
      EXPECT_NEAR(l1(p, r.ranks), t.push.residual_sum, 1e-12);
      for (const PprEntry& e : t.top) {
        EXPECT_LE(e.lower, r.ranks[e.page] + 1e-15);
        EXPECT_GE(e.upper, r.ranks[e.page] - 1e-15);
      }
      for (std::size_t u = 0; u < p.size(); ++u) {
        const bool in_top =
            std::any_of(t.top.begin(), t.top.end(), [&](const PprEntry& e) { return e.page == u; });
        if (!in_top) {
          EXPECT_LE(r.ranks[u], t.outside_upper + 1e-15);
        }
      }
    }
  }
}

TEST(Push, SweepsFinishWhatTheQueueStarted) {
  // A source reaching the whole web, pushed far enough for the sweeps to take over.
  const LabeledWeb web = random_web(2000, 16000, 11);
  const OwnedGraph g = web.graph();
  PushOptions po;
  po.eps = 1e-12;
  const PushResult r = personalized_push(g.view(), {{0, 1.0}}, po);
  EXPECT_GT(r.sweeps, 0);
  RankOptions exact;
  exact.source = {{0, 1.0}};
  exact.tol = 1e-14;
  const RankResult e = compute_rank(g.view(), exact);
  std::vector<double> p(e.ranks.size(), 0.0);
  for (const auto& [u, x] : r.estimate) p[u] = x;
  EXPECT_LT(l1(p, e.ranks), r.residual_sum + 1e-12);
  EXPECT_LT(r.residual_sum, 1e-6);
  PushOptions bad;
  bad.eps = 0;
  EXPECT_THROW(personalized_push(g.view(), {{0, 1.0}}, bad), Error);
  bad = {};
  bad.damping = 1;
  EXPECT_THROW(personalized_push(g.view(), {{0, 1.0}}, bad), Error);
}

}  // namespace
}  // namespace webrank::testing
