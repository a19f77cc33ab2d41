#include "graph/strong_components.hpp"

#include <algorithm>
#include <limits>

namespace webrank {

StrongComponents strong_components(const Adjacency& out, PageId pages) {
  constexpr PageId kUnvisited = std::numeric_limits<PageId>::max();
  std::vector<PageId> index(pages, kUnvisited), low(pages);
  std::vector<bool> on_stack(pages);
  std::vector<PageId> stack;  // Tarjan's stack: visited pages not yet in a component
  struct Frame {
    PageId page;
    std::uint64_t next_link;
  };
  std::vector<Frame> calls;  // the depth-first search's own stack

  // Tarjan completes a component only after every component it links to: the reverse of the
  // order wanted. Collect in completion order, then reverse the component sequence.
  std::vector<PageId> completed;
  completed.reserve(pages);
  std::vector<std::uint64_t> ends;  // completion-order component boundaries in `completed`
  PageId next_index = 0;
  auto visit = [&](PageId v) {
    index[v] = low[v] = next_index++;
    stack.push_back(v);
    on_stack[v] = true;
    calls.push_back({v, out.offsets[v]});
  };
  for (PageId root = 0; root < pages; ++root) {
    if (index[root] != kUnvisited) continue;
    visit(root);
    while (!calls.empty()) {
      const PageId v = calls.back().page;
      if (calls.back().next_link < out.offsets[v + 1]) {
        const PageId w = out.ids[calls.back().next_link++];
        if (index[w] == kUnvisited) {
          visit(w);
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      calls.pop_back();
      if (!calls.empty()) {
        const PageId parent = calls.back().page;
        low[parent] = std::min(low[parent], low[v]);
      }
      if (low[v] == index[v]) {  // v is the first page of its component on the stack
        PageId w;
        do {
          w = stack.back();
          stack.pop_back();
          on_stack[w] = false;
          completed.push_back(w);
        } while (w != v);
        ends.push_back(completed.size());
      }
    }
  }

  StrongComponents c;
  c.pages.reserve(pages);
  c.begin.reserve(ends.size() + 1);
  c.of.resize(pages);
  for (std::size_t k = ends.size(); k-- > 0;) {
    const std::uint64_t first = k == 0 ? 0 : ends[k - 1];
    const auto id = static_cast<std::uint32_t>(c.begin.size());
    c.begin.push_back(c.pages.size());
    for (std::uint64_t i = first; i < ends[k]; ++i) {
      c.pages.push_back(completed[i]);
      c.of[completed[i]] = id;
    }
  }
  c.begin.push_back(c.pages.size());
  return c;
}

}  // namespace webrank
