// Appends values to many output streams ("bins") at once, each bin a contiguous region of one
// 64-byte-aligned array, without the cache traffic such scattered appends normally cost.
//
// Why: propagation blocking (propagation_blocks.hpp) appends every link's value to one of
// hundreds of bins. Plain stores would read each destination cache line from memory before
// overwriting it (write-allocate) and evict useful data. Instead each bin collects a cache line's
// worth of values in a small staging buffer that stays in L1/L2, and full lines go to memory with
// non-temporal stores (software write-combining, as in Beamer et al., IPDPS 2017).
//
// Contract: put(b, v) appends v to bin b, whose region is [begin[b], end[b]) of `out`; the caller
// guarantees a bin never receives more values than its region holds. Several writers may fill
// disjoint regions of one array concurrently (one writer per thread): lines a writer shares with
// a neighbour are written with ordinary stores, only lines wholly inside its own region are
// streamed. finish() writes the partial lines and fences, after which every value is visible.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "util/fresh_memory.hpp"

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace webrank {

template <typename T>
class BinnedWriter {
  static_assert(kCacheLine % sizeof(T) == 0);
  static constexpr std::uint64_t kPerLine = kCacheLine / sizeof(T);

 public:
  // `out` must be cache-line aligned; begin/end hold one entry per bin.
  BinnedWriter(T* out, const std::uint64_t* begin, const std::uint64_t* end, std::size_t bins)
      : out_(out), begin_(begin), end_(end), next_(begin, begin + bins), stage_(bins * kPerLine) {}

  void put(std::uint32_t bin, T value) {
    const std::uint64_t i = next_[bin]++;
    T* line = stage_.data() + bin * kPerLine;
    line[i % kPerLine] = value;
    if (i % kPerLine == kPerLine - 1) write_line(bin, i + 1 - kPerLine, i + 1);
  }

  void finish() {
    for (std::size_t b = 0; b < next_.size(); ++b) {
      const std::uint64_t i = next_[b];
      if (i % kPerLine != 0) write_line(b, i - i % kPerLine, i);
    }
#if defined(__SSE2__)
    _mm_sfence();  // streamed lines are weakly ordered: publish them before the caller's barrier
#endif
  }

 private:
  // Writes staged elements [first, last) of bin b, where first is line-aligned.
  void write_line(std::size_t b, std::uint64_t first, std::uint64_t last) {
    const T* line = stage_.data() + b * kPerLine;
    if (last - first == kPerLine && first >= begin_[b] && last <= end_[b]) {
      stream_line(out_ + first, line);
      return;
    }
    const std::uint64_t from = std::max(first, begin_[b]);  // the line may start in a neighbour
    std::memcpy(out_ + from, line + (from - first), (last - from) * sizeof(T));
  }

  static void stream_line(T* dst, const T* src) {
#if defined(__AVX512F__)
    _mm512_stream_si512(reinterpret_cast<__m512i*>(dst),
                        _mm512_load_si512(reinterpret_cast<const void*>(src)));
#elif defined(__AVX__)
    const auto* s = reinterpret_cast<const __m256i*>(src);
    auto* d = reinterpret_cast<__m256i*>(dst);
    _mm256_stream_si256(d, _mm256_load_si256(s));
    _mm256_stream_si256(d + 1, _mm256_load_si256(s + 1));
#elif defined(__SSE2__)
    const auto* s = reinterpret_cast<const __m128i*>(src);
    auto* d = reinterpret_cast<__m128i*>(dst);
    for (int k = 0; k < 4; ++k) _mm_stream_si128(d + k, _mm_load_si128(s + k));
#else
    std::memcpy(dst, src, kCacheLine);
#endif
  }

  T* out_;
  const std::uint64_t* begin_;
  const std::uint64_t* end_;
  std::vector<std::uint64_t> next_;
  AlignedArray<T> stage_;
};

}  // namespace webrank
