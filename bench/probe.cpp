// bench/probe: what the memory system of this machine can do, for the bandwidth floor of
// PageRank (bench/compare uses its JSON output).
//
//   probe [--threads 1,2] [--mib 256] [--reps 5] [--json]
//
// 1. Sequential read: sum of a --mib MiB array of 64-bit integers (integer adds vectorize, so the
//    loop is limited by memory, not by an add chain), each thread reading its share as 8
//    interleaved streams. GB/s = bytes read / time.
// 2. Triad (STREAM): a[i] = b[i] + s*c[i] on three arrays of --mib/2 MiB each (doubles).
//    GB/s counts 3 x 8 bytes per element, STREAM's convention (the write-allocate read of a[] is
//    not counted, so the real traffic is 4/3 of that).
// 3. Random 4-byte reads from a table of 256 KiB ... 256 MiB:
//    - gather: sum += table[idx[i]] over 16M uniformly random indices streamed from an array,
//      many independent loads in flight: the shape of PageRank's pull loop
//      (sum += contrib[sources[e]]). ns per read, aggregated over all threads.
//    - chase: i = table[i] along one random cycle (Sattolo): dependent loads, the latency.
//    - fp-chain: the gather with one float accumulator (sum += float) at the smallest table: the
//      cost of a sequential floating-point sum, which a per-page loop that is not reassociated
//      pays per link whatever the memory does.
// Each figure is the best (minimum time) of --reps repetitions; arrays are first-touched by the
// threads that use them. Uniform random indices are a pessimistic model of a web graph, whose
// backlinks concentrate on few pages.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
volatile std::uint64_t g_sink;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

struct Rng {
  std::uint64_t s;
  std::uint64_t next() {  // splitmix64
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
};

template <typename T>
T* alloc(std::size_t n) {
  void* p = nullptr;
  if (posix_memalign(&p, 2 << 20, n * sizeof(T) + 64) != 0) {
    std::fprintf(stderr, "probe: out of memory\n");
    std::exit(1);
  }
  return static_cast<T*>(p);
}

// Each thread sums its contiguous share as 8 interleaved sub-streams (one vectorized accumulator
// each): one stream per thread leaves the prefetchers short of requests on this machine.
double seq_read(int threads, std::size_t mib, int reps) {
  constexpr int kStreams = 8;
  const std::size_t n = mib * (1 << 20) / 8;
  std::uint64_t* a = alloc<std::uint64_t>(n);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::size_t i = 0; i < n; ++i) a[i] = i;
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    const auto t = Clock::now();
    std::uint64_t total = 0;
#pragma omp parallel num_threads(threads) reduction(+ : total)
    {
      const std::size_t nt = static_cast<std::size_t>(omp_get_num_threads());
      const std::size_t id = static_cast<std::size_t>(omp_get_thread_num());
      const std::size_t chunk = n / nt, m = chunk / kStreams;
      const std::uint64_t* base = a + id * chunk;
      std::uint64_t s[kStreams] = {};
      for (std::size_t i = 0; i < m; ++i)
        for (int k = 0; k < kStreams; ++k) s[k] += base[k * m + i];
      for (int k = 0; k < kStreams; ++k) total += s[k];
    }
    best = std::min(best, seconds_since(t));
    g_sink = g_sink + total;
  }
  std::free(a);
  // bytes actually read: every thread reads kStreams * m elements
  const std::size_t read = n / threads / kStreams * kStreams * threads;
  return static_cast<double>(read * 8) / best / 1e9;
}

double triad(int threads, std::size_t mib, int reps) {
  const std::size_t n = mib * (1 << 20) / 2 / 8;
  double* a = alloc<double>(n);
  double* b = alloc<double>(n);
  double* c = alloc<double>(n);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = 0;
    b[i] = 1;
    c[i] = 2;
  }
  double best = 1e30;
  const double s = 3;
  for (int r = 0; r < reps; ++r) {
    const auto t = Clock::now();
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::size_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
    best = std::min(best, seconds_since(t));
  }
  g_sink = g_sink + static_cast<std::uint64_t>(a[n / 2]);
  std::free(a);
  std::free(b);
  std::free(c);
  return static_cast<double>(n * 3 * 8) / best / 1e9;
}

// ns per random read, aggregated: total time / number of reads.
double gather(const std::uint32_t* table, const std::uint32_t* idx, std::size_t k, int threads,
              int reps) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    const auto t = Clock::now();
    std::uint64_t total = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : total)
    for (std::size_t i = 0; i < k; ++i) total += table[idx[i]];
    best = std::min(best, seconds_since(t));
    g_sink = g_sink + total;
  }
  return best / static_cast<double>(k) * 1e9;
}

double gather_fp_chain(const float* table, const std::uint32_t* idx, std::size_t k, int reps) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    const auto t = Clock::now();
    float sum = 0;
    for (std::size_t i = 0; i < k; ++i) sum += table[idx[i]];
    best = std::min(best, seconds_since(t));
    g_sink = g_sink + static_cast<std::uint64_t>(sum);
  }
  return best / static_cast<double>(k) * 1e9;
}

