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

}  // namespace webrank
