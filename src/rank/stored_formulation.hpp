// The PageRank formulation a stored vector was computed with, read back from its metadata
// record (ranks/NAME.json): damping, rank source E, where dangling rank goes. The verifier
// (verify.cpp) applies one exact iteration of it; `webrank explain` splits a page's rank by it.
#pragma once

#include <string>
#include <vector>

#include "webrank/store/vector_record.hpp"
#include "webrank/util/graph.hpp"

namespace webrank {

struct StoredFormulation {
  double damping = 0.85;
  std::vector<double> source;       // E by page, normalized; empty = uniform
  std::vector<double> dangling_to;  // D by page, normalized; empty = follows E
  bool leak = false;                // dangling rank dropped
  PageId pages = 0;
  // Empty when the vector is the fixed point R = T(R) of this formulation; otherwise why not
  // (--dangling remove, a rank source too large to be kept in the metadata, HITS).
  std::string not_a_fixed_point;

  double e(PageId u) const { return source.empty() ? 1.0 / pages : source[u]; }
  // Where dangling rank goes (0 everywhere when it leaks).
  double d(PageId u) const { return leak ? 0.0 : dangling_to.empty() ? e(u) : dangling_to[u]; }
};

// The formulation of the vector `record` describes, on a web of `pages` pages. Throws
// Error(kCorrupt) when stored weights are inconsistent.
StoredFormulation stored_formulation(const VectorRecord& record, PageId pages);

}  // namespace webrank
