// Out-of-core power iteration (the paper's §3.1: weights in memory, links streamed from disk).
//
// The rank vectors stay in memory; the backlinks are read from the database's mapped files one
// block of consecutive pages at a time: the next block is requested from the kernel before the
// current one is summed (madvise WILLNEED: the disk reads overlap the work), and each block is
// unmapped from the process once summed (release_pages: it stays in the page cache, if there is
// room, but not in the process's resident memory). The sums are kernels::pull_pass over each
// block's pages, the same loop in the same order as in memory, so the vector is the same; the
// loop around them is iterate_power's. The blocks are sized from what the budget leaves once the
// vectors and the process itself are counted.
#include <algorithm>
#include <chrono>
#include <vector>

#include "rank/kernels.hpp"
#include "rank/power_iteration.hpp"
#include "rank/solver.hpp"
#include "util/mapped_file.hpp"
#include "webrank/util/error.hpp"
#include "webrank/util/units.hpp"

namespace webrank {
namespace {

// Larger blocks save nothing: a block only needs to be long enough for the read-ahead to run
// ahead of the sums.
constexpr std::uint64_t kMaxBlockBytes = std::uint64_t{64} << 20;
constexpr std::uint64_t kMinBlockBytes = std::uint64_t{1} << 20;
// Besides the vectors, the blocks and what was resident when the solve began: thread stacks,
// allocator slack, the pages that --out or save_ranks touch.
constexpr std::uint64_t kHeadroomBytes = std::uint64_t{16} << 20;

// The link arrays of one direction, cut into blocks of consecutive pages whose links and
// offsets take at most `max_bytes` (a page whose links alone take more is a block of its own,
// read in pieces). Only the arrays a pass reads are counted, read ahead and released: the ids
// unless `ids` is false, the weights of a weighted web.
class LinkBlocks {
 public:
  LinkBlocks(const Adjacency& a, PageId pages, std::uint64_t max_bytes, bool ids = true)
      : a_(a),
        ids_(ids),
        bytes_per_link_((ids ? 4 : 0) + (a.weights.empty() ? 0 : 8)),
        max_bytes_(max_bytes) {
    starts_.push_back(0);
    std::uint64_t begin_link = 0;
    PageId released = 0;
    for (PageId u = 0; u < pages; ++u) {
      const PageId first = starts_.back();
      const std::uint64_t bytes =
          8 * (std::uint64_t{u} + 2 - first) + bytes_per_link_ * (a.offsets[u + 1] - begin_link);
      if (bytes > max_bytes_ && u > first) {
        starts_.push_back(u);
        begin_link = a.offsets[u];
      }
      if (u - released >= (1u << 20)) {  // planning reads every offset once: release them too
        release(a.offsets.data() + released, 8 * std::uint64_t{u - released});
        released = u;
      }
    }
    starts_.push_back(pages);
    release(a.offsets.data() + released, 8 * std::uint64_t{pages + 1 - released});
  }

  std::size_t count() const { return starts_.size() - 1; }
  PageId begin(std::size_t b) const { return starts_[b]; }
  PageId end(std::size_t b) const { return starts_[b + 1]; }
  std::uint64_t bytes(std::size_t b) const {
    return 8 * std::uint64_t{end(b) - begin(b) + 1} +
           bytes_per_link_ * (a_.offsets[end(b)] - a_.offsets[begin(b)]);
  }
  std::uint64_t max_bytes() const { return max_bytes_; }
  // Links per piece of a page too large for a block.
  std::uint64_t piece_links() const { return std::max<std::uint64_t>(1, max_bytes_ / 12); }

  // Asks for block b's files to be read ahead.
  void prefetch(std::size_t b) const {
    prefetch_pages(a_.offsets.data() + begin(b), 8 * std::uint64_t{end(b) - begin(b) + 1});
    links(b, [](const void* p, std::size_t n) { prefetch_pages(p, n); });
  }
  // Unmaps block b from the process.
  void release(std::size_t b) const {
    release(a_.offsets.data() + begin(b), 8 * std::uint64_t{end(b) - begin(b) + 1});
    links(b, [this](const void* p, std::size_t n) { release(p, n); });
  }
  // Unmaps the links [first, last) of the link arrays.
  void release_links(std::uint64_t first, std::uint64_t last) const {
    release(a_.ids.data() + first, 4 * (last - first));
    if (!a_.weights.empty()) release(a_.weights.data() + first, 8 * (last - first));
  }

 private:
  template <typename F>
  void links(std::size_t b, F&& f) const {
    const std::uint64_t first = a_.offsets[begin(b)], last = a_.offsets[end(b)];
    if (ids_) f(a_.ids.data() + first, 4 * (last - first));
    if (!a_.weights.empty()) f(a_.weights.data() + first, 8 * (last - first));
  }
  // Whole pages from the one holding `data` (the block before is done with it too) up to the
  // one holding the end (which the next block may still need).
  static void release(const void* data, std::uint64_t bytes) {
    static constexpr std::uintptr_t kPage = 4096;
    const auto at = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t from = at / kPage * kPage;
    release_pages(reinterpret_cast<const void*>(from), at + bytes - from);
  }

