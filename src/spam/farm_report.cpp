// The report of likely spam farms (webrank/spam/spam.hpp; docs/spam.md has the rule and its
// measured precision and recall).
//
// For each page whose PageRank is well above the average (a farm exists to make its target
// rank high), the farm feeding it is the largest set of pages that pass their rank on into it and
// get their own from it: pages most of whose out-links go into the farm (the target or other
// supporters) and most of whose in-links come from it, or, for supporters that hide behind a few
// honest-looking links, some of whose out-links go into it and all of whose in-links come from
// it. It does not depend on the order pages are met in. Then the share of the target's PageRank
// that the farm's links carry into it is measured, as the article accounts for a farm.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "web/url.hpp"
#include "webrank/spam/spam.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

class FarmFinder {
 public:
  FarmFinder(const Database& db, const std::vector<double>& pagerank, const SpamReportOptions& o)
      : db_(db), g_(db.graph()), p_(pagerank), o_(o) {}

  // The supporters of `target` (the target itself excluded). First the pages that pass their
  // rank on into the farm, grown backwards from the target (counts of links into the farm are
  // kept per page, so the order pages are met in does not matter); then those that do not get
  // their own rank from it (most of their in-links from outside: honest pages that link to the
  // target) are removed, and with them pages left linking mostly outside, until nothing changes.
  std::vector<PageId> find(PageId target) {
    std::unordered_map<PageId, std::uint32_t> into;  // out-links into the farm, per page met
    std::unordered_set<PageId> farm{target};
    std::vector<PageId> members, queue{target};
    for (std::size_t head = 0; head < queue.size() && members.size() < o_.max_farm_pages; ++head) {
      for (const PageId v : g_.in.neighbors(queue[head])) {
        if (farm.count(v) || p_[v] > p_[target]) continue;
        const double links = static_cast<double>(g_.out.degree(v));
        const double share = ++into[v] / links;
        if (share >= o_.min_out_share ||
            (share >= o_.min_hidden_out_share && links_only_from(v, farm))) {
          farm.insert(v);
          members.push_back(v);
          queue.push_back(v);
        }
      }
    }
    for (bool changed = true; changed;) {
      changed = false;
      std::vector<PageId> kept;
      for (PageId v : members) {
        if (belongs(v, farm)) {
          kept.push_back(v);
        } else {
          farm.erase(v);
          changed = true;
        }
      }
      members = std::move(kept);
    }
    return members;
  }

  // The share of P(target) the farm carries into it: the rank its supporters pass along their
  // links to the target, d·Σ_{v∈F} P(v)·w(v,T)/W(v), over P(T). This is the article's account of
  // a farm (y = x + β/n + the supporters' part, which includes the target's own rank coming back
  // through them).
  double share(PageId target, const std::vector<PageId>& farm) const {
    double carried = 0;
    for (PageId v : farm) {
      const auto targets = g_.out.neighbors(v);
      const auto it = std::lower_bound(targets.begin(), targets.end(), target);
      if (it == targets.end() || *it != target) continue;
      double strength = static_cast<double>(targets.size()), w = 1;
      if (g_.weighted()) {
        const auto weights = g_.out.neighbor_weights(v);
        strength = 0;
        for (double x : weights) strength += x;
        w = weights[static_cast<std::size_t>(it - targets.begin())];
      }
      carried += p_[v] * w / strength;
    }
    return o_.damping * carried / p_[target];
  }

  FarmStructure structure(PageId target, const std::vector<PageId>& farm) const {
    FarmStructure s;
    s.supporters = farm.size();
    std::unordered_set<PageId> in_farm(farm.begin(), farm.end());
    in_farm.insert(target);
    std::uint64_t out = 0, out_in = 0, in = 0, in_from = 0;
    for (PageId v : farm) {
      for (PageId w : g_.out.neighbors(v)) out_in += in_farm.count(w);
      for (PageId w : g_.in.neighbors(v)) in_from += in_farm.count(w);
      out += g_.out.degree(v);
      in += g_.in.degree(v);
    }
    const auto targets = g_.out.neighbors(target);
    for (PageId v : farm) s.reciprocal += std::binary_search(targets.begin(), targets.end(), v);
    const double m = static_cast<double>(std::max<std::size_t>(1, farm.size()));
    s.mean_out_degree = static_cast<double>(out) / m;
    s.mean_in_degree = static_cast<double>(in) / m;
    s.out_share_to_farm = out ? static_cast<double>(out_in) / static_cast<double>(out) : 0.0;
    s.in_share_from_farm = in ? static_cast<double>(in_from) / static_cast<double>(in) : 0.0;
    // Hosts, and what a crawl knows: duplicate bodies and titles shared across hosts.
    std::unordered_set<std::string> hosts;
    std::unordered_map<std::uint64_t, std::size_t> bodies;
    std::map<std::string, std::unordered_set<std::string>> title_hosts;
    std::vector<PageId> pages = farm;
    pages.push_back(target);
    for (PageId v : pages) {
      const auto url = web::parse_url(db_.label(v));
      const std::string host = url && !url->host.empty() ? url->authority() : std::string();
      if (!host.empty()) hosts.insert(host);
      if (const auto hash = db_.content_hash(v); hash && *hash != 0) ++bodies[*hash];
      if (const auto title = db_.title(v); title && !title->empty() && !host.empty())
        title_hosts[std::string(*title)].insert(host);
    }
    s.hosts = hosts.size();
    for (PageId v : farm) {
      const auto hash = db_.content_hash(v);
      if (hash && *hash != 0 && bodies[*hash] > 1) ++s.duplicate_content;
    }
    for (const auto& [title, h] : title_hosts) {
      if (h.size() > 1) s.hosts_sharing_a_title = std::max(s.hosts_sharing_a_title, h.size());
    }
    return s;
  }

