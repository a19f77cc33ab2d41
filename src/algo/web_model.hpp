// The host-clustered copying model of `webrank generate --model web` (webrank/algo/generate.hpp):
// pages on hosts of Zipf-like sizes, each host's pages contiguous, URLs
// http://hostH.example/dirD/pageI.html; links drawn in source order. Shared by the edge-list
// writer (generator.cpp) and the synthetic text web (search/text_web.cpp), so both describe the
// same web for the same options.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "webrank/algo/generate.hpp"

namespace webrank {

class WebModel {
 public:
  explicit WebModel(const GenerateOptions& o) : o_(o) {
    // Hosts with Zipf-like sizes: host h gets weight 1/(h+1); pages are assigned in host order
    // so that a host's pages are contiguous, as in a link database sorted by URL.
    n_ = std::max<std::uint64_t>(o.pages, 2);
    const std::uint64_t hosts = std::max<std::uint64_t>(1, n_ / 50);
    std::vector<double> weight(hosts);
    double total = 0;
    for (std::uint64_t h = 0; h < hosts; ++h) total += weight[h] = 1.0 / static_cast<double>(h + 1);
    host_start_.assign(hosts + 1, 0);
    std::uint64_t assigned = 0;
    for (std::uint64_t h = 0; h < hosts; ++h) {
      std::uint64_t size =
          std::max<std::uint64_t>(1, static_cast<std::uint64_t>(weight[h] / total * n_));
      host_start_[h] = assigned;
      assigned = std::min(n_, assigned + size);
    }
    host_start_[hosts] = n_;
    host_of_.resize(n_);
    for (std::uint64_t h = 0, p = 0; p < n_; ++p) {
      while (h + 1 < hosts && p >= host_start_[h + 1]) ++h;
      host_of_[p] = h;
    }
  }

  std::uint64_t pages() const { return n_; }
  std::uint64_t hosts() const { return host_start_.size() - 1; }
  std::uint64_t host(std::uint64_t p) const { return host_of_[p]; }

  std::string url(std::uint64_t p) const {
    const std::uint64_t h = host_of_[p], i = p - host_start_[h];
    return i == 0 ? "http://host" + std::to_string(h) + ".example/"
                  : "http://host" + std::to_string(h) + ".example/dir" + std::to_string(i % 7) +
                        "/page" + std::to_string(i) + ".html";
  }

  // Calls link(source, target) for every link, sources ascending (a source's links together);
  // returns the number of links (at most options.links).
  template <typename F>
  std::uint64_t links(F&& link) const {
    std::mt19937_64 rng(o_.seed);
    std::uniform_real_distribution<double> unit(0, 1);
    // Out-degrees: 20% of pages have none; the rest a geometric-like count with the right mean.
    const double mean = static_cast<double>(o_.links) / (0.8 * static_cast<double>(n_));
    std::geometric_distribution<std::uint64_t> degree(1.0 / (1.0 + std::max(mean - 1, 0.0)));
    std::vector<std::uint64_t> targets;  // every link target so far, for copying
    targets.reserve(o_.links);
    std::uint64_t count = 0;
    for (std::uint64_t p = 0; p < n_ && count < o_.links; ++p) {
      if (unit(rng) < 0.2) continue;      // a dangling page (or one known only from links to it)
      link(p, host_start_[host_of_[p]]);  // pages link to their host's root
      ++count;
      const std::uint64_t k = 1 + degree(rng);
      const std::uint64_t h = host_of_[p];
      const std::uint64_t hs = host_start_[h], he = host_start_[h + 1];
      for (std::uint64_t j = 0; j < k && count < o_.links; ++j) {
        std::uint64_t t;
        const double x = unit(rng);
        if (x < 0.7) {
          t = hs + rng() % (he - hs);  // same host
        } else if (x < 0.9 && !targets.empty()) {
          t = targets[rng() % targets.size()];  // copy an existing link: preferential attachment
        } else {
          t = rng() % n_;  // anywhere
        }
        targets.push_back(t);
        link(p, t);
        ++count;
      }
    }
    return count;
  }

 private:
  GenerateOptions o_;
  std::uint64_t n_ = 0;
  std::vector<std::uint64_t> host_start_, host_of_;
};

}  // namespace webrank
