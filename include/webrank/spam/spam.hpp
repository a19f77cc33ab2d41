// Link spam: TrustRank and spam mass (Gyöngyi, Garcia-Molina & Pedersen 2004; Gyöngyi, Berkhin,
// Garcia-Molina & Pedersen 2006), seed selection by inverse PageRank, a report of likely spam
// farms, and spam farms planted into a web for experiments. docs/spam.md has the definitions,
// the scaling of the good core and the measured detection rates.
//
//   TrustRank   T = the personalized rank with E uniform over trusted seed pages (dangling rank
//               along E): exactly `webrank rank --personalize` on the seeds.
//   spam mass   absolute M(u) = P(u) − γ·T(u), relative m(u) = M(u)/P(u), with P ordinary
//               PageRank and γ the estimated fraction of good pages (the scaling of the good
//               core: T sums to 1, γ·T estimates the part of P that good pages contribute).
//               γ = 1 gives the article's (P − T)/P.
//
// Threads: every function runs its solves with options.threads threads (0: OpenMP's default)
// and has no other side effect than the files it is asked to write.
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "webrank/rank/batch.hpp"
#include "webrank/rank/rank.hpp"
#include "webrank/store/database.hpp"
#include "webrank/util/graph.hpp"
#include "webrank/util/named.hpp"

