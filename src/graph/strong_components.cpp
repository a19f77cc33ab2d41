#include "graph/strong_components.hpp"

#include <algorithm>
#include <limits>

namespace webrank {

StrongComponents strong_components(const GraphView& web) {
  const PageId pages = web.num_pages;
  const Adjacency& back = web.in;
  // index[w] is w's visit number while w is on Tarjan's stack and kDone once its component is
  // complete: larger than every visit number, so `low = min(low, index[w])` needs no on-stack
  // test (a link to a completed component never lowers low).
  constexpr PageId kUnvisited = std::numeric_limits<PageId>::max();
  constexpr PageId kDone = kUnvisited - 1;
  std::vector<PageId> index(pages, kUnvisited);
  std::vector<PageId> stack;  // Tarjan's stack: visited pages not yet in a component
  stack.reserve(1024);
  // The depth-first search's own stack. A page's low-link is needed only while the page is on
  // it, so it lives in the frame rather than in an array indexed by page (one random access
  // per visit fewer).
  struct Frame {
    PageId page, index, low;
    std::uint64_t next_link;
  };
  std::vector<Frame> calls;

  StrongComponents c;
  c.pages.reserve(pages);  // components are appended as Tarjan completes them
  c.begin.push_back(0);
  c.of.resize(pages);
  PageId next_index = 0;
  auto visit = [&](PageId v) {
    index[v] = next_index;
    stack.push_back(v);
    calls.push_back({v, next_index, next_index, back.offsets[v]});
    ++next_index;
  };
  for (PageId root = 0; root < pages; ++root) {
    if (index[root] != kUnvisited) continue;
    visit(root);
    while (!calls.empty()) {
      // Scan v's links until one leads to an unvisited page, in locals: going through
      // calls.back() per link made the scan a chain of store-to-load forwards.
      Frame& f = calls.back();
      std::uint64_t e = f.next_link;
      const std::uint64_t end = back.offsets[f.page + 1];
      PageId lowest = f.low;
      for (; e < end; ++e) {
        const PageId seen = index[back.ids[e]];
        if (seen == kUnvisited) break;
        lowest = std::min(lowest, seen);
      }
      f.low = lowest;
      if (e < end) {
        f.next_link = e + 1;
        visit(back.ids[e]);  // invalidates f
        continue;
      }
      const Frame done = f;
      calls.pop_back();
      if (!calls.empty()) calls.back().low = std::min(calls.back().low, done.low);
      if (done.low == done.index) {  // the first page of its component on the stack
        const auto id = static_cast<std::uint32_t>(c.begin.size() - 1);
        PageId w;
        do {
          w = stack.back();
          stack.pop_back();
          index[w] = kDone;
          c.of[w] = id;
          c.pages.push_back(w);
        } while (w != done.page);
        if (c.pages.size() - c.begin.back() > 1) {
          std::sort(c.pages.begin() + static_cast<std::ptrdiff_t>(c.begin.back()), c.pages.end());
        }
        c.begin.push_back(c.pages.size());
      }
    }
  }
  return c;
}

}  // namespace webrank