 private:
  bool links_only_from(PageId v, const std::unordered_set<PageId>& farm) const {
    const auto from = g_.in.neighbors(v);
    return std::all_of(from.begin(), from.end(), [&](PageId w) { return farm.count(w) != 0; });
  }

  // Whether v is a supporter of `farm` (which holds the target): it sends at least
  // min_out_share of its out-links into the farm and gets at least min_in_share of its in-links
  // from it (or has none); or, hiding behind honest-looking links, sends min_hidden_out_share
  // and gets every in-link from the farm.
  bool belongs(PageId v, const std::unordered_set<PageId>& farm) const {
    std::size_t out = 0, in = 0;
    for (PageId w : g_.out.neighbors(v)) out += farm.count(w);
    for (PageId w : g_.in.neighbors(v)) in += farm.count(w);
    const double out_share = static_cast<double>(out) / static_cast<double>(g_.out.degree(v));
    const std::uint64_t in_links = g_.in.degree(v);
    const double in_share =
        in_links ? static_cast<double>(in) / static_cast<double>(in_links) : 1.0;
    return (out_share >= o_.min_out_share && in_share >= o_.min_in_share) ||
           (out_share >= o_.min_hidden_out_share && in_share >= 1.0);
  }

  const Database& db_;
  const GraphView& g_;
  const std::vector<double>& p_;
  const SpamReportOptions& o_;
};

}  // namespace

SpamReport spam_report(const Database& db, const std::vector<double>& pagerank,
                       const std::vector<double>& relative_mass, const SpamReportOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const PageId n = db.num_pages();
  if (pagerank.size() != n)
    fail_option("pagerank", "holds ", pagerank.size(), " ranks, the database has ", n, " pages");
  if (!relative_mass.empty() && relative_mass.size() != n)
    fail_option("relative_mass", "holds ", relative_mass.size(), " values, the database has ", n,
                " pages");
  if (!(o.min_out_share > 0 && o.min_out_share <= 1))
    fail_option("min_out_share", "must be in (0, 1], got ", o.min_out_share);
  if (!(o.min_hidden_out_share > 0 && o.min_hidden_out_share <= o.min_out_share))
    fail_option("min_hidden_out_share", "must be in (0, ", option_ref("min_out_share"), "], got ",
                o.min_hidden_out_share);
  if (!(o.damping >= 0 && o.damping < 1))
    fail_option("damping", "must be in [0, 1), got ", o.damping);
  SpamReport report;
  report.used_trust = !relative_mass.empty();
  std::vector<PageId> candidates;
  for (PageId u = 0; u < n; ++u) {
    if (pagerank[u] * n >= o.min_scaled_pagerank) candidates.push_back(u);
  }
  report.candidates = candidates.size();
  FarmFinder finder(db, pagerank, o);
  for (PageId t : candidates) {
    std::vector<PageId> farm = finder.find(t);
    if (farm.size() < o.min_supporters) continue;
    const double share = finder.share(t, farm);
    if (share < o.min_farm_share) continue;
    // The spam mass of the farm as a whole (target and supporters): Σ M / Σ P.
    double farm_mass = -1;
    if (report.used_trust) {
      double mass = relative_mass[t] * pagerank[t], rank = pagerank[t];
      for (PageId v : farm) {
        mass += relative_mass[v] * pagerank[v];
        rank += pagerank[v];
      }
      farm_mass = rank > 0 ? mass / rank : 0.0;
      if (farm_mass < o.min_relative_mass) continue;
    }
    SpamFarm f;
    f.target = t;
    f.pagerank = pagerank[t];
    f.scaled_pagerank = pagerank[t] * n;
    f.farm_share = share;
    f.relative_mass = report.used_trust ? relative_mass[t] : -1.0;
    f.farm_mass = farm_mass;
    f.score = share * pagerank[t];
    f.structure = finder.structure(t, farm);
    std::sort(farm.begin(), farm.end(), [&](PageId a, PageId b) {
      return pagerank[a] > pagerank[b] || (pagerank[a] == pagerank[b] && a < b);
    });
    f.supporters = std::move(farm);
    report.farms.push_back(std::move(f));
  }
  std::sort(report.farms.begin(), report.farms.end(), [](const SpamFarm& a, const SpamFarm& b) {
    return a.score > b.score || (a.score == b.score && a.target < b.target);
  });
  if (report.farms.size() > o.max_reports) report.farms.resize(o.max_reports);
  std::vector<PageId> targets;
  for (const auto& f : report.farms) targets.push_back(f.target);
  std::sort(targets.begin(), targets.end());
  const GraphView& g = db.graph();
  for (auto& f : report.farms) {
    for (PageId v : g.in.neighbors(f.target)) {
      if (v != f.target && std::binary_search(targets.begin(), targets.end(), v))
        f.allied_targets.push_back(v);
    }
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace webrank