namespace webrank {

struct TrustOptions {
  BatchOptions batch;          // damping, tol, max_iter, precision, threads, stop, progress
  double good_fraction = 1.0;  // γ in (0, 1]
};

struct TrustResult {
  RankResult pagerank;                // P (uniform E), computed in the same batch as T
  RankResult trustrank;               // T
  std::vector<double> relative_mass;  // m(u) = (P − γT)/P; 0 where P(u) = 0
  std::vector<double> absolute_mass;  // M(u) = P − γT
  double good_fraction = 1.0;
};

// P and T in one batch, and the spam masses. Throws Error (kInvalidArgument for bad options or
// seeds, kCancelled on a stop request).
TrustResult compute_trust(const GraphView& graph, const PageWeights& seeds,
                          const TrustOptions& options);

// Stores T as `trustrank` (a personalized vector `check --ranks` verifies) and the masses as
// `spam-mass` and `spam-mass-absolute` (derived vectors, reported as not checkable).
void save_trust(const Database& db, const TrustResult& result, const PageWeights& seeds,
                const TrustOptions& options);

// Writes `label<TAB>pagerank<TAB>trustrank<TAB>spam_mass` (a header line of those names, then one
// line per page in id order, 17 significant digits), the mass relative or absolute, atomically.
void write_trust_table(const Database& db, const TrustResult& result, const std::string& path,
                       bool absolute_mass = false);

// Seed candidates by inverse PageRank (TrustRank's selection: pages from which much of the web
// can be reached), for a person to vet. `options.source` is ignored.
struct SeedCandidate {
  PageId page = kNoPage;
  double inverse_pagerank = 0;
};
std::vector<SeedCandidate> propose_seeds(const GraphView& graph, std::size_t k,
                                         const RankOptions& options);
// Writes the candidates' labels, one a line after a `#` line saying to vet them (a file for
// `trust --seeds` once vetted), atomically.
void write_seed_list(const Database& db, const std::vector<SeedCandidate>& seeds,
                     const std::string& path);

// ---- the report of likely spam farms (`webrank spam-report`) ----

struct SpamReportOptions {
  // Candidate targets: pages whose PageRank is at least this many times the average (1/N),
  // as Gyöngyi et al.'s "scaled PageRank" threshold ρ.
  double min_scaled_pagerank = 10;
  // A page supports a target when at least min_out_share of its out-links go into the farm (the
  // target or other supporters) and at least min_in_share of its in-links come from it (or it
  // has none): it passes rank on to the target and gets its own from the farm. Supporters that
  // also link to honest pages to look honest qualify with min_hidden_out_share of their
  // out-links when every in-link comes from the farm.
  double min_out_share = 0.5;
  double min_in_share = 0.5;
  double min_hidden_out_share = 0.1;
  std::size_t min_supporters = 5;  // farms smaller than this are not reported
  // Reported when the farm carries at least this share of the target's PageRank.
  double min_farm_share = 0.5;
  // With trust: reported only when the farm's relative spam mass (target and supporters:
  // Σ M / Σ P) is at least this. A farm's pages get trust only through its accessible links,
  // while a site that merely looks like a farm usually has trusted pages among its own.
  double min_relative_mass = 0.9;
  double damping = 0.85;                 // the damping P was computed with
  std::size_t max_farm_pages = 100'000;  // a farm's search stops growing there
  std::size_t max_reports = 1000;
};

struct FarmStructure {
  std::size_t supporters = 0;
  double mean_out_degree = 0;
  double out_share_to_farm = 0;  // of the supporters' out-links, the share into the farm
  double mean_in_degree = 0;
  double in_share_from_farm = 0;  // of the supporters' in-links, the share from the farm
  std::size_t reciprocal = 0;     // supporters the target links back to
  std::size_t hosts = 0;          // distinct hosts among target and supporters (URL labels)
  // Crawl evidence, where the database has page data (else 0): supporters whose content hash
  // equals another farm page's, and the largest number of hosts sharing one page title.
  std::size_t duplicate_content = 0;
  std::size_t hosts_sharing_a_title = 0;
};

struct SpamFarm {
  PageId target = kNoPage;
  double pagerank = 0;         // P(target)
  double scaled_pagerank = 0;  // P·N
  double farm_share = 0;       // of P(target), the part the supporters contribute
  double relative_mass = -1;   // with trust, else -1
  double farm_mass = -1;       // with trust: Σ M / Σ P over target and supporters, else -1
  double score = 0;            // farm_share·P(target): the rank the farm manufactures
  FarmStructure structure;
  std::vector<PageId> supporters;      // by decreasing contribution to the target
  std::vector<PageId> allied_targets;  // other reported targets linking to this one
};

struct SpamReport {
  std::vector<SpamFarm> farms;  // by decreasing score
  std::size_t candidates = 0;   // pages above the PageRank threshold
  bool used_trust = false;
  double seconds = 0;
};

// `pagerank` is P (e.g. a stored vector or compute_rank's); `relative_mass` may be empty (no
// trust evidence) or hold m(u) per page.
SpamReport spam_report(const Database& db, const std::vector<double>& pagerank,
                       const std::vector<double>& relative_mass, const SpamReportOptions& options);

// ---- spam farms planted for experiments (`webrank plant-farm`) ----

enum class FarmShape {
  kStar,      // the article's farm: target ↔ each supporter (supporters link only to the target)
  kChain,     // target → s1 → s2 → ... → sM → target
  kAlliance,  // `farms` stars whose targets also link to each other in a ring
  kHidden,    // a star whose supporters also link to `camouflage` popular pages each
};
std::span<const Named<FarmShape>> names(FarmShape);
const char* to_string(FarmShape);

struct PlantOptions {
  std::string target;            // label of the target (an existing page, or a new one)
  std::size_t supporters = 100;  // m: supporting pages per farm, new pages
  std::size_t accessible = 0;    // existing pages given a link to the target (chosen at random)
  FarmShape shape = FarmShape::kStar;
  std::size_t farms = 1;       // kAlliance: how many allied farms (targets TARGET, TARGET~2...)
  std::size_t camouflage = 2;  // kHidden: honest-looking links per supporter
  std::uint64_t seed = 1;
  std::filesystem::path output;  // the new database (may be the input's path: replaced)
  bool force = false;            // replace an existing output
  std::string truth;             // if set: a file listing the planted pages (below)
};

struct PlantReport {
  std::vector<std::string> targets;
  std::size_t pages_added = 0, links_added = 0;
  std::vector<std::string> accessible;  // labels of the pages given a link to a target
};

// Writes the web of `db` with the farm added as a new database (labels and links; page data and
// rank vectors are not carried over). The truth file has one line per planted page:
// `LABEL<TAB>target|supporter<TAB>FARM_TARGET`. Throws Error (kExists for an output that exists
// without `force`, kInvalidArgument for bad options).
PlantReport plant_farm(const Database& db, const PlantOptions& options);

}  // namespace webrank
