// Forward push for one rank source (webrank/rank/push.hpp has the invariant and the bounds).
//
// The arrays are dense (an estimate and a residual per page) but allocated zeroed by the
// system, so a query pays only for the pages it touches; the touched pages are listed for the
// result.
#include "webrank/rank/push.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <memory>

#include "webrank/util/error.hpp"

namespace webrank {
namespace {

struct Free {
  void operator()(void* p) const { std::free(p); }
};
template <typename T>
std::unique_ptr<T[], Free> zeroed(std::size_t n) {
  void* p = std::calloc(std::max<std::size_t>(n, 1), sizeof(T));
  if (!p) throw std::bad_alloc();
  return std::unique_ptr<T[], Free>(static_cast<T*>(p));
}

// The source normalized to sum 1, duplicates merged (the same checks as Distribution's).
PageWeights normalized_source(const PageWeights& source, PageId n) {
  if (source.empty()) fail_option("source", "is empty; give at least one page");
  PageWeights s = source;
  double largest = 0;
  for (const auto& [page, w] : s) {
    if (page >= n) fail_option("source", "names page id ", page, ", out of range (", n, " pages)");
    if (!std::isfinite(w) || w < 0)
      fail_option("source", "gives page ", page, " the weight ", w, ", not a finite number >= 0");
    largest = std::max(largest, w);
  }
  if (!(largest > 0))
    fail_option("source", "has only zero weights; at least one page needs a positive weight");
  // Scaled by the largest before they are added (Distribution::from_weights says why).
  double sum = 0;
  for (auto& [page, w] : s) {
    w /= largest;
    sum += w;
  }
  std::sort(s.begin(), s.end());
  PageWeights merged;
  for (const auto& [page, w] : s) {
    if (w == 0) continue;
    if (!merged.empty() && merged.back().first == page) {
      merged.back().second += w;
    } else {
      merged.emplace_back(page, w);
    }
  }
  for (auto& [page, w] : merged) w /= sum;
  return merged;
}

class Push {
 public:
  Push(const GraphView& g, const PageWeights& source, const PushOptions& o)
      : g_(g),
        o_(o),
        d_(o.damping),
        source_(normalized_source(source, g.num_pages)),
        p_(zeroed<double>(g.num_pages)),
        r_(zeroed<double>(g.num_pages)),
        seen_(zeroed<std::uint8_t>(g.num_pages)) {}

  PushResult run() {
    const auto start = std::chrono::steady_clock::now();
    for (const auto& [page, w] : source_) add(page, w, true);
    // The queue phase, while few pages are active.
    const std::size_t crowded = std::max<std::size_t>(g_.num_pages / 16, 1024);
    std::size_t head = 0;
    while (head < queue_.size()) {
      if (queue_.size() - head >= crowded) break;
      const PageId u = queue_[head++];
      seen_[u] &= ~kQueued;
      push(u, true);
      if (head > (std::size_t(1) << 20) && head * 2 > queue_.size()) {
        queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(head));
        head = 0;
      }
    }
    // Sweeps in id order over every page, pushing in place, until no page is above threshold.
    if (head < queue_.size()) {
      queue_.clear();
      for (bool pushed = true; pushed;) {
        pushed = false;
        ++result_.sweeps;
        for (PageId u = 0; u < g_.num_pages; ++u) {
          if (r_[u] > threshold(u)) {
            push(u, false);
            pushed = true;
          }
        }
      }
    }
    for (PageId u : touched_) {
      if (p_[u] > 0) result_.estimate.emplace_back(u, p_[u]);
      if (r_[u] > 0) {
        result_.residual.emplace_back(u, r_[u]);
        result_.residual_sum += r_[u];
      }
    }
    std::sort(result_.estimate.begin(), result_.estimate.end());
    std::sort(result_.residual.begin(), result_.residual.end());
    result_.pages_touched = static_cast<PageId>(touched_.size());
    result_.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return std::move(result_);
  }

 private:
  static constexpr std::uint8_t kTouched = 1, kQueued = 2;

  double threshold(PageId u) const {
    return o_.eps * static_cast<double>(std::max<std::uint64_t>(1, g_.out.degree(u)));
  }

