// A page's rank split into its terms, its strongest two-hop paths, and what-ifs by a local
// re-solve (webrank/studies/explain.hpp).
#include "webrank/studies/explain.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <nlohmann/json.hpp>
#include <queue>
#include <unordered_map>

#include "rank/stored_formulation.hpp"
#include "web/url.hpp"
#include "webrank/store/rank_store.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

// Neumaier's compensated sum: the terms of a page's rank add up to within a rounding of the sum.
class ExactSum {
 public:
  void add(double x) {
    const double t = sum_ + x;
    compensation_ += std::abs(sum_) >= std::abs(x) ? (sum_ - t) + x : (x - t) + sum_;
    sum_ = t;
  }
  double value() const { return sum_ + compensation_; }

 private:
  double sum_ = 0, compensation_ = 0;
};

class Explainer {
 public:
  Explainer(const Database& db, const StoredRanks& stored, const StoredFormulation& f)
      : db_(db), g_(db.graph()), r_(stored.values), f_(f), d_(f.damping) {}

  // W(v): out-degree, or out-weight on a weighted web.
  double strength(PageId v) const {
    if (!g_.weighted()) return static_cast<double>(g_.out.degree(v));
    double s = 0;
    for (double w : g_.out.neighbor_weights(v)) s += w;
    return s;
  }
  double link_weight(const Adjacency& adj, PageId list, std::size_t i) const {
    return g_.weighted() ? adj.neighbor_weights(list)[i] : 1.0;
  }

  RankExplanation explain(PageId u, const ExplainOptions& o) {
    RankExplanation e;
    e.page = u;
    e.label = db_.label(u);
    e.vector = o.ranks;
    e.damping = d_;
    e.rank = r_[u];
    e.source_term = (1 - d_) * f_.e(u);
    if (f_.d(u) > 0) {
      ExactSum mass;
      for (PageId v = 0; v < g_.num_pages; ++v) {
        if (!(strength(v) > 0)) mass.add(r_[v]);
      }
      e.dangling_term = d_ * mass.value() * f_.d(u);
    }
    const auto from = g_.in.neighbors(u);
    for (std::size_t i = 0; i < from.size(); ++i) {
      BacklinkContribution b;
      b.page = from[i];
      b.label = db_.label(b.page);
      b.rank = r_[b.page];
      b.out_links = g_.out.degree(b.page);
      b.share = link_weight(g_.in, u, i) / strength(b.page);
      b.contribution = d_ * b.rank * b.share;
      e.backlinks.push_back(std::move(b));
    }
    std::sort(e.backlinks.begin(), e.backlinks.end(), [](const auto& a, const auto& b) {
      return a.contribution > b.contribution ||
             (a.contribution == b.contribution && a.page < b.page);
    });
    ExactSum links, all;
    all.add(e.source_term);
    all.add(e.dangling_term);
    for (const auto& b : e.backlinks) {
      links.add(b.contribution);
      all.add(b.contribution);
    }
    e.backlinks_term = links.value();
    e.sum = all.value();
    e.residual = e.rank - e.sum;
    e.paths = top_paths(u, o.k);
    return e;
  }

  // The k paths w → v → u carrying the most rank in two steps.
  std::vector<RankPath> top_paths(PageId u, std::size_t k) const {
    struct Entry {
      double c;
      PageId w, v;
      bool operator<(const Entry& o) const {  // a min-heap on contribution
        return c > o.c || (c == o.c && std::tie(w, v) < std::tie(o.w, o.v));
      }
    };
    std::priority_queue<Entry> best;
    if (k == 0) return {};
    const auto vs = g_.in.neighbors(u);
    for (std::size_t i = 0; i < vs.size(); ++i) {
      const PageId v = vs[i];
      const double second = d_ * link_weight(g_.in, u, i) / strength(v);
      const auto ws = g_.in.neighbors(v);
      for (std::size_t j = 0; j < ws.size(); ++j) {
        const PageId w = ws[j];
        const double c = d_ * r_[w] * link_weight(g_.in, v, j) / strength(w) * second;
        if (best.size() < k) {
          best.push({c, w, v});
        } else if (Entry{c, w, v} < best.top()) {
          best.pop();
          best.push({c, w, v});
        }
      }
    }
    std::vector<RankPath> paths;
    for (; !best.empty(); best.pop()) {
      const Entry& t = best.top();
      paths.push_back({t.w, t.v, std::string(db_.label(t.w)), std::string(db_.label(t.v)), t.c});
    }
    std::reverse(paths.begin(), paths.end());
    return paths;
  }

