// The algebraic solution by sparse LU (Eigen), the reference the iterative methods are
// checked against. With M the link matrix without dangling columns (substochastic) and δ the
// indicator of dangling pages, the standard formulation reads
//     (I − d·M)·R = (1 − d)·E + d·s·D,   s = δᵀR.
// For d < 1, I − d·M is non-singular: solve x = (I−dM)⁻¹E and y = (I−dM)⁻¹D (y = x when D = E);
// then R = (1−d)·x + d·s·y with s = (1−d)·δᵀx / (1 − d·δᵀy), and s = 0 when rank leaks.
// For d = 1 there is no rank source: R is the stationary vector of G = M + D·δᵀ. One row of
// (I − G)R = 0 is replaced by 1ᵀR = 1 and the rank-one term handled by Sherman–Morrison, so the
// matrix that gets factored stays as sparse as the web.
// Eigen's AVX-512 paths trip GCC 12's -Wmaybe-uninitialized inside the compiler's own intrinsics
// headers (a false positive); silence it for this file only.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <Eigen/SparseLU>
#include <chrono>
#include <cmath>
#include <span>

#include "rank/convergence.hpp"
#include "rank/kernels.hpp"
#include "rank/solver.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

using SparseMatrix = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;
using Vector = Eigen::VectorXd;

// Sparse LU of web matrices fills in badly: time and memory grow about as N^2.5 (docs/ranking.md,
// docs/performance.md). The reference solver stays a matter of seconds and refuses larger webs at
// once.
constexpr PageId kMaxDirectPages = 5'000;

// I − d·M, optionally with the last row replaced by ones.
SparseMatrix system_matrix(const GraphView& g, std::span<const double> inv, double d,
                           bool last_row_ones) {
  const int n = static_cast<int>(g.num_pages);
  std::vector<Eigen::Triplet<double, int>> t;
  t.reserve(g.num_links + 2 * static_cast<std::size_t>(n));
  for (int u = 0; u < n; ++u) {
    if (last_row_ones && u == n - 1) continue;
    t.emplace_back(u, u, 1.0);
    const auto sources = g.in.neighbors(u);
    const auto weights = g.in.neighbor_weights(u);
    for (std::size_t i = 0; i < sources.size(); ++i) {
      const double w = g.weighted() ? weights[i] : 1.0;
      if (inv[sources[i]] != 0 && w != 0) t.emplace_back(u, sources[i], -d * w * inv[sources[i]]);
    }
  }
  if (last_row_ones) {
    for (int v = 0; v < n; ++v) t.emplace_back(n - 1, v, 1.0);
  }
  SparseMatrix a(n, n);
  a.setFromTriplets(t.begin(), t.end());
  a.makeCompressed();
  return a;
}

Vector dense(const Distribution& dist, PageId n) {
  Vector v(n);
  for (PageId u = 0; u < n; ++u) v[u] = dist[u];
  return v;
}

double dangling_sum(const Vector& x, std::span<const double> inv) {
  double s = 0;
  for (Eigen::Index u = 0; u < x.size(); ++u) {
    if (inv[u] == 0) s += x[u];
  }
  return s;
}

}  // namespace

RankResult direct_solve(const Problem& p, const RankOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const GraphView& g = *p.graph;
  const PageId n = g.num_pages;
  if (n > kMaxDirectPages) {
    fail_option("method", "direct is the reference solver for small webs (at most ",
                kMaxDirectPages, " pages); this web has ", n, ": leave out ", option_ref("method"),
                " (auto, the default, picks the faster of power and gauss-seidel)");
  }
  const double d = p.damping;
  Eigen::SparseLU<SparseMatrix, Eigen::COLAMDOrdering<int>> lu;
  const FreshVector<double> inv = kernels::inverse_out_strength(g);
  auto report = [&](bool factorizing, std::uint64_t nonzeros) {
    if (!o.on_progress) return;
    SolveProgress s;
    s.pages = n;
    s.pages_solved = factorizing ? 0 : n;
    s.factorizing = factorizing;
    s.nonzeros = nonzeros;
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    o.on_progress(s);
  };
  auto factorize = [&](const SparseMatrix& a) {
    report(true, static_cast<std::uint64_t>(a.nonZeros()));
    lu.compute(a);
    throw_if_stopped(o);
  };
  Vector r;
  if (d < 1) {
    factorize(system_matrix(g, inv, d, false));
    if (lu.info() != Eigen::Success)
      fail(ErrorKind::kInternal, "the direct solve's sparse LU factorization failed");
    const Vector x = lu.solve(dense(p.source, n));
    if (p.leak) {
      r = (1 - d) * x;
    } else {
      const Vector y = p.dangling_is_source ? x : Vector(lu.solve(dense(p.dangling, n)));
      const double s = (1 - d) * dangling_sum(x, inv) / (1 - d * dangling_sum(y, inv));
      r = (1 - d) * x + d * s * y;
    }
  } else {
    if (p.leak) {
      fail_option("method", "direct cannot solve ", option_ref("damping"), " 1 with ",
                  option_ref("dangling"),
                  " leak (there is no fixed point "
                  "but zero): use ",
                  option_ref("method"), " power");
    }
    factorize(system_matrix(g, inv, 1.0, true));
    if (lu.info() != Eigen::Success) {
      fail_option("method", "direct with ", option_ref("damping"),
                  " 1: the stationary vector is not unique (the web is "
                  "not irreducible); use ",
                  option_ref("damping"), " below 1 or ", option_ref("method"), " power");
    }
    Vector e_last = Vector::Zero(n);
    e_last[n - 1] = 1;
    const Vector z = lu.solve(e_last);
    Vector dd = dense(p.dangling, n);
    dd[n - 1] = 0;
    const Vector q = lu.solve(dd);
    const double denom = 1 - dangling_sum(q, inv);
    if (std::abs(denom) < 1e-14) {
      fail_option("method", "direct with ", option_ref("damping"),
                  " 1: the system is singular; use ", option_ref("method"), " power");
    }
    r = z + q * (dangling_sum(z, inv) / denom);
  }
  report(false, 0);
  RankResult result;
  result.ranks.assign(r.data(), r.data() + n);
  if (o.precision == Precision::kFloat) {
    for (double& x : result.ranks) x = static_cast<float>(x);
  }
  result.precision = o.precision;
  result.converged = true;
  result.normalized = !p.leak;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace webrank