  void add(PageId v, double x, bool queue) {
    if (!(seen_[v] & kTouched)) {
      seen_[v] |= kTouched;
      touched_.push_back(v);
    }
    r_[v] += x;
    if (queue && !(seen_[v] & kQueued) && r_[v] > threshold(v)) {
      seen_[v] |= kQueued;
      queue_.push_back(v);
    }
  }

  void push(PageId u, bool queue) {
    if ((++result_.pushes & 4095) == 0 && o_.stop.stop_requested())
      fail(ErrorKind::kCancelled, "personalized push stopped by request");
    const double ru = r_[u];
    r_[u] = 0;
    p_[u] += (1 - d_) * ru;
    const auto targets = g_.out.neighbors(u);
    double strength = static_cast<double>(targets.size());
    const auto weights = g_.weighted() ? g_.out.neighbor_weights(u) : std::span<const double>();
    if (g_.weighted()) {
      strength = 0;
      for (double w : weights) strength += w;
    }
    if (!(strength > 0)) {  // dangling: along E
      for (const auto& [page, w] : source_) add(page, d_ * ru * w, queue);
      return;
    }
    result_.links_visited += targets.size();
    const double share = d_ * ru / strength;
    for (std::size_t i = 0; i < targets.size(); ++i) {
      add(targets[i], g_.weighted() ? share * weights[i] : share, queue);
    }
  }

  const GraphView& g_;
  const PushOptions& o_;
  double d_;
  PageWeights source_;
  std::unique_ptr<double[], Free> p_, r_;
  std::unique_ptr<std::uint8_t[], Free> seen_;
  std::vector<PageId> touched_, queue_;
  PushResult result_;
};

}  // namespace

PushResult personalized_push(const GraphView& graph, const PageWeights& source,
                             const PushOptions& options) {
  if (graph.num_pages == 0)
    fail(ErrorKind::kInvalidArgument, "cannot rank an empty web (no pages)");
  if (!(options.damping >= 0 && options.damping < 1))
    fail_option("damping", "must be in [0, 1) for push, got ", options.damping);
  if (!(options.eps > 0) || !std::isfinite(options.eps))
    fail_option("eps", "must be a finite number > 0, got ", options.eps);
  return Push(graph, source, options).run();
}

PprTop personalized_top(const GraphView& graph, const PageWeights& source,
                        const PushOptions& options) {
  PprTop t;
  t.push = personalized_push(graph, source, options);
  const double total = t.push.residual_sum;
  const double d = options.damping;
  // Residuals by page, for the bounds of the pages with an estimate (both lists are by id).
  std::vector<PprEntry> all;
  all.reserve(t.push.estimate.size());
  auto res = t.push.residual.begin();
  auto upper = [&](PageId page, double lower) {
    while (res != t.push.residual.end() && res->first < page) ++res;
    const double r = res != t.push.residual.end() && res->first == page ? res->second : 0.0;
    return lower + r + d * (total - r);
  };
  for (const auto& [page, p] : t.push.estimate) all.push_back({page, p, upper(page, p)});
  const std::size_t k = std::min(options.k, all.size());
  auto higher = [](const PprEntry& a, const PprEntry& b) {
    return a.lower > b.lower || (a.lower == b.lower && a.page < b.page);
  };
  std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(k), all.end(), higher);
  t.top.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(k));
  // Pages outside the top: those with an estimate, and those with a residual only or nothing
  // (upper bound r + d·(Σr − r) <= Σr; d·Σr for a page never reached).
  double outside = t.push.pages_touched < graph.num_pages ? d * total : 0.0;
  for (std::size_t i = k; i < all.size(); ++i) outside = std::max(outside, all[i].upper);
  std::vector<PageId> top_pages;
  for (const PprEntry& e : t.top) top_pages.push_back(e.page);
  std::sort(top_pages.begin(), top_pages.end());
  for (const auto& [page, r] : t.push.residual) {
    if (!std::binary_search(top_pages.begin(), top_pages.end(), page))
      outside = std::max(outside, r + d * (total - r));
  }
  t.outside_upper = outside;
  const double lowest = t.top.empty() ? 0.0 : t.top.back().lower;
  t.certified = k == options.k && lowest >= outside;
  return t;
}

}  // namespace webrank
