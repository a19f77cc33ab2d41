// Strongly connected components of a web, in topological order: every link leads to a page of
// the same component or of a later one. Solvers use the order to treat a web as a chain of
// smaller problems (a component's inputs are final once the earlier ones are solved).
//
// Tarjan's algorithm with an explicit stack (web graphs have paths millions of pages long, far
// beyond a thread's call stack), run over the backlinks: Tarjan completes a component after every
// component it reaches, and over backlinks that is after every component linking to it, which is
// the order wanted; the solvers read the backlinks anyway, so no other part of the database is
// paged in. O(pages + links) time; up to 32 bytes per page while searching, 8 for the result.
// On webs larger than the caches the pivot's component (usually the giant one) is found first by
// breadth-first searches, which also read the forward links and use every thread
// (kPivotSearchBytes); the rest of the search runs on the calling thread.
#pragma once

#include <cstdint>
#include <vector>

#include "webrank/graph.hpp"

namespace webrank {

struct StrongComponents {
  // All pages, grouped by component, components in order, and by id within a component: the
  // database's order keeps a crawl's locality (measured as a Gauss–Seidel order on web-NotreDame:
  // 56 sweeps for the slowest component instead of 125 in the search's order).
  std::vector<PageId> pages;
  std::vector<std::uint64_t> begin;  // component c is pages[begin[c], begin[c+1])
  std::vector<std::uint32_t> of;     // of[page] = its component
  // level[c]: 0 when no other component links to c, else one more than the highest level of
  // the components that do. Components of one level never link to each other, so they can be
  // solved at the same time (crawls have about 20 levels). kInOrder marks components that must
  // be taken in order after all others: pages without links (no level is computed for them),
  // and any component that would be deeper than kInOrder.
  static constexpr std::uint32_t kInOrder = 0xFFFF;
  std::vector<std::uint32_t> level;

  std::size_t count() const { return begin.size() - 1; }
  std::uint64_t size(std::size_t c) const { return begin[c + 1] - begin[c]; }
};

// Above this size of backlinks (8 bytes per page + 4 per link: beyond the L3 here) the search
// finds the component of a pivot page first, by two breadth-first searches, and Tarjan's search
// takes it as a single node (strong_components.cpp says why).
constexpr std::uint64_t kPivotSearchBytes = std::uint64_t{32} << 20;

// Whether strong_components(web, pivot_search_bytes) takes the pivot's way (and so its
// breadth-first searches run on all threads).
bool searches_from_pivot(const GraphView& web,
                         std::uint64_t pivot_search_bytes = kPivotSearchBytes);

// The components of `web` (links of weight 0 count as links). The result does not depend on
// pivot_search_bytes except for the numbering of components within the topological order
// (tests set it to 0 to take the pivot's path on small webs).
StrongComponents strong_components(const GraphView& web,
                                   std::uint64_t pivot_search_bytes = kPivotSearchBytes);

}  // namespace webrank
