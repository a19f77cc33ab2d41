// frontier_bench: the crawl frontier alone (src/crawl/frontier.hpp) with URLS URLs queued over
// HOSTS hosts, as a crawl that discovers them faster than it fetches them queues them: its time
// and peak memory with and without a memory budget (docs/performance.md, "Crawling at scale").
//
//   frontier_bench [--urls 10000000] [--hosts 10000] [--memory 128M] [--spill FILE]
//
// Adds the URLs http://HOST/p/K in rounds over the hosts (K < URLS / HOSTS), each from a page of
// its host (shape depth 1), then takes them all out with next(); prints one JSON line: URLs,
// seconds to add and to take, the most spilled at once, peak RSS.
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "crawl/frontier.hpp"

namespace {

std::uint64_t parse_size(const std::string& s) {
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  switch (*end) {
    case 'G':
      v *= 1 << 30;
      break;
    case 'M':
      v *= 1 << 20;
      break;
    case 'K':
      v *= 1 << 10;
      break;
  }
  return static_cast<std::uint64_t>(v);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace webrank::crawl;
  std::uint64_t urls = 10000000, hosts = 10000, memory = 128ull << 20;
  std::string spill = "/tmp/frontier-bench-" + std::to_string(::getpid()) + ".spill";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i], v = argv[i + 1];
    if (a == "--urls") urls = std::strtoull(v.c_str(), nullptr, 10);
    if (a == "--hosts") hosts = std::strtoull(v.c_str(), nullptr, 10);
    if (a == "--memory") memory = parse_size(v);
    if (a == "--spill") spill = v;
  }
  webrank::FrontierOptions o;
  o.delay = 0;
  o.per_host = 1 << 30;
  o.max_depth = 1 << 30;
  o.memory = memory;
  Frontier f(o);
  if (memory > 0) f.set_spill_file(spill);
  const auto t0 = std::chrono::steady_clock::now();
  std::size_t most_spilled = 0;
  const std::uint64_t per_host = urls / hosts;
  FrontierItem from;
  for (std::uint64_t k = 0; k < per_host; ++k) {
    for (std::uint64_t h = 0; h < hosts; ++h) {
      const std::string host = "http://host" + std::to_string(h) + ".example/";
      from.shape = shape_of(host + "p/0");
      from.shape_depth = 0;
      f.add(host + "p/" + std::to_string(k), 1, 0, &from);
    }
    most_spilled = std::max(most_spilled, f.spilled());
  }
  const auto t1 = std::chrono::steady_clock::now();
  std::uint64_t taken = 0;
  const auto now = Clock::now();
  while (std::optional<FrontierItem> item = f.next(now)) {
    ++taken;
    f.release(host_key(item->url));
  }
  const auto t2 = std::chrono::steady_clock::now();
  rusage ru{};
  ::getrusage(RUSAGE_SELF, &ru);
  std::printf(
      "{\"urls\": %llu, \"hosts\": %llu, \"memory\": %llu, \"add_s\": %.2f, \"take_s\": %.2f, "
      "\"taken\": %llu, \"most_spilled\": %zu, \"trapped\": %llu, \"peak_rss_mib\": %.1f}\n",
      static_cast<unsigned long long>(urls), static_cast<unsigned long long>(hosts),
      static_cast<unsigned long long>(memory), std::chrono::duration<double>(t1 - t0).count(),
      std::chrono::duration<double>(t2 - t1).count(), static_cast<unsigned long long>(taken),
      most_spilled, static_cast<unsigned long long>(f.trapped()), ru.ru_maxrss / 1024.0);
  return 0;
}
