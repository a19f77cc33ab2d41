// Graph files that list nodes, with an id and maybe a label, and edges between node ids, in any
// order (GML, GraphML): the nodes and edges are collected, then checked and handed to the sink as
// pages in node order (page ids follow the file) and links (an undirected edge is a link each way,
// a self-loop once).
//
// A page's label is its node's label when it has one, else its id. Labels must be distinct (pages
// are keyed by label); an edge must join declared nodes. Errors name FILE:LINE.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "writer/record_sink.hpp"

namespace webrank {

class NodeEdgeGraph {
 public:
  explicit NodeEdgeGraph(std::string file) : file_(std::move(file)) {}

  // A node declared at `line`; a second declaration of one id is an error.
  void node(std::string_view id, std::optional<std::string> label, std::uint64_t line);
  void edge(std::string_view source, std::string_view target, double weight, bool directed,
            std::uint64_t line);
  // Checks the edges' ends and the labels, then declares every page and hands over every link.
  // Returns the number of edges.
  std::uint64_t feed(RecordSink& sink);
  std::uint64_t undirected_edges() const { return undirected_; }

 private:
  struct Node {
    std::string id;
    std::optional<std::string> label;
    std::uint64_t line = 0;  // of its declaration; 0 while only edges named it
  };
  struct Edge {
    std::uint32_t source, target;
    double weight;
    bool directed;
    std::uint64_t line;
  };
  std::uint32_t index(std::string_view id);

  std::string file_;
  std::unordered_map<std::string, std::uint32_t> ids_;
  std::vector<Node> nodes_;
  std::vector<std::uint32_t> order_;  // nodes in declaration order
  std::vector<Edge> edges_;
  std::uint64_t undirected_ = 0;
};

}  // namespace webrank
