// Seed candidates by inverse PageRank (webrank/spam/spam.hpp): PageRank of the web with every link
// reversed, so pages from which many pages can be reached in few steps rank high (Gyöngyi et al.
// 2004, §4.1: the seeds that spread trust furthest).
#include "util/atomic_file.hpp"
#include "webrank/rank/presentation.hpp"
#include "webrank/spam/spam.hpp"

namespace webrank {

std::vector<SeedCandidate> propose_seeds(const GraphView& graph, std::size_t k,
                                         const RankOptions& options) {
  GraphView reversed = graph;
  std::swap(reversed.out, reversed.in);
  RankOptions o = options;
  o.source.clear();
  const RankResult r = compute_rank(reversed, o);
  std::vector<SeedCandidate> seeds;
  for (const TopEntry& t : top_pages(r.ranks, k)) seeds.push_back({t.page, t.rank});
  return seeds;
}

void write_seed_list(const Database& db, const std::vector<SeedCandidate>& seeds,
                     const std::string& path) {
  AtomicFileWriter out(path);
  std::string text = "# seed candidates by inverse PageRank: keep only the pages you trust\n";
  for (const auto& s : seeds) text += std::string(db.label(s.page)) + "\n";
  out.write(text);
  out.commit();
}

}  // namespace webrank
