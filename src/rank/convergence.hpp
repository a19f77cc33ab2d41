// Bookkeeping shared by the iterative solvers: the L1 change of every iteration, progress
// callbacks, the stopping decision and the result's iteration fields.
//
// A run stops when the change is <= tol (converged) or when it has not improved for
// kStallIterations while already at the rounding level of the precision (stalled: rounding puts
// a floor under the change, about 2e-7 in float, and further iterations only repeat a limit
// cycle).
#pragma once

#include <chrono>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "webrank/rank.hpp"

namespace webrank {

class ConvergenceTracker {
 public:
  template <typename Real>
  static ConvergenceTracker for_precision(const RankOptions& o) {
    return ConvergenceTracker(o, std::sqrt(std::numeric_limits<Real>::epsilon()),
                              sizeof(Real) == 4 ? Precision::kFloat : Precision::kDouble);
  }

  // Records iteration `it` (1-based) and its change; true when the solver should stop.
  bool record(int it, double delta) {
    r_.iterations = it;
    r_.deltas.push_back(delta);
    r_.final_delta = delta;
    if (o_.on_iteration) o_.on_iteration({it, delta, elapsed()});
    if (delta <= o_.tol) {
      r_.converged = true;
      return true;
    }
    if (delta < best_) {
      best_ = delta;
      since_best_ = 0;
    } else if (++since_best_ >= kStallIterations && best_ < rounding_level_) {
      r_.stalled = true;
      return true;
    }
    return false;
  }

  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

  // The result: ranks widened to double (a vector of doubles passed as an rvalue is moved:
  // copying it would cost fresh memory, slow to fault in), LAW's error bound d/(1−d)·‖Δ‖₁, the
  // elapsed time.
  template <typename Vector>
  RankResult finish(Vector&& ranks, double damping, bool normalized) {
    if constexpr (std::is_same_v<Vector, std::vector<double>>) {
      r_.ranks = std::move(ranks);
    } else {
      r_.ranks.assign(ranks.begin(), ranks.end());
    }
    r_.normalized = normalized;
    r_.error_bound = damping < 1 ? damping / (1 - damping) * r_.final_delta : INFINITY;
    r_.seconds = elapsed();
    return std::move(r_);
  }

 private:
  static constexpr int kStallIterations = 20;

  ConvergenceTracker(const RankOptions& o, double rounding_level, Precision precision)
      : o_(o), rounding_level_(rounding_level), start_(std::chrono::steady_clock::now()) {
    r_.precision = precision;
  }
  const RankOptions& o_;
  double rounding_level_;
  std::chrono::steady_clock::time_point start_;
  double best_ = INFINITY;
  int since_best_ = 0;
  RankResult r_;
};

// Calls f(Real{}, std::bool_constant<Weighted>{}) with the vector type of `precision` and the
// weighting of the web, so each solver is written once as a template.
template <typename F>
RankResult with_solver_types(Precision precision, bool weighted, F&& f) {
  if (precision == Precision::kFloat) {
    return weighted ? f(float{}, std::true_type{}) : f(float{}, std::false_type{});
  }
  return weighted ? f(double{}, std::true_type{}) : f(double{}, std::false_type{});
}

}  // namespace webrank
