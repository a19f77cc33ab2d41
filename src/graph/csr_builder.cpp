#include "graph/csr_builder.hpp"

#include <omp.h>

#include <algorithm>
#include <numeric>
#include <utility>

#include "util/parallel.hpp"

namespace webrank {
namespace {

// Exclusive prefix sum of counts[0..n) into offsets[0..n].
std::vector<std::uint64_t> offsets_from_counts(const std::vector<std::uint64_t>& counts) {
  std::vector<std::uint64_t> offsets(counts.size() + 1, 0);
  std::inclusive_scan(counts.begin(), counts.end(), offsets.begin() + 1);
  return offsets;
}

// Parallel stable counting sorts: each thread counts the keys of its own contiguous share of the
// items (local[t][k]); positions_from_counts turns the counts into start positions such that
// thread t's items with key k follow thread t−1's, and each thread then scatters its share in
// order. The result is exactly the serial counting sort's. Costs threads × N × 8 bytes.
using ThreadCounts = std::vector<std::vector<std::uint64_t>>;

int sort_threads(std::uint64_t items) {
  return items >= static_cast<std::uint64_t>(kMinParallelLinks) ? omp_get_max_threads() : 1;
}

// Replaces local[t][k] by the first position of thread t's items with key k; returns offsets.
std::vector<std::uint64_t> positions_from_counts(ThreadCounts& local, PageId n) {
  std::vector<std::uint64_t> counts(n, 0);
#pragma omp parallel for schedule(static) if (n >= kMinParallelPages)
  for (std::int64_t k = 0; k < static_cast<std::int64_t>(n); ++k) {
    for (const auto& c : local) counts[k] += c[k];
  }
  std::vector<std::uint64_t> offsets = offsets_from_counts(counts);
#pragma omp parallel for schedule(static) if (n >= kMinParallelPages)
  for (std::int64_t k = 0; k < static_cast<std::int64_t>(n); ++k) {
    std::uint64_t at = offsets[k];
    for (auto& c : local) at += std::exchange(c[k], at);
  }
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

  // 1. Counting sort by source, each thread taking a contiguous share of the input links.
  const int threads = sort_threads(m);
  ThreadCounts local(threads, std::vector<std::uint64_t>(num_pages, 0));
  auto share = [&](int t) { return std::pair{m * t / threads, m * (t + 1) / threads}; };
#pragma omp parallel num_threads(threads)
  {
    const auto [b, e] = share(omp_get_thread_num());
    auto& c = local[omp_get_thread_num()];
    for (std::uint64_t i = b; i < e; ++i) ++c[sources[i]];
  }
  std::vector<std::uint64_t> raw_offsets = positions_from_counts(local, num_pages);
  std::vector<PageId> ids(m);
  std::vector<double> ws(weighted ? m : 0);
#pragma omp parallel num_threads(threads)
  {
    const auto [b, e] = share(omp_get_thread_num());
    auto& cursor = local[omp_get_thread_num()];
    for (std::uint64_t i = b; i < e; ++i) {
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

  // 3. Backlinks: counting sort by target. Each thread takes a contiguous range of source pages
  // (balanced by links), so sources are visited in increasing order and every backlink list
  // comes out sorted.
  for (auto& c : local) std::fill(c.begin(), c.end(), 0);
  std::vector<PageId> first_page(threads + 1, num_pages);
  for (int t = 0; t < threads; ++t) {
    const std::uint64_t target_link = links * t / threads;
    first_page[t] = static_cast<PageId>(
        std::upper_bound(csr.out_offsets.begin(), csr.out_offsets.end(), target_link) -
        csr.out_offsets.begin() - 1);
  }
  first_page[0] = 0;
  auto pages_of = [&](int t) { return std::pair{first_page[t], first_page[t + 1]}; };
#pragma omp parallel num_threads(threads)
  {
    const auto [b, e] = pages_of(omp_get_thread_num());
    auto& c = local[omp_get_thread_num()];
    for (std::uint64_t i = csr.out_offsets[b]; i < csr.out_offsets[e]; ++i) ++c[csr.out_ids[i]];
  }
  csr.in_offsets = positions_from_counts(local, num_pages);
  csr.in_ids.resize(links);
  if (weighted) csr.in_weights.resize(links);
#pragma omp parallel num_threads(threads)
  {
    const auto [b, e] = pages_of(omp_get_thread_num());
    auto& cursor = local[omp_get_thread_num()];
    for (PageId u = b; u < e; ++u) {
      for (std::uint64_t i = csr.out_offsets[u]; i < csr.out_offsets[u + 1]; ++i) {
        const std::uint64_t at = cursor[csr.out_ids[i]]++;
        csr.in_ids[at] = u;
        if (weighted) csr.in_weights[at] = csr.out_weights[i];
      }
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
