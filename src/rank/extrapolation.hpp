// Extrapolation: jumping from the last iterates towards the limit, the one home of both ways
// webrank does it.
//
//  - quadratic_extrapolation: power iteration's (--method extrapolate), from four iterates.
//  - mpe_step: the minimal polynomial of the last changes, one or two terms (one term is
//    Aitken's), used by Gauss–Seidel on each large strongly connected component.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "util/parallel.hpp"

namespace webrank {

// Quadratic extrapolation (Kamvar, Haveliwala, Manning & Golub, WWW 2003). From the last four
// iterates x0..x3 it estimates the vector with the components along the second and third
// eigenvectors removed: with y1 = x1 − x0, y2 = x2 − x0, y3 = x3 − x0, solve the 2×2 least
// squares [y1 y2]·(g1, g2) ≈ −y3 and take x* = (g1+g2+1)·x1 + (g2+1)·x2 + x3, rescaled to the
// sum of x3. Returns false (and leaves `out` alone) when the system is degenerate.
template <typename Real>
bool quadratic_extrapolation(const std::vector<std::vector<Real>>& x, std::vector<Real>& out) {
  const std::int64_t n = static_cast<std::int64_t>(out.size());
  double a11 = 0, a12 = 0, a22 = 0, b1 = 0, b2 = 0, sum3 = 0;
#pragma omp parallel for schedule(static) reduction(+ : a11, a12, a22, b1, b2, sum3) if (n >= kMinParallelPages)
  for (std::int64_t i = 0; i < n; ++i) {
    const double base = x[0][i];
    const double y1 = x[1][i] - base, y2 = x[2][i] - base, y3 = x[3][i] - base;
    a11 += y1 * y1;
    a12 += y1 * y2;
    a22 += y2 * y2;
    b1 -= y1 * y3;
    b2 -= y2 * y3;
    sum3 += x[3][i];
  }
  const double det = a11 * a22 - a12 * a12;
  if (!(std::abs(det) > 1e-300) || !std::isfinite(det)) return false;
  const double g1 = (b1 * a22 - b2 * a12) / det, g2 = (a11 * b2 - a12 * b1) / det;
  const double c1 = g1 + g2 + 1, c2 = g2 + 1;
  double sum = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum) if (n >= kMinParallelPages)
  for (std::int64_t i = 0; i < n; ++i) sum += c1 * x[1][i] + c2 * x[2][i] + x[3][i];
  if (!(sum > 0) || !std::isfinite(sum)) return false;
  const double scale = sum3 / sum;
#pragma omp parallel for schedule(static) if (n >= kMinParallelPages)
  for (std::int64_t i = 0; i < n; ++i) {
    out[i] = static_cast<Real>(scale * (c1 * x[1][i] + c2 * x[2][i] + x[3][i]));
  }
  return true;
}

// Power iteration extrapolates every this many iterations.
inline constexpr int kExtrapolationPeriod = 10;

// The dot products of the last three changes Δ0 (newest), Δ1, Δ2 of a sweep.
struct ChangeProducts {
  double d00, d01, d02, d11, d12, d22;
};

// x_limit = x − f0·Δ1' − f1·Δ2', where Δ1' and Δ2' are the changes stored after the sweep (the
// newest change and the one before).
struct MpeStep {
  double f0, f1;
};

// Extrapolation by the minimal polynomial of the last changes (MPE with one or two terms): if
// Δ0 + c1·Δ1 + c0·Δ2 ≈ 0, the error obeys the same recurrence and the limit is
// x − ((c1 + c0)·Δ0 + c0·Δ1)/(1 + c1 + c0). Two terms catch a rate that oscillates (two modes,
// e.g. of opposite signs), which one Aitken step cannot. Returns nothing unless the recurrence
// explains the last change to a relative L2 residual of kMaxFit, and 1 + c1 + c0 (the
// recurrence's polynomial at 1) is at least kMinAtOne: near 0 a mode decays with a rate near 1
// and the jump would magnify any error in the fit (docs/performance.md has the sweeps each
// choice of kMaxFit took).
inline std::optional<MpeStep> mpe_step(const ChangeProducts& p) {
  constexpr double kMaxFit = 0.3, kMinAtOne = 0.05;
  if (!(p.d00 > 0) || !(p.d11 > 0)) return std::nullopt;
  double c1 = -p.d01 / p.d11, c0 = 0, residual = p.d00 + c1 * p.d01;  // one term
  const double det = p.d11 * p.d22 - p.d12 * p.d12;
  if (det > 1e-6 * p.d11 * p.d22) {  // Δ1, Δ2 independent enough for two terms
    const double two_c1 = (-p.d01 * p.d22 + p.d02 * p.d12) / det;
    const double two_c0 = (-p.d02 * p.d11 + p.d01 * p.d12) / det;
    const double two_residual = p.d00 + two_c1 * p.d01 + two_c0 * p.d02;
    if (two_residual < residual) c1 = two_c1, c0 = two_c0, residual = two_residual;
  }
  const double at_one = 1 + c1 + c0;
  if (!(residual <= kMaxFit * kMaxFit * p.d00) || !(at_one >= kMinAtOne)) return std::nullopt;
  return MpeStep{(c1 + c0) / at_one, c0 / at_one};
}

}  // namespace webrank
