#include "algo/strong_components.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <span>
#include <type_traits>

#include "util/parallel.hpp"

namespace webrank {
namespace {

// Why a pivot: a depth-first search is a chain of dependent reads (a page's backlink offsets,
// then its first backlink, then that page's entry), so once the backlinks outgrow the caches
// every step waits on memory (docs/performance.md: the giant component of a generated 1M-page web
// takes many times longer than all of cnr-2000, whose arrays fit in the L3). A breadth-first
// search knows its next pages in advance and can fetch them ahead (the frontier below), so the
// giant component is found as (pages the pivot reaches) ∩ (pages that reach the pivot), and the
// depth-first search then takes it as one node: its links are read page after page, in order.

// When it pays. On webs that fit in the L3 the depth-first search is faster. On larger ones it
// depends on the id order: the pivot's way wins where links join pages far apart (generated webs,
// Kronecker graphs), and loses on a large crawl in URL order, where most links join nearby ids
// and the depth-first search stays in the caches while the breadth-first searches need a hundred
// levels and Tarjan's search after them still scans every link. It also reads the forward links
// (file pages of the database, which the kernel can drop). docs/performance.md has the timings.
constexpr std::uint64_t kPivotSearchBytes = std::uint64_t{32} << 20;

// Local links: source and target less than kNearIds apart (2^16 entries of the search's 4-byte
// index: 256 KiB, well inside the L2). The share is sampled on the first (up to) 8 backlinks of
// 4,096 pages spread over the ids, those from the lowest ids, which on a crawl in URL order
// leans towards links from far-away hub pages (all links: 0.91-0.95 local on the crawls).
// Sampled: 0.97-0.99 on the crawls (and the ring of copies), 0.29 on the generated web, 0.24 on
// the Kronecker graph.
constexpr PageId kNearIds = PageId{1} << 16;
constexpr double kMaxLocalShareForPivot = 0.75;

// A set of pages, one bit each: the breadth-first searches test a page per link, and bits keep
// those tests in the caches (4 MiB for 32M pages).
class PageSet {
 public:
  explicit PageSet(PageId pages) : words_((std::size_t{pages} + 63) / 64, 0) {}
  bool contains(PageId u) const { return (words_[u / 64] >> (u % 64)) & 1; }
  // Pages [64 w, 64 w + 64) are word w: threads that each write their own words need no atomics.
  std::size_t words() const { return words_.size(); }
  std::uint64_t& word(std::size_t w) { return words_[w]; }
  std::uint64_t word(std::size_t w) const { return words_[w]; }
  void insert(PageId u) { words_[u / 64] |= std::uint64_t{1} << (u % 64); }
  // Appends the pages of the set to `out`, ascending (a word at a time: most words are empty).
  void append_pages(std::vector<PageId>& out) const {
    for (std::size_t w = 0; w < words_.size(); ++w) {
      for (std::uint64_t bits = words_[w]; bits; bits &= bits - 1) {
        out.push_back(static_cast<PageId>(w * 64 + std::countr_zero(bits)));
      }
    }
  }

