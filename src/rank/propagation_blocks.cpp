// Setup of the propagation-blocking layout: two passes over the forward links, both parallel over
// the same source chunks the sweeps use.
#include "rank/propagation_blocks.hpp"

#include <algorithm>
#include <bit>

#include "webrank/util/error.hpp"

namespace webrank {

void BlockLayout::check_block_pages(std::uint32_t block_pages) {
  if (block_pages < 64 || !std::has_single_bit(block_pages) || block_pages > kMaxBlockPages)
    fail_option("block_pages", "must be a power of two in [64, ", kMaxBlockPages, "], got ",
                block_pages);
}

BlockLayout::BlockLayout(const GraphView& g, std::uint32_t block_pages, int chunks)
    : n_(g.num_pages) {
  if (g.weighted()) fail(ErrorKind::kInternal, "propagation blocking needs an unweighted web");
  if (g.num_pages > kMaxPages)
    fail_option("summation", "blocked supports webs of at most 2^30 pages; use ",
                option_ref("summation"), " pull");
  check_block_pages(block_pages);
  shift_ = std::countr_zero(block_pages);
  const std::uint64_t blocks = (static_cast<std::uint64_t>(n_) + block_pages - 1) >> shift_;
  if (blocks > kMaxBlocks) {
    fail_option("block_pages", block_pages, " cuts ", n_, " pages into ", blocks,
                " blocks; at most ", kMaxBlocks, " are supported: use larger blocks");
  }
  blocks_ = static_cast<std::uint32_t>(blocks);
  chunks_ = std::max(1, chunks);
  const std::uint64_t* off = g.out.offsets.data();
  const PageId* targets = g.out.ids.data();

  // Chunks of consecutive sources with about equal numbers of links.
  std::vector<PageId> chunk_first(chunks_ + 1);
  for (int k = 0; k <= chunks_; ++k) {
    const std::uint64_t link = g.num_links * k / chunks_;
    chunk_first[k] = static_cast<PageId>(std::lower_bound(off, off + n_, link) - off);
  }
  chunk_first[chunks_] = n_;

  // Pass 1: pairs and sources with links per chunk, pairs and links per (block, chunk).
  const std::size_t bins = static_cast<std::size_t>(blocks_) * chunks_;
  std::vector<std::uint64_t> bin_links(bins + 1, 0);
  bin_pairs_.assign(bins + 1, 0);
  chunk_pairs_.assign(chunks_ + 1, 0);
  chunk_sources_.assign(chunks_ + 1, 0);
#pragma omp parallel for schedule(dynamic, 1) if (chunks_ > 1)
  for (int k = 0; k < chunks_; ++k) {
    // Counters are local (no false sharing between threads). A source's targets are sorted, so
    // its links come in runs of one block: a run is counted in registers and added to memory
    // when it ends (a per-link memory increment chains every link on the previous store).
    std::vector<std::uint64_t> links(blocks_), pairs(blocks_);
    std::uint64_t chunk_pairs = 0, chunk_sources = 0;
    for (PageId s = chunk_first[k]; s < chunk_first[k + 1]; ++s) {
      const std::uint64_t begin = off[s], end = off[s + 1];
      if (begin == end) continue;
      ++chunk_sources;
      std::uint32_t run_block = targets[begin] >> shift_;
      std::uint64_t run_begin = begin;
      for (std::uint64_t e = begin + 1; e < end; ++e) {
        const std::uint32_t b = targets[e] >> shift_;
        if (b != run_block) {
          links[run_block] += e - run_begin;
          ++pairs[run_block];
          ++chunk_pairs;
          run_block = b;
          run_begin = e;
        }
      }
      links[run_block] += end - run_begin;
      ++pairs[run_block];
      ++chunk_pairs;
    }
    chunk_pairs_[k + 1] = chunk_pairs;
    chunk_sources_[k + 1] = chunk_sources;
    for (std::size_t b = 0; b < blocks_; ++b) {
      bin_links[b * chunks_ + k] = links[b];
      bin_pairs_[b * chunks_ + k] = pairs[b];
    }
  }
  for (int k = 0; k < chunks_; ++k) {
    chunk_pairs_[k + 1] += chunk_pairs_[k];
    chunk_sources_[k + 1] += chunk_sources_[k];
  }
  std::uint64_t pair_sum = 0, link_sum = 0;
  block_links_.resize(blocks_ + 1);
  for (std::size_t i = 0; i <= bins; ++i) {
    if (i % chunks_ == 0) block_links_[i / chunks_] = link_sum;
    const std::uint64_t p = bin_pairs_[i], l = bin_links[i];
    bin_pairs_[i] = pair_sum;
    bin_links[i] = link_sum;
    pair_sum += p;
    link_sum += l;
  }

  // Pass 2: the flagged block of every pair, the sources with links, and every link's place in
  // its block.
  pair_block_ = AlignedArray<std::uint16_t>(chunk_pairs_[chunks_]);
  sources_ = AlignedArray<PageId>(chunk_sources_[chunks_]);
  links_ = AlignedArray<std::uint16_t>(g.num_links);
  const std::uint32_t local = block_pages - 1;
#pragma omp parallel for schedule(dynamic, 1) if (chunks_ > 1)
  for (int k = 0; k < chunks_; ++k) {
    std::vector<std::uint64_t> begin(blocks_), end(blocks_);
    for (std::size_t b = 0; b < blocks_; ++b) {
      begin[b] = bin_links[b * chunks_ + k];
      end[b] = bin_links[b * chunks_ + k + 1];
    }
    BinnedWriter<std::uint16_t> out(links_.data(), begin.data(), end.data(), blocks_);
    std::uint64_t j = chunk_pairs_[k], i = chunk_sources_[k];
    for (PageId s = chunk_first[k]; s < chunk_first[k + 1]; ++s) {
      if (off[s + 1] == off[s]) continue;
      sources_[i++] = s;
      std::uint32_t last = ~0u;
      std::uint16_t discard;
      for (std::uint64_t e = off[s]; e < off[s + 1]; ++e) {
        const std::uint32_t b = targets[e] >> shift_;
        const bool new_pair = b != last;
        const bool new_source = e == off[s];
        // Branch-free: whether a link starts a new pair is unpredictable (4-5 pairs per source).
        std::uint16_t* slot = new_pair ? &pair_block_[j] : &discard;
        *slot = static_cast<std::uint16_t>(b | (new_source ? kFirstOfSource : 0u));
        j += new_pair;
        out.put(b,
                static_cast<std::uint16_t>((targets[e] & local) | (new_pair ? kFirstOfPair : 0u)));
        last = b;
      }
    }
    out.finish();
  }
}

}  // namespace webrank