  // The page's rank without the links into u from `sources`.
  WhatIf without(PageId u, const std::vector<PageId>& sources, std::string what,
                 const ExplainOptions& o) {
    const auto start = std::chrono::steady_clock::now();
    const PageId n = g_.num_pages;
    WhatIf w;
    w.without = std::move(what);
    // New out-weights of the pages that lose their link to u.
    std::unordered_map<PageId, double> new_strength;
    std::vector<double> r(n, 0.0), p(n, 0.0);
    std::vector<std::uint8_t> queued(n, 0), touched(n, 0);
    std::vector<PageId> touched_list;
    double g = 0;  // residual of the dangling distribution, spread over D when pushed
    auto add = [&](PageId y, double x) {
      r[y] += x;
      if (!touched[y]) {
        touched[y] = 1;
        touched_list.push_back(y);
      }
    };
    auto removed = [&](PageId v, PageId y) { return y == u && new_strength.count(v) > 0; };
    auto strength_now = [&](PageId v) {
      const auto it = new_strength.find(v);
      return it == new_strength.end() ? strength(v) : it->second;
    };
    // r₀ = T′(R) − T(R): the removed links' share moves to the source's other links, or to the
    // dangling distribution when it had no other.
    const auto vs = g_.in.neighbors(u);
    for (std::size_t i = 0; i < vs.size(); ++i) {
      if (std::find(sources.begin(), sources.end(), vs[i]) == sources.end()) continue;
      const double old_s = strength(vs[i]);
      new_strength[vs[i]] = std::max(0.0, old_s - link_weight(g_.in, u, i));
      ++w.links_removed;
    }
    for (const auto& [v, s] : new_strength) {
      const double old_s = strength(v);
      const auto ys = g_.out.neighbors(v);
      for (std::size_t i = 0; i < ys.size(); ++i) {
        const double wt = link_weight(g_.out, v, i);
        if (ys[i] == u) {
          add(u, -d_ * r_[v] * wt / old_s);
        } else if (s > 0) {
          add(ys[i], d_ * r_[v] * wt * (1 / s - 1 / old_s));
        }
      }
      if (!(s > 0) && !f_.leak) g += d_ * r_[v];
    }
    double max_d = 0;
    for (PageId y = 0; y < n && !f_.leak; ++y) max_d = std::max(max_d, f_.d(y));
    auto residual_norm = [&] {
      double s = std::abs(g);
      for (PageId y : touched_list) s += std::abs(r[y]);
      return s;
    };
    const double target = std::max(o.what_if_tolerance * r_[u], 1e-300);
    const double bound_factor = d_ / (1 - d_);
    double norm = residual_norm();
    double eps = norm / 16;
    std::deque<PageId> queue;
    auto enqueue = [&](PageId y) {
      if (!queued[y] && std::abs(r[y]) > eps) {
        queued[y] = 1;
        queue.push_back(y);
      }
    };
    bool timed_out = false;
    while (bound_factor * norm > target) {
      for (PageId y : touched_list) enqueue(y);
      if (std::abs(g) * max_d > eps) {  // the dangling distribution, pushed to every page
        const double mass = g;
        g = 0;
        for (PageId y = 0; y < n; ++y) {
          if (f_.d(y) > 0) add(y, mass * f_.d(y));
          enqueue(y);
        }
      }
      while (!queue.empty()) {
        const PageId x = queue.front();
        queue.pop_front();
        queued[x] = 0;
        const double rx = r[x];
        r[x] = 0;
        p[x] += rx;
        ++w.pushes;
        const double s = strength_now(x);
        if (s > 0) {
          const auto ys = g_.out.neighbors(x);
          const double share = d_ * rx / s;
          for (std::size_t i = 0; i < ys.size(); ++i) {
            if (removed(x, ys[i])) continue;
            add(ys[i], share * link_weight(g_.out, x, i));
            enqueue(ys[i]);
          }
        } else if (!f_.leak) {
          g += d_ * rx;
        }
        if ((w.pushes & 1023) == 0) {
          if (o.stop.stop_requested()) fail(ErrorKind::kCancelled, "what-if stopped by request");
          if (seconds_since(start) > o.what_if_seconds) {
            timed_out = true;
            break;
          }
        }
      }
      norm = residual_norm();
      if (timed_out || seconds_since(start) > o.what_if_seconds) break;
      eps /= 16;
    }
    // Δ = p + r + g·D + Σ_{k≥1} (dM′)^k (r + g·D): the last sum is the error.
    const double change = p[u] + r[u] + g * (f_.leak ? 0.0 : f_.d(u));
    w.rank = r_[u] + change;
    w.change = change;
    w.error_bound = bound_factor * norm;
    w.within_tolerance = w.error_bound <= target;
    w.seconds = seconds_since(start);
    return w;
  }

