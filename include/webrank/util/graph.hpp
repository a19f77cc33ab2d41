// The graph abstraction every solver reads: a web of N pages with its links stored twice in CSR
// form (forward = out-links sorted by source, backward = in-links sorted by target), with 64-bit
// offsets so link counts past 2^32 are ordinary. Views do not own memory: they point into a
// memory-mapped database (Database::graph()) or into an OwnedGraph
// (webrank/writer/owned_graph.hpp). Within one page's list, neighbour ids are sorted ascending and
// unique (identical links were merged at build time).
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace webrank {

using PageId = std::uint32_t;
inline constexpr PageId kNoPage = 0xFFFFFFFFu;

// A sparse non-negative weighting of pages (a rank source, a start vector, where dangling rank
// goes), normalized by whoever uses it. Empty means "uniform".
using PageWeights = std::vector<std::pair<PageId, double>>;

// One direction of the link structure. `weights` is empty for an unweighted web; otherwise it is
// parallel to `ids` and holds the (merged) weight of each link.
struct Adjacency {
  std::span<const std::uint64_t> offsets;  // size N+1, offsets[0] == 0, offsets[N] == links
  std::span<const PageId> ids;             // size links
  std::span<const double> weights;         // size links or 0

  std::uint64_t degree(PageId u) const { return offsets[u + 1] - offsets[u]; }
  std::span<const PageId> neighbors(PageId u) const {
    return ids.subspan(offsets[u], offsets[u + 1] - offsets[u]);
  }
  std::span<const double> neighbor_weights(PageId u) const {
    return weights.subspan(offsets[u], offsets[u + 1] - offsets[u]);
  }
};

struct GraphView {
  PageId num_pages = 0;
  std::uint64_t num_links = 0;
  Adjacency out;  // forward links
  Adjacency in;   // backlinks

  bool weighted() const { return !out.weights.empty(); }
};

// The strongly connected components of a web in topological order: every link leads to a page
// of the same component or of a later one, so a solver can take the web as a chain of smaller
// problems. Found by strong_components() (algo/strong_components.hpp) or stored in a database
// when it was built (Database::components(), docs/format.md). A view: it owns nothing.
struct ComponentOrder {
  // level[c] of a component taken in order after all others (pages without links, and any
  // component deeper than this).
  static constexpr std::uint32_t kInOrder = 0xFFFF;
  // All pages, grouped by component, components in order, by id within a component.
  std::span<const PageId> pages;
  std::span<const std::uint64_t> begin;  // component c is pages[begin[c], begin[c + 1])
  // 0 when no other component links to c, else one more than the highest level of those that
  // do: components of one level never link to each other (crawls have about 20 levels).
  std::span<const std::uint32_t> level;
  // The closed components, ascending: those whose pages link to one another (or a page to
  // itself) and to no page outside. Each keeps the rank that enters it; with two or more, the
  // power iteration's slowest mode decays only as fast as the damping factor (docs/ranking.md).
  std::span<const std::uint32_t> closed;

  std::size_t count() const { return begin.empty() ? 0 : begin.size() - 1; }
  std::uint64_t size(std::size_t c) const { return begin[c + 1] - begin[c]; }
};

}  // namespace webrank