 private:
  std::vector<std::uint64_t> words_;
};

// Adds to `reached` every page reachable from `from` along `links` through pages in `within`
// (every page if null); `reverse` holds the same links the other way round.
//
// Direction-optimizing (Beamer, Asanović and Patterson, SC 2012). While the frontier is small,
// its pages' links are followed (top-down: random reads, fetched ahead). Once it holds more
// than 1/kBottomUpShare of the pages not yet reached, each of those pages looks instead for a
// link from the frontier among its reverse links (bottom-up): they are read in order, the scan
// stops at the first hit, and the frontier's bits fit in the caches. The search goes back to
// top-down when the frontier falls below 1/kTopDownShare of all pages.
void breadth_first(const Adjacency& links, const Adjacency& reverse, PageId from, PageSet& reached,
                   const PageSet* within) {
  constexpr std::uint64_t kBottomUpShare = 14, kTopDownShare = 24;
  // How far ahead the frontier's offsets and first links are fetched: enough pages to cover a
  // memory access at the loop's pace.
  constexpr std::size_t kAhead = 16;
  const PageId pages = static_cast<PageId>(links.offsets.size() - 1);
  const auto allowed = [&](PageId u) {
    return !reached.contains(u) && (!within || within->contains(u));
  };
  std::vector<PageId> frontier{from}, next;  // top-down
  PageSet front(0), found(0);                // bottom-up
  bool bottom_up = false;
  std::uint64_t frontier_size = 1, left = pages - 1;
  reached.insert(from);
  while (frontier_size > 0) {
    const bool want_bottom_up =
        bottom_up ? frontier_size * kTopDownShare > pages : frontier_size * kBottomUpShare > left;
    if (want_bottom_up && !bottom_up) {
      front = PageSet(pages);
      found = PageSet(pages);
      for (const PageId u : frontier) front.insert(u);
    } else if (!want_bottom_up && bottom_up) {
      frontier.clear();
      front.append_pages(frontier);
    }
    bottom_up = want_bottom_up;
    if (bottom_up) {
      // In parallel, each thread writing the words of its own pages (of reached and found).
      std::uint64_t size = 0;
      const auto words = static_cast<std::int64_t>(reached.words());
#pragma omp parallel for schedule(dynamic, 64) reduction(+ : size) if (pages >= kMinParallelPages)
      for (std::int64_t w = 0; w < words; ++w) {
        std::uint64_t candidates =
            ~reached.word(w) & (within ? within->word(w) : ~std::uint64_t{0});
        if (static_cast<std::uint64_t>(w + 1) * 64 > pages) {
          candidates &= (std::uint64_t{1} << (pages % 64)) - 1;  // no pages past the last
        }
        std::uint64_t hits = 0;
        for (; candidates; candidates &= candidates - 1) {
          const PageId v = static_cast<PageId>(w * 64 + std::countr_zero(candidates));
          for (const PageId u : reverse.neighbors(v)) {
            if (front.contains(u)) {
              hits |= std::uint64_t{1} << (v % 64);
              break;
            }
          }
        }
        reached.word(w) |= hits;
        found.word(w) = hits;
        size += std::popcount(hits);
      }
      frontier_size = size;
      std::swap(front, found);
    } else {
      next.clear();
      for (std::size_t i = 0; i < frontier.size(); ++i) {
        if (i + 2 * kAhead < frontier.size()) {
          __builtin_prefetch(&links.offsets[frontier[i + 2 * kAhead]]);
        }
        if (i + kAhead < frontier.size()) {
          __builtin_prefetch(&links.ids[links.offsets[frontier[i + kAhead]]]);
        }
        for (const PageId w : links.neighbors(frontier[i])) {
          if (allowed(w)) {
            reached.insert(w);
            next.push_back(w);
          }
        }
      }
      frontier.swap(next);
      frontier_size = frontier.size();
    }
    left -= frontier_size;
  }
}

// The strongly connected component of the page with the most links in times out (a page with
// both, so one that the search has not set aside), ids ascending; empty for a web without
// cycles. Forward reach needs no filter: the pages it adds that are set aside (dangling ones)
// reach nothing, so the backward search never takes them.
std::vector<PageId> pivot_component(const GraphView& web, PageSet& component) {
  PageId pivot = 0;
  std::uint64_t best = 0;
  for (PageId u = 0; u < web.num_pages; ++u) {
    const std::uint64_t score = web.in.degree(u) * web.out.degree(u);
    if (score > best) best = score, pivot = u;
  }
  if (best == 0) return {};
  PageSet reached(web.num_pages);
  breadth_first(web.out, web.in, pivot, reached, nullptr);
  breadth_first(web.in, web.out, pivot, component, &reached);
  std::vector<PageId> pages;
  component.append_pages(pages);
  return pages;
}

}  // namespace

double local_link_share(const GraphView& web, PageId near_ids) {
  if (web.num_pages == 0) return 1.0;
  constexpr std::uint64_t kSamplePages = 4096, kLinksPerPage = 8;
  std::uint64_t near = 0, sampled = 0;
  for (std::uint64_t i = 0; i < kSamplePages; ++i) {
    const auto v = static_cast<PageId>(i * web.num_pages / kSamplePages);
    const std::span<const PageId> back = web.in.neighbors(v);
    for (std::size_t e = 0; e < std::min<std::size_t>(back.size(), kLinksPerPage); ++e) {
      near += (back[e] > v ? back[e] - v : v - back[e]) < near_ids;
      ++sampled;
    }
  }
  return sampled ? static_cast<double>(near) / static_cast<double>(sampled) : 1.0;
}

bool searches_from_pivot(const GraphView& web, PivotSearch pivot) {
  if (pivot != PivotSearch::kAuto) return pivot == PivotSearch::kAlways;
  const std::uint64_t pages = web.num_pages, links = web.in.ids.size();
  return 8 * pages + 4 * links >= kPivotSearchBytes &&
         local_link_share(web) <= kMaxLocalShareForPivot;
}

StrongComponents strong_components(const GraphView& web, PivotSearch pivot) {
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

  // The pivot's component, when searches_from_pivot says so, becomes one node of the search: all
  // its pages get the same visit number, and its frame scans their backlinks in id order
  // (pivot_page says which page the scan is in). Tarjan's invariants hold as on the graph with the
  // component contracted, and a contracted strongly connected component completes in one piece.
  const bool pivot_first = searches_from_pivot(web, pivot);
  PageSet in_pivot_component(pivot_first ? pages : 0);
  const std::vector<PageId> pivot_pages =
      pivot_first ? pivot_component(web, in_pivot_component) : std::vector<PageId>{};
  PageId pivot_index = kUnvisited;  // the visit number of the contracted component, once visited
  std::size_t pivot_page = 0;
  PageId next_index = 0;
  // Contracted = whether there is a pivot's component: a compile-time choice, so that the search
  // without one is the plain loop (its tests cost time on the crawls when made at run time:
  // docs/performance.md).
  const auto search = [&](auto contracted_tag) {
    constexpr bool kContracted = decltype(contracted_tag)::value;
    auto visit = [&](PageId v) {
      if (kContracted && in_pivot_component.contains(v)) {
        pivot_index = next_index;
        for (const PageId u : pivot_pages) {
          index[u] = next_index;
          stack.push_back(u);
        }
        v = pivot_pages.front();  // the first on the stack: where the component is popped to
      } else {
        index[v] = next_index;
        stack.push_back(v);
      }
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
        const bool contracted = kContracted && f.index == pivot_index;
        std::uint64_t e = f.next_link;
        std::uint64_t end = back.offsets[(contracted ? pivot_pages[pivot_page] : f.page) + 1];
        PageId lowest = f.low, above = f.above;
        // The contracted component's frame goes on through its pages' backlinks, one page
        // after another; any other frame stops after its own page.
        for (;;) {
          for (; e < end; ++e) {
            const PageId seen = index[back.ids[e]];
            if (seen == kUnvisited) break;
            lowest = std::min(lowest, seen);
            above = std::max(above, seen);
          }
          if (e < end || !contracted || ++pivot_page == pivot_pages.size()) break;
          e = back.offsets[pivot_pages[pivot_page]];
          end = back.offsets[pivot_pages[pivot_page] + 1];
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
  };
  if (pivot_pages.empty()) {
    search(std::false_type{});
  } else {
    search(std::true_type{});
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

void find_closed_components(const GraphView& web, StrongComponents& c) {
  const auto components = static_cast<std::int64_t>(c.count());
  std::vector<std::uint32_t>& closed = c.closed;
  closed.clear();
  std::vector<std::uint8_t> is_closed(static_cast<std::size_t>(components), 0);
#pragma omp parallel for schedule(dynamic, 1024) if (web.num_pages >= kMinParallelPages)
  for (std::int64_t k = 0; k < components; ++k) {
    bool linked = false, leaves = false;
    for (std::uint64_t i = c.begin[k]; i < c.begin[k + 1] && !leaves; ++i) {
      const PageId u = c.pages[i];
      for (const PageId v : web.out.neighbors(u)) {
        linked = true;
        if (c.of[v] != static_cast<std::uint32_t>(k)) {
          leaves = true;
          break;
        }
      }
    }
    is_closed[k] = linked && !leaves;
  }
  for (std::int64_t k = 0; k < components; ++k) {
    if (is_closed[k]) closed.push_back(static_cast<std::uint32_t>(k));
  }
}

}  // namespace webrank
