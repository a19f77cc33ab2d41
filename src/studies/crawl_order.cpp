// Simulated crawls of the known web in four orders (webrank/studies/crawl_order.hpp).
#include "webrank/studies/crawl_order.hpp"
#include "webrank/writer/owned_graph.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <queue>
#include <random>

#include "webrank/rank/rank.hpp"
#include "webrank/util/error.hpp"

namespace webrank {

std::span<const Named<CrawlOrder>> names(CrawlOrder) {
  static constexpr Named<CrawlOrder> kNames[] = {{CrawlOrder::kPageRank, "pagerank"},
                                                 {CrawlOrder::kBacklinks, "backlinks"},
                                                 {CrawlOrder::kBreadth, "breadth"},
                                                 {CrawlOrder::kRandom, "random"}};
  return kNames;
}

std::span<const Named<HotBy>> names(HotBy) {
  static constexpr Named<HotBy> kNames[] = {{HotBy::kInDegree, "in-degree"},
                                            {HotBy::kPageRank, "pagerank"}};
  return kNames;
}

const char* to_string(CrawlOrder o) {
  return name_in(names(o), o);
}

const char* to_string(HotBy h) {
  return name_in(names(h), h);
}

namespace {

constexpr std::uint32_t kUnseen = 0xFFFFFFFFu;

// Pages reachable from the seed (the seed included), by a breadth-first search.
std::vector<PageId> reachable_from(const GraphView& g, PageId seed) {
  std::vector<std::uint8_t> seen(g.num_pages, 0);
  std::vector<PageId> order{seed};
  seen[seed] = 1;
  for (std::size_t i = 0; i < order.size(); ++i) {
    for (PageId y : g.out.neighbors(order[i])) {
      if (!seen[y]) {
        seen[y] = 1;
        order.push_back(y);
      }
    }
  }
  return order;
}

// A max-heap of (priority, page) with lazy deletion: an entry is current while the page is in
// the frontier and its priority is still the one pushed. Ties go to the page discovered first.
template <typename P>
class LazyHeap {
 public:
  struct Entry {
    P priority;
    std::uint32_t page;
    bool operator<(const Entry& o) const {
      return priority < o.priority || (priority == o.priority && page > o.page);
    }
  };
  void push(P p, std::uint32_t page) { heap_.push({p, page}); }
  template <typename Current>
  std::uint32_t pop(const Current& current) {
    while (!heap_.empty()) {
      const Entry e = heap_.top();
      heap_.pop();
      if (current(e.page, e.priority)) return e.page;
    }
    return kUnseen;
  }
  void clear() { heap_ = {}; }

 private:
  std::priority_queue<Entry> heap_;
};

class Simulation {
 public:
  Simulation(const GraphView& g, const CrawlOrderOptions& o, const std::vector<std::uint8_t>& hot,
             std::uint64_t hot_total, std::uint64_t reachable, std::uint64_t every)
      : g_(g),
        o_(o),
        hot_(hot),
        hot_total_(hot_total),
        reachable_(reachable),
        every_(every),
        local_(g.num_pages, kUnseen) {}