double chase(std::uint32_t* table, std::size_t n, std::size_t steps, int reps, Rng& rng) {
  // Sattolo: one cycle through all n slots.
  for (std::size_t i = 0; i < n; ++i) table[i] = static_cast<std::uint32_t>(i);
  for (std::size_t i = n - 1; i > 0; --i) {
    std::size_t j = rng.next() % i;
    std::swap(table[i], table[j]);
  }
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    std::uint32_t p = 0;
    const auto t = Clock::now();
    for (std::size_t s = 0; s < steps; ++s) p = table[p];
    best = std::min(best, seconds_since(t));
    g_sink = g_sink + p;
  }
  return best / static_cast<double>(steps) * 1e9;
}

std::vector<int> parse_threads(const std::string& s) {
  std::vector<int> v;
  std::size_t pos = 0;
  while (pos < s.size()) {
    std::size_t comma = s.find(',', pos);
    if (comma == std::string::npos) comma = s.size();
    v.push_back(std::max(1, std::atoi(s.substr(pos, comma - pos).c_str())));
    pos = comma + 1;
  }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> threads = {1, 2};
  std::size_t mib = 256;
  int reps = 5;
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) {
      threads = parse_threads(argv[++i]);
    } else if (!std::strcmp(argv[i], "--mib") && i + 1 < argc) {
      mib = std::max<std::size_t>(8, std::strtoull(argv[++i], nullptr, 10));
    } else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) {
      reps = std::max(1, std::atoi(argv[++i]));
    } else if (!std::strcmp(argv[i], "--json")) {
      json = true;
    } else {
      std::fprintf(stderr, "usage: %s [--threads 1,2] [--mib 256] [--reps 5] [--json]\n", argv[0]);
      return 2;
    }
  }
  const auto start = Clock::now();
  std::string out = "{\"array_mib\": " + std::to_string(mib) +
                    ", \"reps\": " + std::to_string(reps) + ", \"bandwidth\": [";
  char buf[512];
  if (!json) std::printf("%-8s %16s %16s\n", "threads", "seq read GB/s", "triad GB/s");
  for (std::size_t i = 0; i < threads.size(); ++i) {
    const double r = seq_read(threads[i], mib, reps);
    const double t = triad(threads[i], mib, reps);
    std::snprintf(buf, sizeof buf,
                  "%s{\"threads\": %d, \"seq_read_gbs\": %.3f, \"triad_gbs\": %.3f}", i ? ", " : "",
                  threads[i], r, t);
    out += buf;
    if (!json) std::printf("%-8d %16.2f %16.2f\n", threads[i], r, t);
  }
  out += "], \"random_read\": [";

  const std::size_t k = std::size_t{16} << 20;  // 16M reads
  std::uint32_t* idx = alloc<std::uint32_t>(k);
  Rng rng{12345};
  const std::size_t sizes_kib[] = {256, 1 << 10, 4 << 10, 16 << 10, 64 << 10, 256 << 10};
  if (!json) {
    std::printf("\n%-10s", "table");
    for (int t : threads) std::printf("   gather %dT ns", t);
    std::printf("   chase ns\n");
  }
  double fp_chain = 0;
  for (std::size_t si = 0; si < std::size(sizes_kib); ++si) {
    const std::size_t n = sizes_kib[si] * 1024 / 4;
    std::uint32_t* table = alloc<std::uint32_t>(n);
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < n; ++i) table[i] = static_cast<std::uint32_t>(i);
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < k; ++i) {
      Rng r{i * 0x2545F4914F6CDD1DULL + n};
      idx[i] = static_cast<std::uint32_t>(r.next() % n);
    }
    std::snprintf(buf, sizeof buf, "%s{\"table_kib\": %zu, \"gather_ns\": {", si ? ", " : "",
                  sizes_kib[si]);
    out += buf;
    if (!json) std::printf("%-10s", (std::to_string(sizes_kib[si]) + " KiB").c_str());
    for (std::size_t ti = 0; ti < threads.size(); ++ti) {
      const double ns = gather(table, idx, k, threads[ti], reps);
      std::snprintf(buf, sizeof buf, "%s\"%d\": %.3f", ti ? ", " : "", threads[ti], ns);
      out += buf;
      if (!json) std::printf("   %13.2f", ns);
    }
    if (si == 0) {
      fp_chain = gather_fp_chain(reinterpret_cast<const float*>(table), idx, k, reps);
    }
    const double lat = chase(table, n, std::size_t{4} << 20, std::min(reps, 3), rng);
    std::snprintf(buf, sizeof buf, "}, \"chase_ns\": %.3f}", lat);
    out += buf;
    if (!json) std::printf("   %8.2f\n", lat);
    std::free(table);
  }
  std::free(idx);
  std::snprintf(buf, sizeof buf, "], \"fp_add_chain_ns\": %.3f, \"probe_seconds\": %.2f}", fp_chain,
                seconds_since(start));
  out += buf;
  if (json) {
    std::printf("%s\n", out.c_str());
  } else {
    std::printf("\nfloat sum chain, 256 KiB table, 1 thread: %.2f ns per read\n", fp_chain);
  }
  return 0;
}
