// Turns an unordered list of links (duplicates allowed) into forward and backward CSR with
// stable counting sorts only: by target, then by source (which leaves each page's targets
// sorted, identical links adjacent in input order), a merge of identical links (weights added
// in input order), and by target again for the backlinks, sorted by source.
#pragma once

#include <cstdint>
#include <vector>

#include "webrank/util/graph.hpp"

namespace webrank {

struct CsrLinks {
  std::vector<std::uint64_t> out_offsets, in_offsets;
  std::vector<PageId> out_ids, in_ids;
  std::vector<double> out_weights, in_weights;  // empty when unweighted
};

// Adjacency lists: page u's entries are ids[offsets[u] .. offsets[u+1]), weights alike (or empty).
struct LinkLists {
  std::vector<std::uint64_t> offsets;
  std::vector<PageId> ids;
  std::vector<double> weights;
};

// The out-lists of the links: every page's targets in increasing order, identical links adjacent
// and in input order, or merged into one (weights added in input order) if `merge`. The inputs
// are consumed as in build_csr. Used by build_csr and to sort the runs of an external build.
LinkLists sorted_out_lists(PageId num_pages, std::vector<PageId>&& sources,
                           std::vector<PageId>&& targets, std::vector<double>&& weights,
                           bool merge);

// How build_csr sorts; every way gives the same result. kAuto: in two passes (by ranges of pages,
// then within each range) where ids leave room for it, else in one pass with 32-bit positions
// while the links fit them, 64-bit past. The others force one pass (for tests of those paths).
enum class CsrSort { kAuto, kOnePass32, kOnePass64 };

// `weights` is empty (unweighted) or parallel to sources/targets. The input vectors are consumed
// (freed as soon as possible) to bound peak memory.
CsrLinks build_csr(PageId num_pages, std::vector<PageId>&& sources, std::vector<PageId>&& targets,
                   std::vector<double>&& weights, CsrSort sort = CsrSort::kAuto);

// Fills a GraphView over the arrays of `links`.
GraphView view_of(const CsrLinks& links, PageId num_pages);

}  // namespace webrank