  CrawlCurve run(CrawlOrder order) {
    const auto start = std::chrono::steady_clock::now();
    order_ = order;
    CrawlCurve c;
    c.order = order;
    c.hot_at_10 = c.hot_at_20 = c.hot_at_50 = NAN;
    discover(o_.seed);
    std::mt19937_64 rng(o_.random_seed);
    std::size_t next_breadth = 0;
    std::uint64_t fetched = 0, hot_found = 0;
    double hot_sum = 0;
    std::size_t point = 1;
    const std::uint64_t progress_step = std::max<std::uint64_t>(1, reachable_ / 100);
    while (fetched < reachable_) {
      if (o_.stop.stop_requested()) fail(ErrorKind::kCancelled, "crawl-order interrupted");
      if (order == CrawlOrder::kPageRank && fetched > 0 && fetched % every_ == 0) {
        recompute();
        ++c.pagerank_computations;
      }
      std::uint32_t x = kUnseen;
      switch (order) {
        case CrawlOrder::kBreadth:
          while (fetched_[next_breadth]) ++next_breadth;
          x = static_cast<std::uint32_t>(next_breadth);
          break;
        case CrawlOrder::kRandom: {
          std::uniform_int_distribution<std::size_t> pick(0, frontier_.size() - 1);
          const std::size_t i = pick(rng);
          x = frontier_[i];
          frontier_[i] = frontier_.back();
          frontier_.pop_back();
          break;
        }
        case CrawlOrder::kBacklinks:
          x = by_count_.pop(
              [&](std::uint32_t p, std::uint64_t k) { return !fetched_[p] && backlinks_[p] == k; });
          break;
        case CrawlOrder::kPageRank:
          x = by_rank_.pop(
              [&](std::uint32_t p, double r) { return !fetched_[p] && estimate_[p] == r; });
          break;
      }
      fetch(x);
      ++fetched;
      hot_found += hot_[global_[x]];
      hot_sum += static_cast<double>(hot_found) / static_cast<double>(hot_total_);
      const double f = static_cast<double>(fetched) / static_cast<double>(reachable_);
      const double h = static_cast<double>(hot_found) / static_cast<double>(hot_total_);
      if (std::isnan(c.hot_at_10) && f >= 0.1) c.hot_at_10 = h;
      if (std::isnan(c.hot_at_20) && f >= 0.2) c.hot_at_20 = h;
      if (std::isnan(c.hot_at_50) && f >= 0.5) c.hot_at_50 = h;
      while (point <= o_.points &&
             fetched * o_.points >= static_cast<std::uint64_t>(point) * reachable_) {
        c.crawled.push_back(f);
        c.hot.push_back(h);
        ++point;
      }
      if (o_.on_progress && fetched % progress_step == 0) {
        o_.on_progress({order, fetched, reachable_, seconds_since(start)});
      }
    }
    c.mean_hot = hot_sum / static_cast<double>(reachable_);
    c.seconds = seconds_since(start);
    reset();
    return c;
  }

 private:
  static double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  }

  // The local id of page `u`, discovering it (into the frontier) if it is new.
  std::uint32_t discover(PageId u) {
    if (local_[u] != kUnseen) return local_[u];
    const auto x = static_cast<std::uint32_t>(global_.size());
    local_[u] = x;
    global_.push_back(u);
    fetched_.push_back(0);
    switch (order_) {
      case CrawlOrder::kRandom:
        frontier_.push_back(x);
        break;
      case CrawlOrder::kBacklinks:
        backlinks_.push_back(0);
        by_count_.push(0, x);
        break;
      case CrawlOrder::kPageRank:
        // A page found since the last computation starts from the teleport share of a page of
        // the graph seen then; its backlinks add theirs as they are fetched.
        estimate_.push_back((1 - o_.damping) / static_cast<double>(global_.size()));
        by_rank_.push(estimate_.back(), x);
        break;
      case CrawlOrder::kBreadth:
        break;
    }
    return x;
  }

  void fetch(std::uint32_t x) {
    fetched_[x] = 1;
    const auto targets = g_.out.neighbors(global_[x]);
    const double share = order_ == CrawlOrder::kPageRank && !targets.empty()
                             ? o_.damping * estimate_[x] / static_cast<double>(targets.size())
                             : 0.0;
    for (PageId t : targets) {
      const std::uint32_t y = discover(t);
      if (order_ == CrawlOrder::kPageRank) links_.push_back({x, y, 1.0});
      if (fetched_[y]) continue;
      if (order_ == CrawlOrder::kBacklinks) by_count_.push(++backlinks_[y], y);
      if (order_ == CrawlOrder::kPageRank) by_rank_.push(estimate_[y] += share, y);
    }
  }

  // PageRank of the graph seen so far: fetched pages with their links, frontier pages dangling.
  void recompute() {
    const auto n = static_cast<PageId>(global_.size());
    OwnedGraph seen(n, links_, false);
    RankOptions ro;
    ro.damping = o_.damping;
    ro.tol = o_.tol;
    ro.max_iter = 200;
    ro.threads = o_.threads;
    ro.stop = o_.stop;
    ro.start.reserve(n);
    for (PageId x = 0; x < n; ++x) ro.start.emplace_back(x, estimate_[x]);
    const RankResult r = compute_rank(seen.view(), ro);
    by_rank_.clear();
    for (PageId x = 0; x < n; ++x) {
      estimate_[x] = r.ranks[x];
      if (!fetched_[x]) by_rank_.push(estimate_[x], x);
    }
  }

