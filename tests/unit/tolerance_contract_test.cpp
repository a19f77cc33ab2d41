// What "computed to --tol" guarantees (webrank/rank/rank.hpp): every solver of the table, on webs
// with dangling pages, self-links, weights and personalization, returns as converged only a
// vector R with ‖T(R) − R‖₁ <= tol, T one exact iteration of the standard formulation, computed
// here apart from the solvers (one thread, a push along the forward links, double throughout).
#include <cmath>
#include <numeric>
#include <string>

#include "test_graphs.hpp"
#include "webrank/util/error.hpp"

namespace webrank::testing {
namespace {

// The formulation a RankOptions states, as plain vectors: E, where dangling rank goes, d.
struct Formulation {
  std::vector<double> source, dangling;  // dangling all 0 for leak
  double damping = 0.85;
};

std::vector<double> normalized(const PageWeights& w, PageId n) {
  std::vector<double> v(n, w.empty() ? 1.0 / n : 0.0);
  double total = 0;
  for (const auto& [page, x] : w) total += x;
  for (const auto& [page, x] : w) v[page] += x / total;
  return v;
}

Formulation formulation(const RankOptions& o, PageId n) {
  Formulation f;
  f.damping = o.damping;
  f.source = normalized(o.source, n);
  if (!o.dangling_weights.empty()) {
    f.dangling = normalized(o.dangling_weights, n);
  } else if (o.dangling == Dangling::kUniform) {
    f.dangling = normalized({}, n);
  } else if (o.dangling == Dangling::kLeak) {
    f.dangling.assign(n, 0.0);
  } else {
    f.dangling = f.source;
  }
  return f;
}

// ‖T(R) − R‖₁.
double residual(const GraphView& g, const Formulation& f, const std::vector<double>& r) {
  const PageId n = g.num_pages;
  const double d = f.damping;
  std::vector<double> next(n);
  double dangling_mass = 0;
  for (PageId u = 0; u < n; ++u) next[u] = (1 - d) * f.source[u];
  for (PageId v = 0; v < n; ++v) {
    const auto targets = g.out.neighbors(v);
    double strength = 0;
    for (std::size_t i = 0; i < targets.size(); ++i)
      strength += g.weighted() ? g.out.neighbor_weights(v)[i] : 1.0;
    if (!(strength > 0)) {
      dangling_mass += r[v];
      continue;
    }
    for (std::size_t i = 0; i < targets.size(); ++i) {
      const double w = g.weighted() ? g.out.neighbor_weights(v)[i] : 1.0;
      next[targets[i]] += d * r[v] * w / strength;
    }
  }
  double sum = 0;
  for (PageId u = 0; u < n; ++u)
    sum += std::abs(next[u] + d * dangling_mass * f.dangling[u] - r[u]);
  return sum;
}

struct Case {
  std::string name;
  LabeledWeb web;
  RankOptions options;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  for (bool weighted : {false, true}) {
    const LabeledWeb small = random_web(3000, 12000, 21, weighted);
    for (double d : {0.5, 0.85, 0.99}) {
      for (Dangling dangling : {Dangling::kSource, Dangling::kUniform, Dangling::kLeak}) {
        RankOptions o;
        o.damping = d;
        o.dangling = dangling;
        o.threads = 1;
        out.push_back(
            {cat(weighted ? "weighted" : "unweighted", " d=", d, " ", to_string(dangling)), small,
             o});
      }
      RankOptions personalized;
      personalized.damping = d;
      personalized.threads = 1;
      personalized.source = small.weights({{"p1", 1}, {"p2", 3}, {"p17", 0.5}, {"p2900", 2}});
      out.push_back({cat(weighted ? "weighted" : "unweighted", " d=", d, " personalized"), small,
                     personalized});
      RankOptions custom;
      custom.damping = d;
      custom.threads = 1;
      custom.dangling_weights = small.weights({{"p3", 1}, {"p5", 2}});
      out.push_back({cat(weighted ? "weighted" : "unweighted", " d=", d, " dangling weights"),
                     small, custom});
    }
  }
  // Larger webs, where rounding over many pages drifts what an iteration keeps, and
  // gauss-seidel's stopping change on one thread falls below --tol before the residual does.
  const LabeledWeb large = random_web(100000, 600000, 5);
  for (double d : {0.5, 0.85}) {
    for (int threads : {1, 2}) {
      RankOptions o;
      o.damping = d;
      o.threads = threads;
      out.push_back({cat("100000 pages d=", d, " threads=", threads), large, o});
    }
  }
  return out;
}

TEST(ToleranceContract, EveryConvergedVectorMeetsItsTolerance) {
  for (const Case& c : cases()) {
    const OwnedGraph g = c.web.graph();
    const Formulation f = formulation(c.options, g.view().num_pages);
    for (const SolverInfo& solver : solvers()) {
      if (solver.method == Method::kDirect && g.view().num_pages > 5000) continue;
      if (solver.method == Method::kPaper &&
          (c.options.dangling != Dangling::kSource || !c.options.dangling_weights.empty()))
        continue;  // the paper's loop sends dangling rank along E only
      for (double tol : {1e-10, 1e-13}) {
        RankOptions o = c.options;
        o.method = solver.method;
        o.tol = tol;
        o.max_iter = 100000;
        const RankResult r = compute_rank(g.view(), o);
        ASSERT_TRUE(r.converged) << c.name << " " << solver.name << " tol " << tol;
        EXPECT_LE(residual(g.view(), f, r.ranks), tol)
            << c.name << " " << solver.name << " tol " << tol << " (" << r.iterations
            << " iterations, " << r.finishing_iterations << " finishing)";
      }
    }
  }
}

// The finishing iterations are said: a method whose own stop does not bound the residual runs at
// least one (it measures the residual), one whose stop does runs none.
TEST(ToleranceContract, FinishingIterationsAreRecorded) {
  const LabeledWeb w = random_web(2000, 8000, 3);
  const OwnedGraph g = w.graph();
  for (const SolverInfo& solver : solvers()) {
    RankOptions o;
    o.method = solver.method;
    o.tol = 1e-12;
    const RankResult r = compute_rank(g.view(), o);
    ASSERT_TRUE(r.converged) << solver.name;
    if (solver_info(r.method).stop_bounds_residual) {
      EXPECT_EQ(r.finishing_iterations, 0) << solver.name;
      EXPECT_TRUE(std::isnan(r.measured_residual)) << solver.name;
    } else {
      EXPECT_GE(r.finishing_iterations, 1) << solver.name;
      EXPECT_GT(r.measured_residual, 0) << solver.name;
      EXPECT_EQ(static_cast<int>(r.deltas.size()), r.iterations) << solver.name;
    }
  }
}

// The table drives every front end's list of methods and what each supports.
TEST(SolverTable, NamesAndCapabilities) {
  std::vector<std::string> names;
  for (const SolverInfo& s : solvers()) {
    names.emplace_back(s.name);
    EXPECT_EQ(&solver_info(s.method), &s) << s.name;
    EXPECT_EQ(to_string(s.method), s.name);
    EXPECT_FALSE(s.help.empty()) << s.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"power", "paper", "direct", "gauss-seidel",
                                             "extrapolate", "auto"}));
  EXPECT_EQ(solver_names(&SolverInfo::mpi), "power, paper and auto");
  EXPECT_EQ(solver_names(&SolverInfo::batch), "power, gauss-seidel and auto");
  EXPECT_THROW(solver_info(static_cast<Method>(200)), Error);
}

}  // namespace
}  // namespace webrank::testing
