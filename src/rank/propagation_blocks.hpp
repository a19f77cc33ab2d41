// Propagation blocking: a sweep that sums every page's backlink contributions without reading
// the contribution vector at random (Beamer, Asanović & Patterson, IPDPS 2017, in the
// partition-centric form of Lakhotia, Kannan & Prasanna, USENIX ATC 2018).
//
// Why: the pull sweep (power_iteration.cpp) reads contrib[source] for every link in random
// order. Once that vector outgrows the caches each read is a DRAM access. Here pages are cut into
// blocks of 2^shift consecutive ids whose sums fit in the L2 cache. A sweep has two phases:
//   scatter: walk the sources in order and append contrib[s] once per block s links into
//            (one "pair" per source and block) to that block's bin: sequential reads, streamed
//            writes (BinnedWriter);
//   gather:  per block, walk its links (stored at setup, grouped by source in ascending order)
//            and add the pair's value into an L2-resident array of sums.
// Each page's sum is still the sum of its backlinks' contributions in ascending source order, in
// double, so the result is bit for bit the pull sweep's.
//
// Links are stored as 16-bit offsets within their block, so blocks hold at most 32,768 pages and
// webs at most 2^30 pages. Memory: 2 B per link, 2 B per pair, 4 B per source with links, and
// a value buffer of 4 (float) or 8 (double) B per pair. Unweighted webs only (a weighted link needs
// its own factor; weighted webs and larger ones keep the pull sweep).
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "rank/binned_writer.hpp"
#include "webrank/util/graph.hpp"

namespace webrank {

// The static part: which blocks every source feeds and, per block, the links in gather order.
class BlockLayout {
 public:
  static constexpr std::uint32_t kMaxBlockPages = 1u << 15;  // offsets fit 15 bits + a flag
  static constexpr std::uint32_t kMaxBlocks = 1u << 15;      // block ids too
  static constexpr std::uint64_t kMaxPages = std::uint64_t(kMaxBlockPages) * kMaxBlocks;
  // The default: 32,768 pages, whose sums (8 B per page) take a quarter of a 1 MiB L2 cache
  // (docs/performance.md has the measurements behind it).
  static constexpr std::uint32_t kDefaultBlockPages = kMaxBlockPages;

  // Whether the web can be blocked at all: unweighted, at most kMaxPages pages.
  static bool supports(const GraphView& g) { return !g.weighted() && g.num_pages <= kMaxPages; }

  // Throws Error unless block_pages is a power of two in [64, kMaxBlockPages]; the message names
  // --block-pages. Checked before a solve starts, since auto may build the layout mid-run.
  static void check_block_pages(std::uint32_t block_pages);

  // Throws Error unless supports(g) and check_block_pages(block_pages).
  // `chunks` ranges of sources (balanced by links) are scattered in parallel.
  BlockLayout(const GraphView& g, std::uint32_t block_pages, int chunks);

  PageId pages() const { return n_; }
  std::uint32_t blocks() const { return blocks_; }
  std::uint64_t pairs() const { return pair_block_.size(); }

 private:
  template <typename Real>
  friend class PropagationBlocks;
  static constexpr std::uint16_t kFirstOfPair = 0x8000;    // flag on a pair's first link
  static constexpr std::uint16_t kFirstOfSource = 0x8000;  // flag on a source's first pair
  static_assert(kMaxBlocks <= kFirstOfSource && kMaxBlockPages <= kFirstOfPair);

