#include "webrank/writer/owned_graph.hpp"
#include "webrank/util/graph.hpp"
#include "writer/csr_builder.hpp"

namespace webrank {

OwnedGraph::OwnedGraph(PageId num_pages, const std::vector<Link>& links, bool weighted) {
  std::vector<PageId> sources, targets;
  std::vector<double> weights;
  sources.reserve(links.size());
  targets.reserve(links.size());
  if (weighted) weights.reserve(links.size());
  for (const Link& l : links) {
    sources.push_back(l.source);
    targets.push_back(l.target);
    if (weighted) weights.push_back(l.weight);
  }
  links_ = std::make_unique<CsrLinks>(
      build_csr(num_pages, std::move(sources), std::move(targets), std::move(weights)));
  view_ = view_of(*links_, num_pages);
}

OwnedGraph::OwnedGraph(OwnedGraph&&) noexcept = default;
OwnedGraph::~OwnedGraph() = default;

}  // namespace webrank
