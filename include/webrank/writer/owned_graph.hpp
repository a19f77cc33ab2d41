// A web held in memory (an OwnedGraph): derived webs (the core left after removing dangling
// pages, a crawl's known part) and tests. Its view() is the GraphView every solver reads.
#pragma once

#include <memory>
#include <vector>

#include "webrank/util/graph.hpp"

namespace webrank {

struct CsrLinks;  // the arrays behind an OwnedGraph (src/writer/csr_builder.hpp)

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
