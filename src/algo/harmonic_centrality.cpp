// Harmonic centrality by HyperBall (webrank/algo/centrality.hpp). One iteration loop, parameterized
// by the ball counter: exact bitsets or HyperLogLog registers. Both are arrays of fixed width
// per page whose union is element-wise (OR, max), so the loop only copies and merges words.
#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>

#include "util/parallel.hpp"
#include "webrank/algo/centrality.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

// A set of pages as N bits.
struct ExactSets {
  using Word = std::uint64_t;
  std::size_t width;  // words per page

  explicit ExactSets(PageId n) : width((static_cast<std::size_t>(n) + 63) / 64) {}
  void init(Word* c, PageId x) const {
    std::fill(c, c + width, Word{0});
    c[x / 64] |= Word{1} << (x % 64);
  }
  bool merge(Word* dst, const Word* src) const {
    Word grew = 0;
    for (std::size_t i = 0; i < width; ++i) {
      grew |= src[i] & ~dst[i];
      dst[i] |= src[i];
    }
    return grew != 0;
  }
  double size(const Word* c) const {
    std::uint64_t bits = 0;
    for (std::size_t i = 0; i < width; ++i) bits += std::popcount(c[i]);
    return static_cast<double>(bits);
  }
};

// A HyperLogLog counter (Flajolet et al. 2007) of 2^log2m one-byte registers, with linear
// counting for small sets (Heule et al. 2013); 64-bit hashes need no large-range correction.
struct HyperLogLog {
  using Word = std::uint8_t;
  int log2m;
  std::size_t width;  // registers
  std::uint64_t seed;
  double alpha_m2;
  double inverse_powers[66];

  HyperLogLog(int b, std::uint64_t s) : log2m(b), width(std::size_t{1} << b), seed(s) {
    const double m = static_cast<double>(width);
    const double alpha = width == 16   ? 0.673
                         : width == 32 ? 0.697
                         : width == 64 ? 0.709
                                       : 0.7213 / (1 + 1.079 / m);
    alpha_m2 = alpha * m * m;
    for (int k = 0; k < 66; ++k) inverse_powers[k] = std::ldexp(1.0, -k);
  }
  static std::uint64_t mix(std::uint64_t x) {  // splitmix64's finalizer
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  }
  void init(Word* c, PageId x) const {
    std::fill(c, c + width, Word{0});
    const std::uint64_t h = mix(x ^ seed);
    const std::size_t reg = h >> (64 - log2m);
    const std::uint64_t rest = h << log2m;
    const int rho = rest == 0 ? 64 - log2m + 1 : std::countl_zero(rest) + 1;
    c[reg] = static_cast<Word>(rho);
  }
  bool merge(Word* dst, const Word* src) const {
    Word grew = 0;
    for (std::size_t i = 0; i < width; ++i) {
      const Word a = dst[i], b = src[i];
      grew |= static_cast<Word>(b > a);
      dst[i] = std::max(a, b);
    }
    return grew != 0;
  }
  double size(const Word* c) const {
    double sum = 0;
    std::size_t zeros = 0;
    for (std::size_t i = 0; i < width; ++i) {
      sum += inverse_powers[c[i]];
      zeros += c[i] == 0;
    }
    const double m = static_cast<double>(width);
    const double raw = alpha_m2 / sum;
    if (raw <= 2.5 * m && zeros > 0) return m * std::log(m / static_cast<double>(zeros));
    return raw;
  }
};

template <typename Counters>
HarmonicResult hyperball(const GraphView& g, const Counters& counters, const HarmonicOptions& o) {
  using Word = typename Counters::Word;
  const auto start = std::chrono::steady_clock::now();
  const PageId n = g.num_pages;
  const std::size_t w = counters.width;
  std::vector<Word> current(static_cast<std::size_t>(n) * w), next(current.size());
  std::vector<double> size(n), h(n, 0.0);
  std::vector<std::uint8_t> changed(n, 1), changed_next(n, 0);
  HarmonicResult r;
  double pairs = 0;
#pragma omp parallel for schedule(static) reduction(+ : pairs) if (n >= kMinParallelPages)
  for (std::int64_t x = 0; x < static_cast<std::int64_t>(n); ++x) {
    Word* c = current.data() + x * w;
    counters.init(c, static_cast<PageId>(x));
    size[x] = counters.size(c);
    pairs += size[x];
  }
  r.reachable_pairs.push_back(pairs);
  for (int t = 1;; ++t) {
    if (o.stop.stop_requested()) fail(ErrorKind::kCancelled, "harmonic centrality interrupted");
    std::uint64_t grown = 0;
    pairs = 0;
    const double inverse_t = 1.0 / t;
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : grown, pairs) \
    if (n >= kMinParallelPages / 4)
    for (std::int64_t x = 0; x < static_cast<std::int64_t>(n); ++x) {
      Word* ball = next.data() + x * w;
      std::memcpy(ball, current.data() + x * w, w * sizeof(Word));
      bool grew = false;
      for (PageId y : g.in.neighbors(static_cast<PageId>(x))) {
        if (changed[y]) grew |= counters.merge(ball, current.data() + std::size_t{y} * w);
      }
      changed_next[x] = grew;
      if (grew) {
        ++grown;
        // An estimate may wobble where HyperLogLog switches estimators: balls never shrink.
        const double s = std::max(size[x], counters.size(ball));
        h[x] += (s - size[x]) * inverse_t;
        size[x] = s;
      }
      pairs += size[x];
    }
    current.swap(next);
    changed.swap(changed_next);
    r.iterations = t;
    if (o.on_progress) {
      o.on_progress(
          {t, grown,
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()});
    }
    if (grown == 0) break;
    r.reachable_pairs.push_back(pairs);
  }
  r.values = std::move(h);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace

HarmonicResult harmonic_centrality(const GraphView& g, const HarmonicOptions& o) {
  if (o.log2m < 4 || o.log2m > 16) {
    fail_option("log2m", "must be in [4, 16] (16 to 65,536 registers per page), got ", o.log2m);
  }
  constexpr std::uint64_t kExactLimit = std::uint64_t{1} << 20;  // 2·N²/8 bytes: 256 GiB beyond
  const bool exact = o.counters == BallCounters::kExact ||
                     (o.counters == BallCounters::kAuto && g.num_pages <= o.exact_max_pages);
  if (exact && g.num_pages > kExactLimit) {
    fail_option("counters", "exact counters take N²/4 bytes: refused for ", g.num_pages,
                " pages (at most ", kExactLimit, "); use HyperLogLog counters");
  }
  ThreadCount threads(o.threads);
  if (g.num_pages == 0) return {};
  HarmonicResult r = exact ? hyperball(g, ExactSets(g.num_pages), o)
                           : hyperball(g, HyperLogLog(o.log2m, o.seed), o);
  r.exact = exact;
  r.log2m = exact ? 0 : o.log2m;
  return r;
}

std::span<const Named<BallCounters>> names(BallCounters) {
  static constexpr Named<BallCounters> kNames[] = {{BallCounters::kAuto, "auto"},
                                                   {BallCounters::kExact, "exact"},
                                                   {BallCounters::kHyperLogLog, "hyperloglog"}};
  return kNames;
}

}  // namespace webrank
