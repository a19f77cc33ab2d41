// How two rank vectors over the same pages differ (`webrank compare-ranks`): the L1 distance and
// the largest difference of the values, and how alike their orders are: Kendall's tau-b and
// Spearman's rho (both with ties, as scipy.stats.kendalltau and spearmanr compute them) and the
// overlap of their top k pages. One home for rank correlations: traffic studies and search
// evaluations use the same functions.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "webrank/util/graph.hpp"

namespace webrank {

struct TopOverlap {
  std::uint64_t k = 0;       // pages in each top list
  std::uint64_t shared = 0;  // pages in both
  double fraction = 0;       // shared / k
};

struct RankComparison {
  std::uint64_t pages = 0;  // compared
  double l1 = 0;            // Σ |a − b|
  double max_difference = 0;
  std::uint64_t max_difference_at = 0;  // index (into the spans) of the largest |a − b|
  // Kendall's tau-b: (concordant − discordant) pairs over the pairs not tied in each vector,
  // O(n log n) (Knight's algorithm); NaN when either vector is constant.
  double kendall_tau = 0;
  // Spearman's rho: Pearson's correlation of the average ranks; NaN when either is constant.
  double spearman = 0;
  std::vector<TopOverlap> top;  // for each k asked (capped at the number of pages)
};

// Compares a and b (same size, at least 1; values finite). `ks` are the top-list sizes; the top
// k of a vector are its k largest values, ties broken by smaller index (as `webrank top`).
// Throws Error(kInvalidArgument) on sizes that differ or are 0.
RankComparison compare_ranks(std::span<const double> a, std::span<const double> b,
                             std::span<const std::uint64_t> ks);

// The correlations alone (used by compare_ranks).
double kendall_tau_b(std::span<const double> a, std::span<const double> b);
double spearman_rho(std::span<const double> a, std::span<const double> b);

}  // namespace webrank
