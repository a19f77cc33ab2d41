// Strongly connected components of a link graph, in topological order: every link leads to a
// page of the same component or of a later one. Solvers use the order to treat a web as a
// chain of smaller problems (a component's inputs are final once the earlier ones are solved).
//
// Tarjan's algorithm with an explicit stack (web graphs have paths millions of pages long, far
// beyond a thread's call stack): O(pages + links) time, about 17 bytes per page besides the
// result.
#pragma once

#include <cstdint>
#include <vector>

#include "webrank/graph.hpp"

namespace webrank {

struct StrongComponents {
  std::vector<PageId> pages;         // all pages, grouped by component, components in order
  std::vector<std::uint64_t> begin;  // component c is pages[begin[c], begin[c+1])
  std::vector<std::uint32_t> of;     // of[page] = its component

  std::size_t count() const { return begin.size() - 1; }
  std::uint64_t size(std::size_t c) const { return begin[c + 1] - begin[c]; }
};

// The components of the graph whose out-links are `out` (links of weight 0 count as links).
StrongComponents strong_components(const Adjacency& out, PageId pages);

}  // namespace webrank
