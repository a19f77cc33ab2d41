// The paper's treatment of dangling pages (§2.7, §3.1): delete them, repeatedly, since each
// deletion can leave new pages without out-links; rank the core that remains; then add the
// removed pages back and iterate k more times (k = number of removal rounds) so that every page
// gets weight. The core is ranked with the out-degrees it has after removal; pages added back
// receive rank through their source pages' ORIGINAL out-degrees, as in the article's example
// (docs/ranking.md). The core sums to 1 and the added pages come on top: the result is
// unnormalized.
#include <chrono>

#include "rank/kernels.hpp"
#include "rank/solver.hpp"
#include "webrank/util/error.hpp"
#include "webrank/writer/owned_graph.hpp"

namespace webrank {

RankResult rank_removing_dangling(const Problem& p, const RankOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const GraphView& g = *p.graph;
  const PageId n = g.num_pages;
  auto weight = [&](const Adjacency& a, std::uint64_t e) {
    return a.weights.empty() ? 1.0 : a.weights[e];
  };

  // 1. Removal rounds. live_out[v] counts v's links of positive weight to pages still present.
  std::vector<std::uint64_t> live_out(n, 0);
  for (PageId v = 0; v < n; ++v) {
    for (std::uint64_t e = g.out.offsets[v]; e < g.out.offsets[v + 1]; ++e) {
      if (weight(g.out, e) > 0) ++live_out[v];
    }
  }
  std::vector<int> removed_in(n, 0);  // round in which a page was removed, 0 = core
  std::vector<PageId> round;
  for (PageId v = 0; v < n; ++v) {
    if (live_out[v] == 0) round.push_back(v);
  }
  int rounds = 0;
  PageId removed = 0;
  while (!round.empty()) {
    ++rounds;
    for (PageId v : round) removed_in[v] = rounds;
    removed += static_cast<PageId>(round.size());
    std::vector<PageId> next_round;
    for (PageId v : round) {
      for (std::uint64_t e = g.in.offsets[v]; e < g.in.offsets[v + 1]; ++e) {
        const PageId s = g.in.ids[e];
        if (removed_in[s] == 0 && weight(g.in, e) > 0 && --live_out[s] == 0)
          next_round.push_back(s);
      }
    }
    round.swap(next_round);
  }
  if (removed == n) {
    fail_option("dangling",
                "remove: every page was removed as dangling (the web has no cycle), so no core is "
                "left to rank; use another ",
                option_ref("dangling"), " mode");
  }

  // 2. The core, renumbered, with E restricted to it.
  std::vector<PageId> core_id(n, kNoPage), core_pages;
  for (PageId v = 0; v < n; ++v) {
    if (removed_in[v] == 0) {
      core_id[v] = static_cast<PageId>(core_pages.size());
      core_pages.push_back(v);
    }
  }
  std::vector<OwnedGraph::Link> links;
  for (PageId v : core_pages) {
    for (std::uint64_t e = g.out.offsets[v]; e < g.out.offsets[v + 1]; ++e) {
      const PageId t = g.out.ids[e];
      if (core_id[t] != kNoPage && weight(g.out, e) > 0)
        links.push_back({core_id[v], core_id[t], weight(g.out, e)});
    }
  }
  const OwnedGraph core(static_cast<PageId>(core_pages.size()), links, g.weighted());
  double source_on_core = 0;
  for (PageId v : core_pages) source_on_core += p.source[v];
  if (!(source_on_core > 0)) {
    fail_option("dangling",
                "remove: the rank source puts no weight on the core left after removing dangling "
                "pages; personalize on pages of the core or use another ",
                option_ref("dangling"), " mode");
  }
  Problem cp;
  cp.graph = &core.view();
  cp.damping = p.damping;
  PageWeights core_source, core_start;
  for (PageId v : core_pages) {
    if (p.source[v] > 0) core_source.emplace_back(core_id[v], p.source[v]);
    if (p.start[v] > 0) core_start.emplace_back(core_id[v], p.start[v]);
  }
  cp.source = Distribution::from_weights(core_source, core.view().num_pages, "rank source");
  cp.dangling = cp.source;  // the core has no dangling pages
  cp.start = core_start.empty()
                 ? Distribution::uniform(core.view().num_pages)
                 : Distribution::from_weights(core_start, core.view().num_pages, "start vector");
  RankResult r = solve(cp, o);

  // 3. Add the removed pages back: k Jacobi rounds over them with the core held fixed.
  std::vector<double> rank(n, 0.0);
  for (PageId v : core_pages) rank[v] = r.ranks[core_id[v]];
  const FreshVector<double> inv = kernels::inverse_out_strength(g);
  std::vector<PageId> back;
  for (PageId v = 0; v < n; ++v) {
    if (removed_in[v] != 0) back.push_back(v);
  }
  std::vector<double> fresh(back.size());
  for (int k = 0; k < rounds; ++k) {
    for (std::size_t i = 0; i < back.size(); ++i) {
      const PageId u = back[i];
      const double sum = kernels::link_sum(
          g.in.offsets[u], g.in.offsets[u + 1],
          [&](std::uint64_t e) { return weight(g.in, e) * rank[g.in.ids[e]] * inv[g.in.ids[e]]; });
      fresh[i] = (1 - p.damping) * p.source[u] / source_on_core + p.damping * sum;
    }
    for (std::size_t i = 0; i < back.size(); ++i) rank[back[i]] = fresh[i];
  }
  r.ranks = std::move(rank);
  r.normalized = false;
  r.removal_rounds = rounds;
  r.removed_pages = removed;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace webrank
