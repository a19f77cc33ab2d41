// Synthetic webs for demos, tests and benchmarks, written as edge lists.
//
//  - kWeb: a host-clustered copying model with the locality of real crawls. Pages live on hosts
//    of Zipf-distributed sizes and are labelled by URL (http://hostH.example/... ); most links
//    stay on the page's host, the rest copy a link of an earlier page (preferential attachment,
//    giving power-law in-degrees); a share of pages have no out-links, as in a crawl frontier.
//  - kRmat: R-MAT / Kronecker (a, b, c) = (0.57, 0.19, 0.19) over 2^scale numeric ids, the
//    Graph500/GAP generator.
// Output is deterministic for a given seed.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "webrank/util/named.hpp"

namespace webrank {

enum class GraphModel { kWeb, kRmat };
// "web", "rmat" (webrank/util/named.hpp).
std::span<const Named<GraphModel>> names(GraphModel);

struct GenerateOptions {
  GraphModel model = GraphModel::kWeb;
  std::uint64_t pages = 10000;  // kRmat rounds up to a power of two
  std::uint64_t links = 80000;
  std::uint64_t seed = 1;
  std::string output;  // path ("-" = stdout); written atomically
};

struct GenerateReport {
  std::uint64_t ids = 0;           // page ids the model draws from (kRmat: a power of two)
  std::uint64_t pages = 0;         // of those, the ones that appear in a link: the web's pages
  std::uint64_t links = 0;         // lines written (links drawn twice merge when built)
  std::vector<std::string> notes;  // why less was produced than asked, one sentence each
};

GenerateReport generate_graph(const GenerateOptions& options);

}  // namespace webrank
