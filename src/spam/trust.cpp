// TrustRank and spam mass (webrank/spam/spam.hpp; docs/spam.md).
#include <cmath>
#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>

#include "util/atomic_file.hpp"
#include "webrank/spam/spam.hpp"
#include "webrank/store/rank_store.hpp"
#include "webrank/util/error.hpp"

namespace webrank {

TrustResult compute_trust(const GraphView& graph, const PageWeights& seeds, const TrustOptions& o) {
  if (!(o.good_fraction > 0 && o.good_fraction <= 1))
    fail_option("good_fraction", "must be in (0, 1], got ", o.good_fraction);
  if (seeds.empty()) fail_option("seeds", "is empty: TrustRank needs at least one trusted page");
  // P and T in one sweep per iteration.
  std::vector<RankResult> r = compute_rank_batch(graph, {PageWeights{}, seeds}, o.batch);
  TrustResult t;
  t.pagerank = std::move(r[0]);
  t.trustrank = std::move(r[1]);
  t.good_fraction = o.good_fraction;
  const std::size_t n = graph.num_pages;
  t.absolute_mass.resize(n);
  t.relative_mass.resize(n);
  for (std::size_t u = 0; u < n; ++u) {
    const double p = t.pagerank.ranks[u];
    t.absolute_mass[u] = p - o.good_fraction * t.trustrank.ranks[u];
    t.relative_mass[u] = p > 0 ? t.absolute_mass[u] / p : 0.0;
  }
  return t;
}

void save_trust(const Database& db, const TrustResult& t, const PageWeights& seeds,
                const TrustOptions& o) {
  RankOptions trust = o.batch.rank;
  trust.source = seeds;
  save_ranks(db, "trustrank", t.trustrank, trust);
  for (const bool absolute : {false, true}) {
    VectorRecord v;
    v.algorithm = "spam-mass";
    v.kind = absolute ? "absolute" : "relative";
    v.method = "derived";
    v.good_fraction = o.good_fraction;
    v.damping = o.batch.rank.damping;
    v.tol = o.batch.rank.tol;
    v.dangling = to_string(o.batch.rank.dangling);
    v.personalized = true;
    v.source_pages = seeds.size();
    v.converged = t.pagerank.converged && t.trustrank.converged;
    v.iterations = std::max(t.pagerank.iterations, t.trustrank.iterations);
    v.seed_pages = seeds.size();
    v.normalized = false;
    v.seconds = std::max(t.pagerank.seconds, t.trustrank.seconds);
    v.created = static_cast<std::int64_t>(std::time(nullptr));
    write_rank_vector(db, absolute ? "spam-mass-absolute" : "spam-mass",
                      absolute ? t.absolute_mass : t.relative_mass, Precision::kDouble,
                      std::move(v));
  }
}

void write_trust_table(const Database& db, const TrustResult& t, const std::string& path,
                       bool absolute_mass) {
  AtomicFileWriter out(path);
  std::string buf = "label\tpagerank\ttrustrank\tspam_mass\n";
  char num[120];
  const auto& mass = absolute_mass ? t.absolute_mass : t.relative_mass;
  for (PageId u = 0; u < db.num_pages(); ++u) {
    buf.append(db.label(u));
    const int len = std::snprintf(num, sizeof num, "\t%.17g\t%.17g\t%.17g\n", t.pagerank.ranks[u],
                                  t.trustrank.ranks[u], mass[u]);
    buf.append(num, len);
    if (buf.size() > (1 << 20)) {
      out.write(buf);
      buf.clear();
    }
  }
  out.write(buf);
  out.commit();
}

}  // namespace webrank
