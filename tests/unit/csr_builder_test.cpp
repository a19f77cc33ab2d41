// The counting-sort CSR build against a comparison sort: out-lists sorted by target, identical
// links merged with their weights added in input order, backlists sorted by source; the same
// with one thread or several, sorted in two passes (by few or many ranges of pages) or in one
// with 32- or 64-bit positions, and where the two-pass sort does not apply (one range holding
// most links; ids too wide to pack need webs of 64M pages, too large for a unit test).
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <map>
#include <random>
#include <tuple>

#include "writer/csr_builder.hpp"

namespace webrank::testing {
namespace {

struct Links {
  PageId pages = 0;
  std::vector<PageId> sources, targets;
  std::vector<double> weights;
};

// Enough links for the sorts to cut them into parts per thread (kMinParallelLinks), with
// repeats, self-links and pages without links.
Links random_links(std::uint64_t m, PageId pages, bool weighted, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<PageId> page(0, pages - 1);
  Links l;
  l.pages = pages;
  for (std::uint64_t i = 0; i < m; ++i) {
    const PageId u = page(rng) % (pages / 2 + 1);  // the upper half links nowhere
    l.sources.push_back(u);
    l.targets.push_back(i % 7 == 0 ? u : page(rng) % 50);  // few targets: many repeats
    if (weighted) l.weights.push_back(0.5 + static_cast<double>(i % 13));
  }
  return l;
}

// The expected lists: (page, neighbour) → merged weight, in neighbour order per page.
using Expected = std::map<std::pair<PageId, PageId>, double>;

void expect_lists(PageId n, const std::vector<std::uint64_t>& offsets,
                  const std::vector<PageId>& ids, const std::vector<double>& weights,
                  const Expected& want) {
  ASSERT_EQ(offsets.size(), n + 1u);
  ASSERT_EQ(ids.size(), want.size());
  auto it = want.begin();
  for (PageId u = 0; u < n; ++u) {
    for (std::uint64_t e = offsets[u]; e < offsets[u + 1]; ++e, ++it) {
      ASSERT_EQ(std::make_pair(u, ids[e]), it->first) << "entry " << e;
      if (!weights.empty()) {
        EXPECT_EQ(weights[e], it->second) << "entry " << e;
      }
    }
  }
}

void check_build(const Links& l, CsrSort sort, int threads) {
  Expected out, in;
  for (std::size_t i = 0; i < l.sources.size(); ++i) {  // weights added in input order
    const double w = l.weights.empty() ? 1.0 : l.weights[i];
    out[{l.sources[i], l.targets[i]}] += w;
    in[{l.targets[i], l.sources[i]}] += w;
  }
  const int before = omp_get_max_threads();
  omp_set_num_threads(threads);
  Links copy = l;
  const CsrLinks csr = build_csr(l.pages, std::move(copy.sources), std::move(copy.targets),
                                 std::move(copy.weights), sort);
  omp_set_num_threads(before);
  SCOPED_TRACE(::testing::Message()
               << "threads " << threads << ", sort " << static_cast<int>(sort));
  expect_lists(l.pages, csr.out_offsets, csr.out_ids, csr.out_weights, out);
  expect_lists(l.pages, csr.in_offsets, csr.in_ids, csr.in_weights, in);
}

TEST(CsrBuilder, MatchesAComparisonSortEveryWay) {
  for (bool weighted : {false, true}) {
    const Links l = random_links(300'000, 5'000, weighted, weighted ? 7 : 3);
    for (CsrSort sort : {CsrSort::kAuto, CsrSort::kOnePass32, CsrSort::kOnePass64}) {
      for (int threads : {1, 3}) check_build(l, sort, threads);
    }
  }
}

TEST(CsrBuilder, MatchesAComparisonSortWithManyRangesOrOneHugeList) {
  // 9M pages: ids of 24 bits leave room for ranges of 2^8 pages, 35,157 of them.
  for (bool weighted : {false, true}) {
    check_build(random_links(200'000, 9'000'000, weighted, 5), CsrSort::kAuto, 3);
  }
  // Most links into one page: its range would hold them all, so one pass sorts them.
  Links star = random_links(200'000, 20'000, true, 9);
  for (std::size_t i = 0; i < star.targets.size(); i += 4) star.targets[i] = 12'345;
  for (std::size_t i = 1; i < star.targets.size(); i += 4) star.targets[i] = 12'346;
  check_build(star, CsrSort::kAuto, 3);
}

TEST(CsrBuilder, SortedOutListsKeepRepeatsInInputOrderUnlessMerged) {
  const std::vector<PageId> sources = {2, 0, 2, 2, 1, 0};
  const std::vector<PageId> targets = {1, 2, 0, 1, 1, 2};
  const std::vector<double> weights = {1, 2, 3, 4, 5, 6};
  LinkLists kept = sorted_out_lists(3, std::vector<PageId>(sources), std::vector<PageId>(targets),
                                    std::vector<double>(weights), false);
  EXPECT_EQ(kept.offsets, (std::vector<std::uint64_t>{0, 2, 3, 6}));
  EXPECT_EQ(kept.ids, (std::vector<PageId>{2, 2, 1, 0, 1, 1}));
  EXPECT_EQ(kept.weights, (std::vector<double>{2, 6, 5, 3, 1, 4}));
  LinkLists merged = sorted_out_lists(3, std::vector<PageId>(sources), std::vector<PageId>(targets),
                                      std::vector<double>(weights), true);
  EXPECT_EQ(merged.offsets, (std::vector<std::uint64_t>{0, 1, 2, 4}));
  EXPECT_EQ(merged.ids, (std::vector<PageId>{2, 1, 0, 1}));
  EXPECT_EQ(merged.weights, (std::vector<double>{8, 5, 3, 5}));
}

}  // namespace
}  // namespace webrank::testing
