#include "writer/csr_builder.hpp"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <numeric>
#include <optional>
#include <utility>

#include "util/fresh_memory.hpp"
#include "util/parallel.hpp"

namespace webrank {
namespace {

// Exclusive prefix sum of counts[0..n) into offsets[0..n].
std::vector<std::uint64_t> offsets_from_counts(const std::vector<std::uint64_t>& counts) {
  std::vector<std::uint64_t> offsets(counts.size() + 1, 0);
  std::inclusive_scan(counts.begin(), counts.end(), offsets.begin() + 1);
  return offsets;
}

// Parallel stable counting sorts: the items are cut into `threads` contiguous parts, and the keys
// of each part are counted (local[part][k]); positions_from_counts turns the counts into start
// positions such that part p's items with key k follow part p−1's, and each part is then
// scattered in order. The result is exactly the serial counting sort's, however many threads
// actually run the parts (one, when called inside another parallel region). Costs parts × N ×
// sizeof(Cursor) bytes: 32-bit cursors whenever the links fit (halving the counters the scatter
// reads and writes at random cuts a sort's time by a sixth, docs/performance.md), 64-bit past.
template <typename Cursor>
using ThreadCounts = std::vector<std::vector<Cursor>>;

// Zeroed counters for `parts` parts and n keys, reusing the memory of earlier passes.
template <typename Cursor>
void reset_counts(ThreadCounts<Cursor>& local, int parts, PageId n) {
  local.resize(parts);
  for (auto& c : local) {
    if (c.size() == n) {
      std::fill(c.begin(), c.end(), 0);
    } else {
      c.clear();
      resize_huge(c, n);
    }
  }
}

int sort_threads(std::uint64_t items) {
  if (omp_in_parallel()) return 1;  // nested regions get one thread: fewer parts cost less
  return items >= static_cast<std::uint64_t>(kMinParallelLinks) ? omp_get_max_threads() : 1;
}

// Replaces local[t][k] by the first position of thread t's items with key k; returns offsets.
template <typename Cursor>
std::vector<std::uint64_t> positions_from_counts(ThreadCounts<Cursor>& local, PageId n) {
  std::vector<std::uint64_t> counts(n, 0);
#pragma omp parallel for schedule(static) if (n >= kMinParallelPages)
  for (std::int64_t k = 0; k < static_cast<std::int64_t>(n); ++k) {
    for (const auto& c : local) counts[k] += c[k];
  }
  std::vector<std::uint64_t> offsets = offsets_from_counts(counts);
#pragma omp parallel for schedule(static) if (n >= kMinParallelPages)
  for (std::int64_t k = 0; k < static_cast<std::int64_t>(n); ++k) {
    std::uint64_t at = offsets[k];
    for (auto& c : local) at += std::exchange(c[k], static_cast<Cursor>(at));
  }
  return offsets;
}

// The skeleton both counting sorts share. for_part(part, f) calls f(key, value, i) for every
// item of part `part`, in order (i indexes the item's weight in `in_weights`); bucket(key) is
// where an item goes: its key, or its key's range.
template <typename Count, typename ForPart, typename Bucket>
void count_parts(int threads, ForPart& for_part, std::vector<std::vector<Count>>& counts,
                 Bucket bucket) {
#pragma omp parallel for num_threads(threads) schedule(static, 1)
  for (int part = 0; part < threads; ++part) {
    auto& count = counts[part];
    for_part(part, [&](PageId key, PageId, std::uint64_t) { ++count[bucket(key)]; });
  }
}

// The output arrays, in the memory of `ids` and `weights` (their contents are overwritten).
LinkLists output_arrays(std::vector<PageId>& ids, std::vector<double>& weights, std::uint64_t m,
                        bool weighted) {
  LinkLists out;
  out.ids = std::move(ids);
  out.weights = std::move(weights);
  resize_huge(out.ids, m);
  resize_huge(out.weights, weighted ? m : 0);
  return out;
}

// Scatters each part in order, from cursors[part][bucket(key)] (the first position of the
// part's items in that bucket) on; stored(key, value) is what goes into out.ids.
template <typename Cursor, typename ForPart, typename Bucket, typename Stored>
void scatter_parts(int threads, ForPart& for_part, std::vector<std::vector<Cursor>>& cursors,
                   Bucket bucket, Stored stored, const std::vector<double>& in_weights,
                   LinkLists& out) {
  const bool weighted = !in_weights.empty();
#pragma omp parallel for num_threads(threads) schedule(static, 1)
  for (int part = 0; part < threads; ++part) {
    auto& cursor = cursors[part];
    for_part(part, [&](PageId key, PageId value, std::uint64_t i) {
      const Cursor at = cursor[bucket(key)]++;
      out.ids[at] = stored(key, value);
      if (weighted) out.weights[at] = in_weights[i];
    });
  }
}

// The two-pass sort below cuts the keys (pages) into ranges of 2^shift: wide enough for at most
// ~512 ranges (few write streams in its first pass), at most 2^16 pages, and narrower where a
// page id leaves less room beside a key's place in its range (more ranges, then).
// docs/performance.md has the sorting times for several widths.
int range_shift(PageId n) {
  int shift = 8;
  while (shift < 16 && (static_cast<std::uint64_t>(n) >> shift) > 512) ++shift;
  const int bits = std::bit_width(static_cast<std::uint32_t>(n));
  return std::min({shift, 32 - bits, bits});
}

// Whether the two-pass sort applies: ids leave room for a place, and the ranges' cursors stay
// small (threads × ranges × 8 bytes; webs of up to ~64M pages). Even 262,144 ranges pay: their
// write streams' lines fit the L3, where one pass writes all over 32M lists.
constexpr std::uint64_t kMaxRanges = 1 << 20;
bool packs(PageId n) {
  const int shift = range_shift(n);
  return shift >= 1 && (static_cast<std::uint64_t>(n) >> shift) <= kMaxRanges;
}

// The same stable counting sort in two passes, for webs whose ids pack with their key's place
// (packs()): the first pass scatters the items into ranges of 2^shift keys, a write stream each,
// each item stored as value << shift | (key's place in its range); the second sorts each range,
// whose counters and items fit in cache, from a copy of it. One pass writes each item to a line
// of its own, a miss in every cache once the pages outnumber the lines. Returns nothing if
// the threads' copies of the largest range would hold more than half of the items (a few huge
// lists; at most 2 bytes per link more, 6 weighted: Collector's peak per link counts them): the
// one-pass sort takes those, as it takes webs too large for packs().
template <typename ForPart>
std::optional<LinkLists> counting_sort_by_ranges(PageId n, std::uint64_t m, int threads,
                                                 const std::vector<double>& in_weights,
                                                 ForPart&& for_part, std::vector<PageId>& ids,
                                                 std::vector<double>& weights) {
  const bool weighted = !in_weights.empty();
  const int shift = range_shift(n);
  const std::uint32_t place_mask = (1u << shift) - 1;
  const std::size_t ranges = (static_cast<std::size_t>(n) >> shift) + 1;
  const auto range_of = [shift](PageId key) { return key >> shift; };
  std::vector<std::vector<std::uint64_t>> cursor(threads, std::vector<std::uint64_t>(ranges, 0));
  count_parts(threads, for_part, cursor, range_of);
  std::vector<std::uint64_t> range_begin(ranges + 1);
  std::uint64_t at = 0, largest = 0;
  for (std::size_t r = 0; r < ranges; ++r) {
    range_begin[r] = at;
    for (auto& c : cursor) at += std::exchange(c[r], at);
    largest = std::max(largest, at - range_begin[r]);
  }
  range_begin[ranges] = at;
  if (largest * static_cast<std::uint64_t>(threads) > m / 2 + 4096) return std::nullopt;
  LinkLists out = output_arrays(ids, weights, m, weighted);
  scatter_parts(
      threads, for_part, cursor, range_of,
      [shift, place_mask](PageId key, PageId value) { return value << shift | (key & place_mask); },
      in_weights, out);
  out.offsets.resize(static_cast<std::size_t>(n) + 1);
  out.offsets[n] = m;
#pragma omp parallel num_threads(threads)
  {
    std::vector<std::uint64_t> count(std::size_t{1} << shift);
    std::vector<PageId> copy(largest);
    std::vector<double> copy_weights(weighted ? largest : 0);
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t r = 0; r < static_cast<std::int64_t>(ranges); ++r) {
      const std::uint64_t b = range_begin[r], e = range_begin[r + 1];
      const PageId first = static_cast<PageId>(r << shift);
      const auto keys =
          static_cast<std::uint32_t>(std::min<std::uint64_t>(std::uint64_t{1} << shift, n - first));
      std::fill(count.begin(), count.begin() + keys, 0);
      std::copy(out.ids.begin() + b, out.ids.begin() + e, copy.begin());
      if (weighted)
        std::copy(out.weights.begin() + b, out.weights.begin() + e, copy_weights.begin());
      for (std::uint64_t i = 0; i < e - b; ++i) ++count[copy[i] & place_mask];
      std::uint64_t pos = b;
      for (std::uint32_t k = 0; k < keys; ++k) {
        out.offsets[first + k] = pos;
        pos += std::exchange(count[k], pos);
      }
      for (std::uint64_t i = 0; i < e - b; ++i) {
        const std::uint64_t p = count[copy[i] & place_mask]++;
        out.ids[p] = copy[i] >> shift;
        if (weighted) out.weights[p] = copy_weights[i];
      }
    }
  }
  return out;
}

// The counting sort itself: for_part(part, f) calls f(key, value, i) for every item of part
// `part`, in order (i indexes the item's weight in `in_weights`). Counts the keys per part, then
// scatters each part: list k of the result holds the values of the items with key k, in order.
// The result is written into `ids` and `weights` (their contents are overwritten): arrays
// already touched cost no page faults. In two passes where that applies, unless `one_pass`.
template <typename Cursor, typename ForPart>
LinkLists counting_sort(PageId n, std::uint64_t m, int threads,
                        const std::vector<double>& in_weights, ForPart&& for_part,
                        std::vector<PageId>&& ids, std::vector<double>&& weights,
                        ThreadCounts<Cursor>& local, bool one_pass) {
  if (!one_pass && packs(n)) {
    if (auto sorted = counting_sort_by_ranges(n, m, threads, in_weights, for_part, ids, weights)) {
      return std::move(*sorted);
    }
  }
  reset_counts(local, threads, n);
  const auto itself = [](PageId key) { return key; };
  count_parts(threads, for_part, local, itself);
  std::vector<std::uint64_t> offsets = positions_from_counts(local, n);
  LinkLists out = output_arrays(ids, weights, m, !in_weights.empty());
  out.offsets = std::move(offsets);
  scatter_parts(
      threads, for_part, local, itself, [](PageId, PageId value) { return value; }, in_weights,
      out);
  return out;
}

// Groups the links by target: list v holds the sources of the links into v, in input order.
template <typename Cursor>
LinkLists group_by_target(PageId n, const std::vector<PageId>& sources,
                          const std::vector<PageId>& targets, const std::vector<double>& weights,
                          ThreadCounts<Cursor>& local, bool one_pass) {
  const std::uint64_t m = sources.size();
  const int threads = sort_threads(m);
  auto for_part = [&](int part, auto&& f) {
    for (std::uint64_t i = m * part / threads; i < m * (part + 1) / threads; ++i) {
      f(targets[i], sources[i], i);
    }
  };
  return counting_sort(n, m, threads, weights, for_part, {}, {}, local, one_pass);
}

// The transpose of `in`: list v of the result holds every u whose list holds v, in increasing
// u, and for a u listing v several times, as often, in u's order. Each thread takes a
// contiguous range of the pages of `in` (balanced by entries), so it meets the u in order.
// The result is written into `ids` and `weights`, as counting_sort's.
template <typename Cursor>
LinkLists transpose(PageId n, const LinkLists& in, std::vector<PageId>&& ids,
                    std::vector<double>&& weights, ThreadCounts<Cursor>& local, bool one_pass) {
  const std::uint64_t m = in.ids.size();
  const int threads = sort_threads(m);
  std::vector<PageId> first_page(threads + 1, n);
  for (int t = 0; t < threads; ++t) {
    first_page[t] = static_cast<PageId>(
        std::upper_bound(in.offsets.begin(), in.offsets.end(), m * t / threads) -
        in.offsets.begin() - 1);
  }
  first_page[0] = 0;
  auto for_part = [&](int part, auto&& f) {
    for (PageId u = first_page[part]; u < first_page[part + 1]; ++u) {
      for (std::uint64_t i = in.offsets[u]; i < in.offsets[u + 1]; ++i) f(in.ids[i], u, i);
    }
  };
  return counting_sort(n, m, threads, in.weights, for_part, std::move(ids), std::move(weights),
                       local, one_pass);
}

// Merges the repeated entries of every list (sorted, so repeats are adjacent and in input order)
// into one, adding their weights from left to right, and closes the gaps.
void merge_repeats(PageId n, LinkLists& lists) {
  const bool weighted = !lists.weights.empty();
  std::vector<std::uint64_t> lengths(n);
  auto& ids = lists.ids;
  auto& ws = lists.weights;
#pragma omp parallel for schedule(dynamic, 4096) if (n >= kMinParallelPages)
  for (std::int64_t u = 0; u < static_cast<std::int64_t>(n); ++u) {
    const std::uint64_t b = lists.offsets[u], e = lists.offsets[u + 1];
    std::uint64_t w = b;
    for (std::uint64_t i = b; i < e; ++i) {
      if (w > b && ids[w - 1] == ids[i]) {
        if (weighted) ws[w - 1] += ws[i];
      } else {
        ids[w] = ids[i];
        if (weighted) ws[w] = ws[i];
        ++w;
      }
    }
    lengths[u] = w - b;
  }
  // A page's new start is never after its old start, so a forward sweep of moves is safe.
  std::vector<std::uint64_t> offsets = offsets_from_counts(lengths);
  for (PageId u = 0; u < n; ++u) {
    const std::uint64_t from = lists.offsets[u], to = offsets[u];
    if (from != to) {
      std::move(ids.begin() + from, ids.begin() + from + lengths[u], ids.begin() + to);
      if (weighted) std::move(ws.begin() + from, ws.begin() + from + lengths[u], ws.begin() + to);
    }
  }
  const std::uint64_t links = offsets.back();
  // Giving back the space of the merged repeats costs a copy: only worth it if there are many.
  if (links < ids.size() - ids.size() / 16) {
    ids.resize(links);
    ids.shrink_to_fit();
    if (weighted) {
      ws.resize(links);
      ws.shrink_to_fit();
    }
  } else {
    ids.resize(links);
    if (weighted) ws.resize(links);
  }
  lists.offsets = std::move(offsets);
}

// Sorting without comparisons: grouping the links by target (stable) and transposing the result
// yields every page's out-links sorted by target, identical links adjacent in input order. The
// input arrays, once read, hold the next results: fresh memory costs a page fault per page.
template <typename Cursor>
LinkLists sorted_out_lists_with(PageId num_pages, std::vector<PageId>&& sources,
                                std::vector<PageId>&& targets, std::vector<double>&& weights,
                                bool merge) {
  ThreadCounts<Cursor> counts;
  LinkLists by_target = group_by_target(num_pages, sources, targets, weights, counts, false);
  std::vector<PageId>().swap(sources);
  LinkLists out =
      transpose(num_pages, by_target, std::move(targets), std::move(weights), counts, false);
  by_target = LinkLists{};
  if (merge) merge_repeats(num_pages, out);
  return out;
}

// The backlinks are one more transposition of the merged out-lists.
template <typename Cursor>
CsrLinks build_csr_with(PageId num_pages, std::vector<PageId>&& sources,
                        std::vector<PageId>&& targets, std::vector<double>&& weights,
                        bool one_pass) {
  ThreadCounts<Cursor> counts;
  LinkLists by_target = group_by_target(num_pages, sources, targets, weights, counts, one_pass);
  LinkLists out =
      transpose(num_pages, by_target, std::move(targets), std::move(weights), counts, one_pass);
  merge_repeats(num_pages, out);
  std::vector<double> spare_weights = std::move(by_target.weights);
  by_target = LinkLists{};
  LinkLists in =
      transpose(num_pages, out, std::move(sources), std::move(spare_weights), counts, one_pass);
  CsrLinks csr;
  csr.out_offsets = std::move(out.offsets);
  csr.out_ids = std::move(out.ids);
  csr.out_weights = std::move(out.weights);
  csr.in_offsets = std::move(in.offsets);
  csr.in_ids = std::move(in.ids);
  csr.in_weights = std::move(in.weights);
  return csr;
}

// Whether every position of a sort of m items fits a 32-bit cursor.
bool fits_32_bits(std::uint64_t m) {
  return m <= std::numeric_limits<std::uint32_t>::max();
}

}  // namespace

LinkLists sorted_out_lists(PageId num_pages, std::vector<PageId>&& sources,
                           std::vector<PageId>&& targets, std::vector<double>&& weights,
                           bool merge) {
  if (fits_32_bits(sources.size())) {
    return sorted_out_lists_with<std::uint32_t>(num_pages, std::move(sources), std::move(targets),
                                                std::move(weights), merge);
  }
  return sorted_out_lists_with<std::uint64_t>(num_pages, std::move(sources), std::move(targets),
                                              std::move(weights), merge);
}

CsrLinks build_csr(PageId num_pages, std::vector<PageId>&& sources, std::vector<PageId>&& targets,
                   std::vector<double>&& weights, CsrSort sort) {
  const bool one_pass = sort != CsrSort::kAuto;
  if (sort != CsrSort::kOnePass64 && fits_32_bits(sources.size())) {
    return build_csr_with<std::uint32_t>(num_pages, std::move(sources), std::move(targets),
                                         std::move(weights), one_pass);
  }
  return build_csr_with<std::uint64_t>(num_pages, std::move(sources), std::move(targets),
                                       std::move(weights), one_pass);
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
