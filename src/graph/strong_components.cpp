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
  //
  // Levels ride along in the same array: a completed page's entry is kDone + its component's
  // level (capped at `cap`), still above every visit number, so the scan that lowers `low`
  // also finds, with one max, the highest level among the completed components linking in.
  constexpr PageId kUnvisited = std::numeric_limits<PageId>::max();
  const PageId cap = static_cast<PageId>(
      std::min<std::uint64_t>(StrongComponents::kInOrder, kUnvisited - 1 - std::uint64_t{pages}));
  const PageId kDone = kUnvisited - 1 - cap;  // >= pages
  std::vector<PageId> index(pages, kUnvisited);
  std::vector<PageId> stack;  // Tarjan's stack: visited pages not yet in a component
  stack.reserve(1024);
  // The depth-first search's own stack. A page's low-link is needed only while the page is on
  // it, so it lives in the frame rather than in an array indexed by page (one random access
  // per visit fewer).
  struct Frame {
    PageId page, index, low;
    PageId above;  // the highest entry seen: kDone + a level if any page upstream is complete
    std::uint64_t next_link;
  };
  std::vector<Frame> calls;

  // Two kinds of page are components of their own and need no search: a page without
  // backlinks can come first, and a dangling page last (no page depends on it). Crawls are full
  // of both (58% of web-NotreDame's pages are dangling); setting them aside keeps their links
  // out of the search. Other pages reach them only as kDone, which never lowers a low-link.
  StrongComponents c;
  c.of.resize(pages);
  constexpr std::uint32_t kLast = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t next_id = 0;  // components are numbered in order
  for (PageId u = 0; u < pages; ++u) {
    if (back.degree(u) == 0) {
      index[u] = kDone;  // level 0
      c.of[u] = next_id++;
    } else if (web.out.degree(u) == 0) {
      index[u] = kDone;  // never read: no page has a backlink from it
      c.of[u] = kLast;
    }
  }
  c.level.assign(next_id, 0);
  PageId next_index = 0;
  auto visit = [&](PageId v) {
    index[v] = next_index;
    stack.push_back(v);
    calls.push_back({v, next_index, next_index, 0, back.offsets[v]});
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
      PageId lowest = f.low, above = f.above;
      for (; e < end; ++e) {
        const PageId seen = index[back.ids[e]];
        if (seen == kUnvisited) break;
        lowest = std::min(lowest, seen);
        above = std::max(above, seen);
      }
      f.low = lowest;
      f.above = above;
      if (e < end) {
        f.next_link = e + 1;
        visit(back.ids[e]);  // invalidates f
        continue;
      }
      const Frame done = f;
      calls.pop_back();
      // What the caller learns: a completed component is upstream of it (its entry); pages
      // still in the caller's component pass on what they found upstream.
      PageId passed = done.above;
      if (done.low == done.index) {  // the first page of its component on the stack
        const PageId level =
            done.above >= kDone ? std::min<PageId>(done.above - kDone + 1, cap) : 0;
        passed = kDone + level;
        PageId w;
        do {
          w = stack.back();
          stack.pop_back();
          index[w] = passed;
          c.of[w] = next_id;
        } while (w != done.page);
        ++next_id;
        c.level.push_back(level == cap ? StrongComponents::kInOrder : level);
      }
      if (!calls.empty()) {
        calls.back().low = std::min(calls.back().low, done.low);
        calls.back().above = std::max(calls.back().above, passed);
      }
    }
  }
  for (PageId u = 0; u < pages; ++u) {
    if (c.of[u] == kLast) c.of[u] = next_id++;
  }
  c.level.resize(next_id, StrongComponents::kInOrder);
  // Pages grouped by component with a counting sort over the ids: sequential passes, and pages
  // come out in id order within each component without sorting each one. Filled from the last
  // page back, with begin[c + 1] as component c's cursor: no second array of counters (8 bytes
  // per component, 512 MB at a billion links), and afterwards begin[c + 1] has moved down to
  // where component c begins, one place early.
  c.begin.assign(std::size_t{next_id} + 1, 0);
  for (PageId u = 0; u < pages; ++u) ++c.begin[c.of[u] + 1];
  for (std::size_t i = 0; i < next_id; ++i) c.begin[i + 1] += c.begin[i];
  c.pages.resize(pages);
  for (PageId u = pages; u-- > 0;) c.pages[--c.begin[c.of[u] + 1]] = u;
  std::copy(c.begin.begin() + 1, c.begin.end(), c.begin.begin());
  c.begin.back() = pages;
  return c;
}

}  // namespace webrank