  void reset() {
    for (PageId u : global_) local_[u] = kUnseen;
    global_.clear();
    fetched_.clear();
    frontier_.clear();
    backlinks_.clear();
    estimate_.clear();
    links_.clear();
    by_count_.clear();
    by_rank_.clear();
  }

  const GraphView& g_;
  const CrawlOrderOptions& o_;
  const std::vector<std::uint8_t>& hot_;
  std::uint64_t hot_total_, reachable_, every_;
  CrawlOrder order_ = CrawlOrder::kBreadth;
  std::vector<std::uint32_t> local_;  // by page id: its local id (discovery order) or kUnseen
  std::vector<PageId> global_;        // by local id
  std::vector<std::uint8_t> fetched_;
  std::vector<std::uint32_t> frontier_;   // random
  std::vector<std::uint64_t> backlinks_;  // backlinks: from fetched pages
  std::vector<double> estimate_;          // pagerank
  std::vector<OwnedGraph::Link> links_;   // pagerank: the graph seen so far
  LazyHeap<std::uint64_t> by_count_;
  LazyHeap<double> by_rank_;
};

}  // namespace

CrawlOrderStudy simulate_crawl_orders(const GraphView& g, const CrawlOrderOptions& o) {
  if (o.seed >= g.num_pages) {
    fail_option("seed", "page id ", o.seed, " is out of range (", g.num_pages, " pages)");
  }
  if (!(o.hot_fraction > 0 && o.hot_fraction <= 1)) {
    fail_option("hot_fraction", "must be in (0, 1], got ", o.hot_fraction);
  }
  if (o.hot_by == HotBy::kPageRank && o.final_ranks.size() != g.num_pages) {
    fail_option("hot_by", "pagerank needs the final ranks of all ", g.num_pages, " pages");
  }
  if (o.points == 0) fail_option("points", "must be >= 1");
  CrawlOrderStudy s;
  s.seed = o.seed;
  s.pages = g.num_pages;
  s.hot_by = o.hot_by;
  s.hot_fraction = o.hot_fraction;
  std::vector<PageId> reachable = reachable_from(g, o.seed);
  s.reachable = reachable.size();
  s.recompute_every =
      o.recompute_every > 0 ? o.recompute_every : std::max<std::uint64_t>(1, s.reachable / 100);
  // Hot: the top of the reachable pages by the final value, ties to the smaller id.
  auto value = [&](PageId u) {
    return o.hot_by == HotBy::kInDegree ? static_cast<double>(g.in.degree(u)) : o.final_ranks[u];
  };
  s.hot_pages = std::max<std::uint64_t>(
      1, static_cast<std::uint64_t>(
             std::ceil(o.hot_fraction * static_cast<double>(s.reachable) - 1e-9)));
  std::partial_sort(
      reachable.begin(), reachable.begin() + s.hot_pages, reachable.end(),
      [&](PageId a, PageId b) { return value(a) > value(b) || (value(a) == value(b) && a < b); });
  std::vector<std::uint8_t> hot(g.num_pages, 0);
  for (std::uint64_t i = 0; i < s.hot_pages; ++i) hot[reachable[i]] = 1;

  Simulation sim(g, o, hot, s.hot_pages, s.reachable, s.recompute_every);
  for (CrawlOrder order : o.orders) s.curves.push_back(sim.run(order));

  // The best any order can do: every hot page first.
  const double hot_share = static_cast<double>(s.hot_pages) / static_cast<double>(s.reachable);
  auto ideal = [&](double f) { return std::min(1.0, f / hot_share); };
  for (std::size_t i = 1; i <= o.points; ++i) {
    const double f = static_cast<double>(i) / static_cast<double>(o.points);
    s.ideal.crawled.push_back(f);
    s.ideal.hot.push_back(ideal(f));
  }
  s.ideal.hot_at_10 = ideal(0.1);
  s.ideal.hot_at_20 = ideal(0.2);
  s.ideal.hot_at_50 = ideal(0.5);
  double sum = 0;
  for (std::uint64_t k = 1; k <= s.reachable; ++k) {
    sum += std::min(1.0, static_cast<double>(k) / static_cast<double>(s.hot_pages));
  }
  s.ideal.mean_hot = sum / static_cast<double>(s.reachable);
  return s;
}

}  // namespace webrank
