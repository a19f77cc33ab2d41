// The graph abstraction every solver reads: a web of N pages with its links stored twice in CSR
// form (forward = out-links sorted by source, backward = in-links sorted by target), with 64-bit
// offsets so link counts past 2^32 are ordinary. Views do not own memory: they point into a
// memory-mapped database (Database::graph()) or into an OwnedGraph. Within one page's list,
// neighbour ids are sorted ascending and unique (identical links were merged at build time).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace webrank {

struct CsrLinks;  // the arrays behind an OwnedGraph (src/graph/csr_builder.hpp)

using PageId = std::uint32_t;
inline constexpr PageId kNoPage = 0xFFFFFFFFu;

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

// A graph held in memory, for derived webs (the core left after removing dangling pages) and for
// tests. Build one from a link list with make_owned_graph().
class OwnedGraph {
 public:
  struct Link {
    PageId source;
    PageId target;
    double weight = 1.0;
  };
  // Merges identical links (adding weights), keeps self-links; `weighted` says whether weights
  // are kept at all.
  OwnedGraph(PageId num_pages, const std::vector<Link>& links, bool weighted);
  OwnedGraph(OwnedGraph&&) noexcept;
  ~OwnedGraph();

  const GraphView& view() const { return view_; }

 private:
  std::unique_ptr<CsrLinks> links_;
  GraphView view_;
};

}  // namespace webrank
