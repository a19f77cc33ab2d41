// PageRank as a crawl order (the paper's §7.2, after Cho, Garcia-Molina and Page, "Efficient
// crawling through URL ordering", 1998): a crawl of the known web is simulated from one seed
// page. Fetching a page reveals its out-links (from the database); the frontier holds the pages
// discovered and not yet fetched, and the next page fetched is
//   - pagerank:  the frontier page of highest PageRank of the graph seen so far (fetched pages
//                with their links, frontier pages without), recomputed every `recompute_every`
//                pages; in between, a page fetched passes d·R/L of its estimate to each of its
//                links' targets, so that pages found since the last computation have one too;
//   - backlinks: the frontier page with the most links from the fetched pages;
//   - breadth:   the first discovered (first in, first out);
//   - random:    any, uniformly.
// Ties go to the page discovered first. "Hot" pages are the top `hot_fraction` of the pages
// reachable from the seed by the final in-degree (backlinks in the whole database) or by the
// final PageRank (a vector of the whole web); a curve says what fraction of them the crawl has
// fetched after each fraction of the reachable pages.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <stop_token>
#include <string>
#include <vector>

#include "webrank/util/graph.hpp"

#include "webrank/util/named.hpp"

namespace webrank {

enum class CrawlOrder { kPageRank, kBacklinks, kBreadth, kRandom };
enum class HotBy { kInDegree, kPageRank };
std::span<const Named<CrawlOrder>> names(CrawlOrder);  // webrank/util/named.hpp
std::span<const Named<HotBy>> names(HotBy);
const char* to_string(CrawlOrder order);  // "pagerank", "backlinks", "breadth", "random"
const char* to_string(HotBy hot);         // "in-degree", "pagerank"

struct CrawlOrderProgress {
  CrawlOrder order = CrawlOrder::kBreadth;
  std::uint64_t fetched = 0, reachable = 0;
  double seconds = 0;
};

struct CrawlOrderOptions {
  PageId seed = 0;
  std::vector<CrawlOrder> orders{CrawlOrder::kPageRank, CrawlOrder::kBacklinks,
                                 CrawlOrder::kBreadth, CrawlOrder::kRandom};
  std::uint64_t recompute_every = 0;  // pages fetched between PageRank computations; 0 = 1% of
                                      // the reachable pages (at least 1)
  HotBy hot_by = HotBy::kInDegree;
  double hot_fraction = 0.01;       // in (0, 1]
  std::vector<double> final_ranks;  // by page id: what HotBy::kPageRank ranks by
  double damping = 0.85;            // of the partial-graph PageRank
  double tol = 1e-7;                // its L1 tolerance (only the order of pages matters)
  std::uint64_t random_seed = 1;
  std::size_t points = 100;  // points per curve
  int threads = 0;           // of the PageRank computations (0 = OpenMP's default)
  std::function<void(const CrawlOrderProgress&)> on_progress;  // every ~1% of a crawl
  std::stop_token stop;  // a stop request throws Error(kCancelled)
};

struct CrawlCurve {
  CrawlOrder order = CrawlOrder::kBreadth;
  // After fetching crawled[i] of the reachable pages (fractions, rising to 1), hot[i] of the
  // hot pages had been fetched.
  std::vector<double> crawled, hot;
  // Fraction of the hot pages fetched when 10%, 20% and 50% of the pages were, and the mean of
  // the curve over the whole crawl (1 is unreachable: it would need every hot page first).
  double hot_at_10 = 0, hot_at_20 = 0, hot_at_50 = 0, mean_hot = 0;
  std::uint64_t pagerank_computations = 0;
  double seconds = 0;
};

struct CrawlOrderStudy {
  PageId seed = kNoPage;
  std::uint64_t pages = 0;      // of the web
  std::uint64_t reachable = 0;  // from the seed: what every crawl fetches in the end
  std::uint64_t hot_pages = 0;
  HotBy hot_by = HotBy::kInDegree;
  double hot_fraction = 0;
  std::uint64_t recompute_every = 0;
  std::vector<CrawlCurve> curves;  // one per order asked, in that order
  CrawlCurve ideal;                // every hot page first (order field unused)
};

// Throws Error(kInvalidArgument) for a seed out of range, a hot fraction outside (0, 1], or
// HotBy::kPageRank without final_ranks of the web's size.
CrawlOrderStudy simulate_crawl_orders(const GraphView& web, const CrawlOrderOptions& options);

}  // namespace webrank
