// check_rank_vector() (webrank/rank/verify.hpp). Deliberately written apart from the solvers: one
// thread, a push along the forward links, double throughout, none of rank/kernels.hpp.
#include "webrank/rank/verify.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <vector>

#include "rank/stored_formulation.hpp"
#include "webrank/store/rank_store.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

// HITS (webrank/rank/hits.hpp): the authority vector a is checked against its hub vector h and
// the other way round, each step pushed along the forward links: ‖a − norm(Aᵀh)‖₁ or
// ‖h − norm(A·a)‖₁. The error bound is not known (it depends on the gap between the largest
// singular values), so it is reported as infinite.
void check_hits(const Database& db, const std::string& name, const VectorRecord& record,
                const std::vector<double>& r, RankCheck& c) {
  const bool authority = record.kind == "authority";
  const std::string base = name.substr(0, name.rfind('.'));
  const StoredRanks other = load_ranks(db, base + (authority ? ".hub" : ".authority"));
  const std::vector<double>& from = other.values;
  const GraphView& g = db.graph();
  std::vector<double> next(db.num_pages(), 0.0);
  double total = 0;
  for (PageId v = 0; v < db.num_pages(); ++v) {
    const auto targets = g.out.neighbors(v);
    for (std::size_t i = 0; i < targets.size(); ++i) {
      const double w = g.weighted() ? g.out.neighbor_weights(v)[i] : 1.0;
      if (authority) {
        next[targets[i]] += w * from[v];  // a(u) = Σ_{v→u} w·h(v)
      } else {
        next[v] += w * from[targets[i]];  // h(v) = Σ_{v→u} w·a(u)
      }
      total += w * (authority ? from[v] : from[targets[i]]);
    }
  }
  for (PageId u = 0; u < db.num_pages(); ++u) c.residual += std::abs(next[u] / total - r[u]);
  c.allowed = std::max(c.tol, 4 * std::numeric_limits<double>::epsilon());
  c.error_bound = INFINITY;
  c.ok = c.residual <= c.allowed;
}

}  // namespace

RankCheck check_rank_vector(const Database& db, const std::string& name) {
  const auto start = std::chrono::steady_clock::now();
  const StoredRanks stored = load_ranks(db, name);
  const VectorRecord& record = stored.record;
  RankCheck c;
  c.name = name;
  c.damping = record.damping.value_or(0);
  c.tol = record.tol.value_or(0);
  const PageId n = db.num_pages();
  const std::vector<double>& r = stored.values;
  for (double x : r) c.sum += x;
  const double d = c.damping;

  // Carried onto the pages of a newer version of the web (update): not the fixed point of this
  // web, whatever its residual says.
  if (record.stale) {
    c.checkable = false;
    c.stale = true;
    c.reason =
        cat("stale: ", record.stale->reason, " (", record.stale->pages_added, " pages added, ",
            record.stale->pages_removed, " removed, ", record.stale->links_added, " links added, ",
            record.stale->links_removed, " removed)");
    return c;
  }
  if (record.algorithm == "hits") {
    check_hits(db, name, record, r, c);
    c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return c;
  }
  if (record.algorithm == "spam-mass") {
    c.checkable = false;
    c.reason = cat("a vector derived from others (", record.kind,
                   " spam mass), not the fixed point of an iteration");
    return c;
  }
  const StoredFormulation f = stored_formulation(record, n);
  if (!f.not_a_fixed_point.empty()) {
    c.checkable = false;
    c.reason = f.not_a_fixed_point;
    return c;
  }
  // One exact iteration, pushed along the forward links.
  const GraphView& g = db.graph();
  std::vector<double> next(n);
  double dangling_mass = 0;
  for (PageId u = 0; u < n; ++u) next[u] = (1 - d) * f.e(u);
  for (PageId v = 0; v < n; ++v) {
    double strength = 0;
    if (g.weighted()) {
      for (double w : g.out.neighbor_weights(v)) strength += w;
    } else {
      strength = static_cast<double>(g.out.degree(v));
    }
    if (!(strength > 0)) {
      dangling_mass += r[v];
      continue;
    }
    const auto targets = g.out.neighbors(v);
    const double share = d * r[v] / strength;
    for (std::size_t i = 0; i < targets.size(); ++i) {
      next[targets[i]] += share * (g.weighted() ? g.out.neighbor_weights(v)[i] : 1.0);
    }
  }
  for (PageId u = 0; u < n; ++u) next[u] += d * dangling_mass * f.d(u);
  for (PageId u = 0; u < n; ++u) c.residual += std::abs(next[u] - r[u]);

  // A vector stored in float cannot get closer to its fixed point than its own rounding.
  const double floor = stored.precision == Precision::kFloat
                           ? 4 * std::numeric_limits<float>::epsilon()
                           : 4 * std::numeric_limits<double>::epsilon();
  c.allowed = std::max(c.tol, floor);
  c.error_bound = d < 1 ? c.residual / (1 - d) : INFINITY;
  if (record.normalized && record.dangling != "leak") {
    c.sum_checked = true;
    c.sum_allowed =
        (d < 1 ? c.allowed / (1 - d) : c.allowed) +
        static_cast<double>(n) * std::numeric_limits<double>::epsilon() +
        (stored.precision == Precision::kFloat ? 4 * std::numeric_limits<float>::epsilon() : 0);
    c.sum_ok = std::abs(c.sum - 1) <= c.sum_allowed;
  }
  c.ok = c.residual <= c.allowed && c.sum_ok;
  c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return c;
}

}  // namespace webrank
