#include "graph/csr_builder.hpp"
#include "util/parallel.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

namespace webrank {
namespace {

// Exclusive prefix sum of counts[0..n) into offsets[0..n].
std::vector<std::uint64_t> offsets_from_counts(const std::vector<std::uint64_t>& counts) {
  std::vector<std::uint64_t> offsets(counts.size() + 1, 0);
  std::inclusive_scan(counts.begin(), counts.end(), offsets.begin() + 1);
  return offsets;
}

// Sorts each page's neighbour list and merges duplicates (adding weights); returns new lengths.
std::vector<std::uint64_t> sort_and_merge(PageId n, const std::vector<std::uint64_t>& offsets,
                                          std::vector<PageId>& ids, std::vector<double>& weights) {
  std::vector<std::uint64_t> lengths(n);
  const bool weighted = !weights.empty();
#pragma omp parallel if (static_cast <std::int64_t>(ids.size()) >= kMinParallelLinks)
  {
    std::vector<std::pair<PageId, double>> scratch;
#pragma omp for schedule(dynamic, 4096)
    for (std::int64_t u = 0; u < static_cast<std::int64_t>(n); ++u) {
      const std::uint64_t b = offsets[u], e = offsets[u + 1];
      if (e - b < 2) {
        lengths[u] = e - b;
        continue;
      }
      if (!weighted) {
        std::sort(ids.begin() + b, ids.begin() + e);
        lengths[u] = std::unique(ids.begin() + b, ids.begin() + e) - (ids.begin() + b);
        continue;
      }
      scratch.clear();
      for (std::uint64_t i = b; i < e; ++i) scratch.emplace_back(ids[i], weights[i]);
      std::stable_sort(scratch.begin(), scratch.end(),
                       [](const auto& x, const auto& y) { return x.first < y.first; });
      std::uint64_t w = b;
      for (std::size_t i = 0; i < scratch.size(); ++i) {
        if (w > b && ids[w - 1] == scratch[i].first) {
          weights[w - 1] += scratch[i].second;
        } else {
          ids[w] = scratch[i].first;
          weights[w] = scratch[i].second;
          ++w;
        }
      }
      lengths[u] = w - b;
    }
  }
  return lengths;
}

}  // namespace

CsrLinks build_csr(PageId num_pages, std::vector<PageId>&& sources, std::vector<PageId>&& targets,
                   std::vector<double>&& weights) {
  CsrLinks csr;
  const bool weighted = !weights.empty();
  const std::uint64_t m = sources.size();

  // 1. Counting sort by source.
  std::vector<std::uint64_t> counts(num_pages, 0);
  for (PageId s : sources) ++counts[s];
  std::vector<std::uint64_t> raw_offsets = offsets_from_counts(counts);
  std::vector<PageId> ids(m);
  std::vector<double> ws(weighted ? m : 0);
  {
    std::vector<std::uint64_t> cursor(raw_offsets.begin(), raw_offsets.end() - 1);
    for (std::uint64_t i = 0; i < m; ++i) {
      const std::uint64_t at = cursor[sources[i]]++;
      ids[at] = targets[i];
      if (weighted) ws[at] = weights[i];
    }
  }
  std::vector<PageId>().swap(sources);
  std::vector<PageId>().swap(targets);
  std::vector<double>().swap(weights);

  // 2. Per page: sort targets and merge identical links, then compact in place (a page's new
  // start is never after its old start, so a forward sweep of moves is safe).
  std::vector<std::uint64_t> lengths = sort_and_merge(num_pages, raw_offsets, ids, ws);
  csr.out_offsets = offsets_from_counts(lengths);
  for (PageId u = 0; u < num_pages; ++u) {
    const std::uint64_t from = raw_offsets[u], to = csr.out_offsets[u];
    if (from != to) {
      std::move(ids.begin() + from, ids.begin() + from + lengths[u], ids.begin() + to);
      if (weighted) std::move(ws.begin() + from, ws.begin() + from + lengths[u], ws.begin() + to);
    }
  }
  const std::uint64_t links = csr.out_offsets.back();
  ids.resize(links);
  ids.shrink_to_fit();
  if (weighted) {
    ws.resize(links);
    ws.shrink_to_fit();
  }
  csr.out_ids = std::move(ids);
  csr.out_weights = std::move(ws);

  // 3. Backlinks: counting sort by target; visiting sources in increasing order leaves every
  // backlink list sorted.
  std::fill(counts.begin(), counts.end(), 0);
  for (PageId t : csr.out_ids) ++counts[t];
  csr.in_offsets = offsets_from_counts(counts);
  csr.in_ids.resize(links);
  if (weighted) csr.in_weights.resize(links);
  std::vector<std::uint64_t> cursor(csr.in_offsets.begin(), csr.in_offsets.end() - 1);
  for (PageId u = 0; u < num_pages; ++u) {
    for (std::uint64_t i = csr.out_offsets[u]; i < csr.out_offsets[u + 1]; ++i) {
      const std::uint64_t at = cursor[csr.out_ids[i]]++;
      csr.in_ids[at] = u;
      if (weighted) csr.in_weights[at] = csr.out_weights[i];
    }
  }
  return csr;
}

GraphView view_of(const CsrLinks& links, PageId num_pages) {
  GraphView g;
  g.num_pages = num_pages;
  g.num_links = links.out_ids.size();
  g.out = {links.out_offsets, links.out_ids, links.out_weights};
  g.in = {links.in_offsets, links.in_ids, links.in_weights};
  return g;
}

}  // namespace webrank
