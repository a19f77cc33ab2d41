// Bookkeeping shared by the iterative solvers: the L1 change of every iteration, progress
// callbacks, the stopping decision and the result's iteration fields.
//
// A run stops when the change is <= tol (converged) or when StallDetector says it stalled:
// rounding puts a floor under the change, and further iterations only repeat a limit cycle.
#pragma once

#include <chrono>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "webrank/rank/rank.hpp"
#include "webrank/util/error.hpp"

namespace webrank {

// The iterations still needed to bring the L1 change from `last` down to `tol` if it keeps
// falling by the ratio last/previous per iteration (geometric decay, the power method's regime):
// 0 once there, infinity when the change is not falling or tol is 0. Every prediction of a run's
// length (the auto method's choice, the blocked sweep's set-up, progress lines) is this one.
inline double iterations_left(double previous, double last, double tol) {
  const double rate = last / previous;
  if (!(rate > 0 && rate < 1)) return INFINITY;
  if (last <= tol) return 0;
  if (!(tol > 0)) return INFINITY;
  return std::log(tol / last) / std::log(rate);
}

// The stall rule: a change that has not improved on the best one for kIterations iterations,
// while the best is already below the rounding level of the precision (about 3e-4 in float,
// 1.5e-8 in double: the square root of the machine epsilon), will not improve any more.
class StallDetector {
 public:
  static constexpr int kIterations = 20;
  template <typename Real>
  static StallDetector for_precision() {
    return StallDetector(std::sqrt(std::numeric_limits<Real>::epsilon()));
  }
  // Records the next change; true when the run has stalled.
  bool stalled(double change) {
    if (change < best_) {
      best_ = change;
      since_best_ = 0;
      return false;
    }
    return ++since_best_ >= kIterations && best_ < rounding_level_;
  }

 private:
  explicit StallDetector(double rounding_level) : rounding_level_(rounding_level) {}
  double rounding_level_;
  double best_ = INFINITY;
  int since_best_ = 0;
};

// Throws Error(kCancelled) once the caller asked the solve to stop. Called between iterations,
// never inside a parallel region (an exception may not leave one).
inline void throw_if_stopped(const RankOptions& o) {
  if (o.stop.stop_requested()) fail(ErrorKind::kCancelled, "ranking stopped by request");
}

class ConvergenceTracker {
 public:
  // `started`: when the solve began (its set-up counts in the result's seconds).
  template <typename Real>
  static ConvergenceTracker for_precision(
      const RankOptions& o,
      std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now()) {
    return ConvergenceTracker(o, StallDetector::for_precision<Real>(),
                              sizeof(Real) == 4 ? Precision::kFloat : Precision::kDouble, started);
  }

  // Records iteration `it` (1-based) and its change; true when the solver should stop. Throws
  // Error(kCancelled) if the caller asked to stop.
  bool record(int it, double delta) {
    r_.iterations = it;
    r_.deltas.push_back(delta);
    r_.final_delta = delta;
    if (o_.on_iteration) {
      const std::size_t k = r_.deltas.size();
      o_.on_iteration({it, delta, elapsed(),
                       k >= 2 ? iterations_left(r_.deltas[k - 2], delta, o_.tol) : INFINITY});
    }
    throw_if_stopped(o_);
    if (delta <= o_.tol) {
      r_.converged = true;
      return true;
    }
    r_.stalled = stall_.stalled(delta);
    return r_.stalled;
  }

  // For solvers whose stopping change is not the last one recorded (Gauss–Seidel by component:
  // the last change of every component, summed): the result's final_delta, and so its error
  // bound. Call after the last record().
  void set_final_delta(double delta) { r_.final_delta = delta; }

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
  ConvergenceTracker(const RankOptions& o, StallDetector stall, Precision precision,
                     std::chrono::steady_clock::time_point started)
      : o_(o), stall_(stall), start_(started) {
    r_.precision = precision;
  }
  const RankOptions& o_;
  StallDetector stall_;
  std::chrono::steady_clock::time_point start_;
  RankResult r_;
};

// Calls f(Real{}, std::bool_constant<Weighted>{}) with the vector type of `precision` and the
// weighting of the web, so each solver is written once as a template.
template <typename F>
auto with_solver_types(Precision precision, bool weighted, F&& f) {
  if (precision == Precision::kFloat) {
    return weighted ? f(float{}, std::true_type{}) : f(float{}, std::false_type{});
  }
  return weighted ? f(double{}, std::true_type{}) : f(double{}, std::false_type{});
}

}  // namespace webrank