  const Adjacency& a_;
  bool ids_;
  std::uint64_t bytes_per_link_;
  std::uint64_t max_bytes_;
  std::vector<PageId> starts_;
};

// The sweep of iterate_power over streamed backlinks.
template <typename Real, bool Weighted>
class StreamedSums {
 public:
  StreamedSums(const GraphView& g, const LinkBlocks& blocks) : g_(g), blocks_(blocks) {}

  template <typename Emit>
  double operator()(const Real* contrib, Emit&& emit) {
    const kernels::Contribution<Real, Weighted> term{g_.in.ids.data(), g_.in.weights.data(),
                                                     contrib};
    // Links that fit in one block stay mapped from one iteration to the next: that is within the
    // budget already, and saves faulting them in again.
    const bool stream = blocks_.count() > 1;
    double total = 0;
    if (stream) blocks_.prefetch(0);
    for (std::size_t b = 0; b < blocks_.count(); ++b) {
      if (stream && b + 1 < blocks_.count()) blocks_.prefetch(b + 1);
      const PageId lo = blocks_.begin(b), hi = blocks_.end(b);
      if (blocks_.bytes(b) > blocks_.max_bytes()) {
        total += emit(lo, sum_in_pieces(lo, term));  // one page, too large for a block
      } else {
        total += kernels::pull_pass(g_.in, lo, hi, term, emit);
      }
      if (stream) blocks_.release(b);
    }
    return total;
  }
  void after_iteration(int, double, double) {}
  void describe(RankResult& r) const {
    r.summation = "streamed";
    r.streamed_blocks = blocks_.count();
    std::uint64_t largest = 0;
    for (std::size_t b = 0; b < blocks_.count(); ++b)
      largest = std::max(largest, std::min(blocks_.bytes(b), blocks_.max_bytes()));
    r.stream_block_bytes = largest;
  }

 private:
  // The backlinks of page u in pieces of a block's size, each released once summed. One sum
  // runs through the pieces, term after term, as kernels::link_sum with one lane (pull_pass's)
  // adds them: the result is the in-memory one bit for bit.
  template <typename Term>
  double sum_in_pieces(PageId u, const Term& term) const {
    const std::uint64_t step = blocks_.piece_links();
    double s = 0;
    for (std::uint64_t e = g_.in.offsets[u]; e < g_.in.offsets[u + 1]; e += step) {
      const std::uint64_t last = std::min(g_.in.offsets[u + 1], e + step);
      for (std::uint64_t i = e; i < last; ++i) s += term(i);
      blocks_.release_links(e, last);
    }
    return s;
  }

  const GraphView& g_;
  const LinkBlocks& blocks_;
};

// The distributions a problem holds as dense vectors (8 bytes per page each).
int dense_distributions(const Problem& p) {
  return !p.source.is_uniform() + (!p.dangling.is_uniform() && !p.dangling_is_source) +
         !p.start.is_uniform();
}

}  // namespace

RankResult rank_out_of_core(const Problem& p, const RankOptions& o) {
  return with_solver_types(o.precision, p.graph->weighted(), [&](auto real, auto weighted) {
    using Real = decltype(real);
    const auto started = std::chrono::steady_clock::now();
    const GraphView& g = *p.graph;
    const std::uint64_t n = g.num_pages;
    // Resident while iterating: rank, next, contributions and 1/out-strength, the dense
    // distributions, and (float) the result widened to double while the vectors still live.
    const std::uint64_t vectors =
        n * (4 * sizeof(Real) + 8 * dense_distributions(p) + (sizeof(Real) == 4 ? 8 : 0));
    const std::uint64_t resident = resident_bytes();
    const std::uint64_t fixed = vectors + resident + kHeadroomBytes;
    // Two blocks: the one being summed, and the next one's first pages, touched before the
    // current block is released when threads finish at different times.
    const std::uint64_t room = o.memory_budget > fixed ? (o.memory_budget - fixed) / 2 : 0;
    if (room < kMinBlockBytes) {
      fail_option("memory_budget", format_bytes(static_cast<double>(o.memory_budget)),
                  " is too small for this web: its ", n, " pages need ",
                  format_bytes(static_cast<double>(vectors)), " of rank vectors in memory, ",
                  "the process holds ", format_bytes(static_cast<double>(resident)),
                  " already, and streaming the links takes ",
                  format_bytes(static_cast<double>(2 * kMinBlockBytes + kHeadroomBytes)),
                  " or more; give at least ",
                  format_bytes(static_cast<double>(fixed + 2 * kMinBlockBytes)));
    }
    const std::uint64_t block_bytes = std::min(room, kMaxBlockBytes);

    // 1/out-strength, a block of forward links at a time (their offsets; and their weights on a
    // weighted web).
    FreshVector<Real> inv(n);
    {
      const LinkBlocks forward(g.out, g.num_pages, block_bytes, /*ids=*/false);
      for (std::size_t b = 0; b < forward.count(); ++b) {
        if (b + 1 < forward.count()) forward.prefetch(b + 1);
        kernels::fill_inverse_out_strength(g, forward.begin(b), forward.end(b), inv.data());
        forward.release(b);
      }
    }
    const LinkBlocks backward(g.in, g.num_pages, block_bytes);
    StreamedSums<Real, decltype(weighted)::value> sweep(g, backward);
    return iterate_power<Real>(p, o, inv, sweep, sum_in_one_process, started);
  });
}

}  // namespace webrank
