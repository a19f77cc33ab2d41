// Strongly connected components of a web, in topological order: every link leads to a page of
// the same component or of a later one. Solvers use the order to treat a web as a chain of
// smaller problems (a component's inputs are final once the earlier ones are solved).
//
// Tarjan's algorithm with an explicit stack (web graphs have paths millions of pages long, far
// beyond a thread's call stack), run over the backlinks: Tarjan completes a component after every
// component it reaches, and over backlinks that is after every component linking to it, which is
// the order wanted; the solvers read the backlinks anyway, so no other part of the database is
// paged in. O(pages + links) time; up to 32 bytes per page while searching, 8 for the result.
// On webs larger than the caches whose links are not local in id order the pivot's component
// (usually the giant one) is found first by breadth-first searches, which also read the forward
// links and use every thread (PivotSearch); the rest of the search runs on the calling thread.
#pragma once

#include <cstdint>
#include <vector>

#include "webrank/util/graph.hpp"

namespace webrank {

struct StrongComponents {
  // All pages, grouped by component, components in order, and by id within a component: the
  // database's order keeps a crawl's locality (a Gauss–Seidel sweep in it converges in far fewer
  // sweeps than in the search's order; docs/performance.md).
  std::vector<PageId> pages;
  std::vector<std::uint64_t> begin;  // component c is pages[begin[c], begin[c+1])
  std::vector<std::uint32_t> of;     // of[page] = its component
  // level[c]: as ComponentOrder's. kInOrder marks components that must be taken in order after
  // all others: pages without links (no level is computed for them), and any component that
  // would be deeper than kInOrder.
  static constexpr std::uint32_t kInOrder = ComponentOrder::kInOrder;
  std::vector<std::uint32_t> level;
  std::vector<std::uint32_t> closed;  // empty until find_closed_components()

  std::size_t count() const { return begin.size() - 1; }
  std::uint64_t size(std::size_t c) const { return begin[c + 1] - begin[c]; }
  ComponentOrder view() const { return {pages, begin, level, closed}; }
};

// Whether the search first finds the component of a pivot page by two breadth-first searches,
// which Tarjan's search then takes as a single node (strong_components.cpp says why). kAuto does
// on webs whose backlinks take 32 MiB or more (8 bytes per page + 4 per link: beyond the L3 here)
// and whose links mostly join pages far apart in id order (a crawl in URL order keeps the
// depth-first search in the caches, a web in random order does not). The others are for tests.
enum class PivotSearch { kAuto, kAlways, kNever };

// The share of links that join pages less than `near` ids apart, sampled on the first backlinks of
// 4,096 pages spread over the ids: with the default 2^16, about 1 on crawls in URL order and on
// webs of fewer than 2^16 pages, 0.2-0.3 on generated webs, where links join pages anywhere.
// What a pass that reads values at its links' other ends costs depends on it.
double local_link_share(const GraphView& web, PageId near = PageId{1} << 16);

// Whether strong_components(web, pivot) takes the pivot's way (and so runs its breadth-first
// searches on all threads).
bool searches_from_pivot(const GraphView& web, PivotSearch pivot = PivotSearch::kAuto);

// The components of `web` (links of weight 0 count as links). The result does not depend on
// `pivot` except for the numbering of components within the topological order.
StrongComponents strong_components(const GraphView& web, PivotSearch pivot = PivotSearch::kAuto);

// Sets c.closed (ComponentOrder's): the components that no link leaves.
void find_closed_components(const GraphView& web, StrongComponents& c);

}  // namespace webrank
