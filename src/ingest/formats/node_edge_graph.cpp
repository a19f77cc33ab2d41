// NodeEdgeGraph (node_edge_graph.hpp).
#include "ingest/formats/node_edge_graph.hpp"

#include "webrank/util/error.hpp"

namespace webrank {

std::uint32_t NodeEdgeGraph::index(std::string_view id) {
  auto [it, inserted] =
      ids_.try_emplace(std::string(id), static_cast<std::uint32_t>(nodes_.size()));
  if (inserted) nodes_.push_back({std::string(id), std::nullopt, 0});
  return it->second;
}

void NodeEdgeGraph::node(std::string_view id, std::optional<std::string> label,
                         std::uint64_t line) {
  Node& n = nodes_[index(id)];
  if (n.line != 0) {
    fail(ErrorKind::kInvalidInput, file_, ":", line, ": node '", id,
         "' is declared twice (first on line ", n.line, ")");
  }
  n.line = line;
  n.label = std::move(label);
  order_.push_back(static_cast<std::uint32_t>(&n - nodes_.data()));
}

void NodeEdgeGraph::edge(std::string_view source, std::string_view target, double weight,
                         bool directed, std::uint64_t line) {
  const std::uint32_t s = index(source), t = index(target);
  edges_.push_back({s, t, weight, directed, line});
  undirected_ += !directed;
}

std::uint64_t NodeEdgeGraph::feed(RecordSink& sink) {
  for (const Edge& e : edges_) {
    for (std::uint32_t end : {e.source, e.target}) {
      if (nodes_[end].line == 0) {
        fail(ErrorKind::kInvalidInput, file_, ":", e.line, ": the edge's ",
             end == e.source ? "source" : "target", " '", nodes_[end].id,
             "' is not a declared node");
      }
    }
  }
  auto label = [&](std::uint32_t i) -> const std::string& {
    return nodes_[i].label ? *nodes_[i].label : nodes_[i].id;
  };
  std::unordered_map<std::string_view, std::uint32_t> by_label;
  for (std::uint32_t i : order_) {
    auto [it, inserted] = by_label.try_emplace(label(i), i);
    if (!inserted) {
      fail(ErrorKind::kInvalidInput, file_, ":", nodes_[i].line, ": node '", nodes_[i].id,
           "' has the label '", label(i), "' of node '", nodes_[it->second].id, "' (line ",
           nodes_[it->second].line, "): labels must be distinct");
    }
  }
  for (std::uint32_t i : order_) sink.page(label(i));
  for (const Edge& e : edges_) {
    sink.link(label(e.source), label(e.target), e.weight);
    if (!e.directed && e.source != e.target) sink.link(label(e.target), label(e.source), e.weight);
  }
  return edges_.size();
}

}  // namespace webrank