 private:
  static double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  }

  const Database& db_;
  const GraphView& g_;
  const std::vector<double>& r_;
  const StoredFormulation& f_;
  double d_;
};

std::string host_of(std::string_view label) {
  const auto url = web::parse_url(label);
  return url ? url->host : std::string();
}

}  // namespace

RankExplanation explain_rank(const Database& db, PageId page, const ExplainOptions& o) {
  if (page >= db.num_pages()) {
    fail(ErrorKind::kInvalidArgument, "page id ", page, " is out of range (", db.num_pages(),
         " pages)");
  }
  const StoredRanks stored = load_ranks(db, o.ranks);
  const StoredFormulation f = stored_formulation(stored.record, db.num_pages());
  if (!f.not_a_fixed_point.empty()) {
    fail_option("ranks", "'", o.ranks, "' cannot be explained term by term: ", f.not_a_fixed_point);
  }
  Explainer x(db, stored, f);
  RankExplanation e = x.explain(page, o);
  const bool asked = !o.without_pages.empty() || !o.without_hosts.empty();
  if ((asked || (o.what_if_top_backlink && !e.backlinks.empty())) && !(f.damping < 1)) {
    if (!asked) return e;
    fail_option("ranks", "what-if needs a damping factor below 1 ('", o.ranks,
                "' has d = ", f.damping, ")");
  }
  const auto from = db.graph().in.neighbors(page);
  for (const std::string& label : o.without_pages) {
    const auto v = db.find(label);
    if (!v) fail(ErrorKind::kNotFound, "page '", label, "' is not in ", db.path().string());
    if (!std::binary_search(from.begin(), from.end(), *v)) {
      fail(ErrorKind::kNotFound, "'", label, "' does not link to '", e.label, "'");
    }
    e.what_if.push_back(x.without(page, {*v}, "link from " + label, o));
  }
  for (const std::string& host : o.without_hosts) {
    std::string h = host;
    std::transform(h.begin(), h.end(), h.begin(), [](unsigned char c) { return std::tolower(c); });
    std::vector<PageId> sources;
    for (PageId v : from) {
      if (host_of(db.label(v)) == h) sources.push_back(v);
    }
    if (sources.empty()) {
      fail(ErrorKind::kNotFound, "no page of host '", host, "' links to '", e.label, "'");
    }
    e.what_if.push_back(x.without(page, sources, "host " + h, o));
  }
  if (!asked && o.what_if_top_backlink && !e.backlinks.empty()) {
    e.what_if.push_back(
        x.without(page, {e.backlinks[0].page}, "link from " + e.backlinks[0].label, o));
  }
  return e;
}

}  // namespace webrank
