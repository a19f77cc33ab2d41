// Strong components against reachability computed by brute force, and their order.
#include "algo/strong_components.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "webrank/util/graph.hpp"
#include "webrank/writer/owned_graph.hpp"

namespace webrank {
namespace {

// reach[a][b]: b can be reached from a (every page reaches itself).
std::vector<std::vector<bool>> reachability(const Adjacency& out, PageId n) {
  std::vector<std::vector<bool>> reach(n, std::vector<bool>(n));
  for (PageId a = 0; a < n; ++a) {
    std::vector<PageId> pending{a};
    reach[a][a] = true;
    while (!pending.empty()) {
      const PageId v = pending.back();
      pending.pop_back();
      for (PageId w : out.neighbors(v)) {
        if (!reach[a][w]) {
          reach[a][w] = true;
          pending.push_back(w);
        }
      }
    }
  }
  return reach;
}

// PivotSearch::kAlways: the pivot's component is found by breadth-first searches and contracted
// in the depth-first search, as on large webs without locality.
void check_with(const OwnedGraph& graph, PivotSearch pivot) {
  SCOPED_TRACE(pivot == PivotSearch::kAlways ? "pivot first" : "depth-first only");
  const GraphView g = graph.view();
  const PageId n = g.num_pages;
  const StrongComponents c = strong_components(g, pivot);
  ASSERT_EQ(c.pages.size(), n);
  ASSERT_EQ(c.begin.front(), 0u);
  ASSERT_EQ(c.begin.back(), n);
  std::vector<int> seen(n, 0);
  for (std::size_t k = 0; k < c.count(); ++k) {
    ASSERT_GT(c.size(k), 0u);
    for (std::uint64_t i = c.begin[k]; i < c.begin[k + 1]; ++i) {
      if (i > c.begin[k]) {
        EXPECT_LT(c.pages[i - 1], c.pages[i]) << "ids within a component";
      }
      ++seen[c.pages[i]];
      EXPECT_EQ(c.of[c.pages[i]], k);
    }
  }
  for (PageId u = 0; u < n; ++u) ASSERT_EQ(seen[u], 1) << "page " << u;
  const auto reach = reachability(g.out, n);
  for (PageId a = 0; a < n; ++a) {
    for (PageId b = 0; b < n; ++b) {
      EXPECT_EQ(c.of[a] == c.of[b], reach[a][b] && reach[b][a]) << a << " " << b;
    }
    for (PageId b : g.out.neighbors(a)) EXPECT_LE(c.of[a], c.of[b]) << "link " << a << "->" << b;
  }
  // Levels: pages without links (with backlinks) are taken in order; every other component is
  // one level above the highest component linking to it, 0 with none.
  ASSERT_EQ(c.level.size(), c.count());
  std::vector<std::uint32_t> expected(c.count(), 0);
  for (std::size_t k = 0; k < c.count(); ++k) {
    for (std::uint64_t i = c.begin[k]; i < c.begin[k + 1]; ++i) {
      const PageId u = c.pages[i];
      if (g.out.degree(u) == 0 && g.in.degree(u) > 0) expected[k] = StrongComponents::kInOrder;
      for (PageId v : g.in.neighbors(u)) {
        if (c.of[v] != k && expected[k] != StrongComponents::kInOrder) {
          expected[k] = std::max(expected[k], expected[c.of[v]] + 1);
        }
      }
    }
    EXPECT_EQ(c.level[k], expected[k]) << "component " << k;
  }
}

void check(const OwnedGraph& graph) {
  check_with(graph, PivotSearch::kNever);
  check_with(graph, PivotSearch::kAlways);
}

TEST(StrongComponents, SmallCases) {
  check(OwnedGraph(1, {}, false));
  check(OwnedGraph(1, {{0, 0, 1}}, false));             // a self-link
  check(OwnedGraph(3, {{0, 1, 1}, {1, 2, 1}}, false));  // a chain
  check(OwnedGraph(3, {{2, 1, 1}, {1, 0, 1}}, false));  // a chain against the id order
  check(OwnedGraph(4, {{0, 1, 1}, {1, 0, 1}, {2, 3, 1}, {3, 2, 1}, {1, 2, 1}}, false));
  const StrongComponents c = strong_components(OwnedGraph(3, {{2, 1, 1}, {1, 0, 1}}, false).view());
  EXPECT_EQ(c.pages, (std::vector<PageId>{2, 1, 0}));  // upstream first
  EXPECT_EQ(c.level, (std::vector<std::uint32_t>{0, 1, StrongComponents::kInOrder}));
  // Two cycles fed by one page, and a cycle fed by both: levels 0, 1, 1, 2.
  const StrongComponents d = strong_components(OwnedGraph(6,
                                                          {{0, 1, 1},
                                                           {0, 3, 1},
                                                           {1, 2, 1},
                                                           {2, 1, 1},
                                                           {3, 4, 1},
                                                           {4, 3, 1},
                                                           {2, 5, 1},
                                                           {4, 5, 1},
                                                           {5, 5, 1}},
                                                          false)
                                                   .view());
  EXPECT_EQ(d.level, (std::vector<std::uint32_t>{0, 1, 1, 2}));
}

TEST(StrongComponents, RandomGraphsMatchReachability) {
  for (unsigned seed = 1; seed <= 30; ++seed) {
    std::mt19937 rng(seed);
    const PageId n = 1 + rng() % 60;
    const int links = static_cast<int>(rng() % (3 * n));
    std::vector<OwnedGraph::Link> l;
    for (int i = 0; i < links; ++i) l.push_back({PageId(rng() % n), PageId(rng() % n), 1.0});
    check(OwnedGraph(n, l, false));
  }
}

TEST(StrongComponents, PivotComponentIsContracted) {
  // A cycle 0..9 (the pivot: page 3 has the most links in times out) fed by page 10 and by the
  // cycle 11-12, feeding page 13 and the cycle 14-15; and a cycle 16-17 apart. Every check of
  // check() on both paths, and the contracted cycle comes out whole, after its inputs.
  std::vector<OwnedGraph::Link> l;
  for (PageId u = 0; u < 10; ++u) l.push_back({u, (u + 1) % 10, 1.0});
  for (PageId u : {0, 5, 7}) l.push_back({3, u, 1.0});
  for (PageId u : {1, 6, 8}) l.push_back({u, 3, 1.0});
  l.insert(l.end(), {{10, 4, 1.0},
                     {11, 12, 1.0},
                     {12, 11, 1.0},
                     {12, 9, 1.0},
                     {2, 13, 1.0},
                     {5, 14, 1.0},
                     {14, 15, 1.0},
                     {15, 14, 1.0},
                     {16, 17, 1.0},
                     {17, 16, 1.0}});
  const OwnedGraph graph(18, l, false);
  check(graph);
  const StrongComponents c = strong_components(graph.view(), PivotSearch::kAlways);
  const std::uint32_t cycle = c.of[0];
  EXPECT_EQ(c.size(cycle), 10u);
  EXPECT_EQ(c.level[cycle], 1u);  // fed by page 10 (no backlinks: level 0) and the cycle 11-12
  EXPECT_LT(c.of[11], cycle);
  EXPECT_GT(c.of[14], cycle);
  EXPECT_EQ(c.level[c.of[14]], 2u);
}

TEST(StrongComponents, PivotWayMatchesDepthFirstOnALargerWeb) {
  // Large enough for the breadth-first searches' parallel bottom-up steps (kMinParallelPages):
  // a random web of 60,000 pages with a giant component, pages without backlinks that feed it
  // (the last tenth: no page links to them), dangling pages, and 2-cycles among the former. Both
  // ways must give the same components (each named by its smallest page) with the same levels.
  std::mt19937 rng(7);
  const PageId n = 60'000, fed = n - n / 10;
  std::vector<OwnedGraph::Link> l;
  for (PageId u = 0; u < n; ++u) {
    const int links = static_cast<int>(rng() % 9);  // 0: dangling
    for (int i = 0; i < links; ++i) l.push_back({u, PageId(rng() % fed), 1.0});
  }
  for (PageId u = fed; u < fed + 2000; u += 2) {  // 2-cycles upstream of the giant
    l.insert(l.end(), {{u, u + 1, 1.0}, {u + 1, u, 1.0}});
  }
  const OwnedGraph graph(n, l, false);
  const GraphView g = graph.view();
  EXPECT_FALSE(searches_from_pivot(g));  // too small for kAuto
  const StrongComponents depth_first = strong_components(g, PivotSearch::kNever);
  const StrongComponents pivot = strong_components(g, PivotSearch::kAlways);
  ASSERT_EQ(pivot.count(), depth_first.count());
  const auto first_page = [](const StrongComponents& c, PageId u) {
    return c.pages[c.begin[c.of[u]]];
  };
  std::uint64_t largest = 0;
  for (PageId u = 0; u < n; ++u) {
    ASSERT_EQ(first_page(pivot, u), first_page(depth_first, u)) << "page " << u;
    ASSERT_EQ(pivot.level[pivot.of[u]], depth_first.level[depth_first.of[u]]) << "page " << u;
    largest = std::max(largest, pivot.size(pivot.of[u]));
    for (PageId v : g.out.neighbors(u)) ASSERT_LE(pivot.of[u], pivot.of[v]) << u << "->" << v;
  }
  EXPECT_GT(largest, n / 2);  // the giant component is there to be found
}

TEST(StrongComponents, PivotWayOnLargeWebsWithoutLocality) {
  // 1M pages with 7 backlinks each: 36 MB of backlinks, past the size where the pivot's way may
  // pay. It does when links join pages far apart in id order, not on a web in crawl-like order.
  // (The choice reads only the backlinks, so only they are made.)
  const PageId n = 1 << 20;
  const auto web_of = [&](const std::vector<PageId>& sources, std::vector<std::uint64_t>& offsets) {
    offsets.resize(n + 1);
    const std::uint64_t per_page = sources.size() / n;
    for (PageId v = 0; v <= n; ++v) offsets[v] = per_page * v;
    GraphView g;
    g.num_pages = n;
    g.num_links = sources.size();
    g.in.offsets = offsets;
    g.in.ids = sources;
    return g;
  };
  std::mt19937 rng(3);
  std::vector<PageId> local, scattered, few;
  for (PageId v = 0; v < n; ++v) {
    for (PageId i = 1; i <= 7; ++i) {
      local.push_back((v + n - i * 97) % n);
      scattered.push_back(PageId(rng() % n));
      if (i <= 3) few.push_back(PageId(rng() % n));
    }
  }
  std::vector<std::uint64_t> offsets;
  EXPECT_FALSE(searches_from_pivot(web_of(local, offsets)));
  EXPECT_TRUE(searches_from_pivot(web_of(scattered, offsets)));
  // 3 per page, 20 MB: small enough for the depth-first search
  EXPECT_FALSE(searches_from_pivot(web_of(few, offsets)));
}

TEST(StrongComponents, DeepLevelsAreTakenInOrder) {
  // A path: page i is its own component at level i, until the levels run out.
  const PageId n = StrongComponents::kInOrder + 100;
  std::vector<OwnedGraph::Link> l;
  for (PageId u = 0; u + 1 < n; ++u) l.push_back({u, u + 1, 1.0});
  const StrongComponents c = strong_components(OwnedGraph(n, l, false).view());
  ASSERT_EQ(c.count(), n);
  for (PageId u = 0; u < n; ++u) {
    ASSERT_EQ(c.level[c.of[u]], std::min<PageId>(u, StrongComponents::kInOrder)) << u;
  }
}

TEST(StrongComponents, LongPathNeedsNoCallStack) {
  const PageId n = 2'000'000;  // a recursive search would overflow the stack
  std::vector<OwnedGraph::Link> l;
  for (PageId u = 0; u + 1 < n; ++u) l.push_back({u, u + 1, 1.0});
  l.push_back({n - 1, 0, 1.0});
  const OwnedGraph g(n, l, false);
  EXPECT_EQ(strong_components(g.view()).count(), 1u);
  // found by breadth-first searches
  EXPECT_EQ(strong_components(g.view(), PivotSearch::kAlways).count(), 1u);
}

}  // namespace
}  // namespace webrank