  PageId n_ = 0;
  int shift_ = 0;
  std::uint32_t blocks_ = 0;
  int chunks_ = 1;
  // Pairs in source order: the block of each pair, flagged where a new source starts, and the
  // sources with links. Flattening the per-source loop avoids a mispredicted loop exit per
  // source (4 pairs per source on average on R-MAT webs).
  AlignedArray<std::uint16_t> pair_block_;
  AlignedArray<PageId> sources_;
  std::vector<std::uint64_t> chunk_pairs_;    // chunks_+1: chunk k's pairs begin here
  std::vector<std::uint64_t> chunk_sources_;  // chunks_+1: and its sources here
  // Where each (block b, chunk k) bin starts in the values, at b*chunks + k (+1 sentinel):
  // block-major so a block's pairs are contiguous, chunk-minor so they stay in source order.
  std::vector<std::uint64_t> bin_pairs_;
  std::vector<std::uint64_t> block_links_;  // blocks+1: links of block b in links_
  AlignedArray<std::uint16_t> links_;       // target offset within its block | kFirstOfPair
};

// The per-sweep part: a value buffer of one pair each, in Real.
template <typename Real>
class PropagationBlocks {
 public:
  explicit PropagationBlocks(const BlockLayout& layout)
      : layout_(layout), values_(layout.pairs()) {}

  // Computes sum(u) = Σ_{v→u} contrib[v] for every page and returns Σ_u emit(u, sum(u)). emit is
  // called once per page, from several threads at once, for distinct pages.
  template <typename Emit>
  double sweep(const Real* contrib, Emit&& emit);

 private:
  const BlockLayout& layout_;
  AlignedArray<Real> values_;
};

template <typename Real>
template <typename Emit>
double PropagationBlocks<Real>::sweep(const Real* contrib, Emit&& emit) {
  const BlockLayout& l = layout_;
  const std::int64_t chunks = l.chunks_, blocks = l.blocks_;
  // One writer per chunk: bin b of chunk k is region b*K + k, ending where b*K + k + 1 begins.
#pragma omp parallel for schedule(dynamic, 1) if (chunks > 1)
  for (std::int64_t k = 0; k < chunks; ++k) {
    std::vector<std::uint64_t> begin(blocks), end(blocks);
    for (std::int64_t b = 0; b < blocks; ++b) {
      begin[b] = l.bin_pairs_[b * chunks + k];
      end[b] = l.bin_pairs_[b * chunks + k + 1];
    }
    BinnedWriter<Real> out(values_.data(), begin.data(), end.data(), blocks);
    const std::uint16_t* pair_block = l.pair_block_.data();
    const PageId* source = l.sources_.data() + l.chunk_sources_[k] - 1;
    const std::uint64_t last = l.chunk_pairs_[k + 1];
    for (std::uint64_t j = l.chunk_pairs_[k]; j < last; ++j) {
      const std::uint16_t x = pair_block[j];
      source += x >> 15;  // kFirstOfSource
      out.put(x & ~BlockLayout::kFirstOfSource, contrib[*source]);
    }
    out.finish();
  }

  const std::uint16_t* links = l.links_.data();
  const std::uint16_t mask = ~BlockLayout::kFirstOfPair & 0xFFFF;
  // Totals per block, added in block order: the result does not depend on the thread count.
  std::vector<double> block_total(blocks);
#pragma omp parallel if (blocks > 1)
  {
    std::vector<double> sums(std::size_t(1) << l.shift_);
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t b = 0; b < blocks; ++b) {
      const PageId first = static_cast<PageId>(b << l.shift_);
      const PageId size = std::min<PageId>(l.n_ - first, PageId(1) << l.shift_);
      std::fill(sums.begin(), sums.begin() + size, 0.0);
      // The block's first link starts a pair, so `value` starts one before the block's values.
      const Real* value = values_.data() + l.bin_pairs_[b * chunks] - 1;
      const std::uint64_t end = l.block_links_[b + 1];
      for (std::uint64_t e = l.block_links_[b]; e < end; ++e) {
        const std::uint16_t x = links[e];
        value += x >> 15;  // kFirstOfPair
        sums[x & mask] += *value;
      }
      double total = 0;
      for (PageId i = 0; i < size; ++i) total += emit(first + i, sums[i]);
      block_total[b] = total;
    }
  }
  double total = 0;
  for (double t : block_total) total += t;
  return total;
}

}  // namespace webrank
