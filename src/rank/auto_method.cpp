// --method auto: the power iteration or Gauss–Seidel by component, whichever should be faster.
//
// Gauss–Seidel by component costs about as much as a few dozen power iterations (its component
// search and set-up are fixed costs), so it pays exactly when the power iteration needs many
// more. The power iteration's first changes tell: a few iterations are run, and their last ratio
// predicts the total (the early rate understates the final one on crawls, which errs on the side
// of power). docs/performance.md has what the probe predicts on each web and which method won.
//
// The probe is not wasted: its vector is the start of whichever method continues, and its
// iterations count in the result.
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "rank/convergence.hpp"
#include "rank/solver.hpp"

namespace webrank {
namespace {

constexpr int kProbeIterations = 4;
constexpr double kGaussSeidelFromIterations = 20;  // predicted power iterations

// The predicted total number of power iterations to reach tol, from the last two changes.
double predicted_iterations(const RankResult& r, double tol) {
  const auto& d = r.deltas;
  if (d.size() < 2 || !(d.back() > 0)) return r.iterations;
  return r.iterations + iterations_left(d[d.size() - 2], d.back(), tol);
}

}  // namespace

RankResult auto_method(const Problem& p, const RankOptions& o) {
  RankOptions power = o;
  power.method = Method::kPower;
  if (!gauss_seidel_by_component_applies(p)) {
    RankResult r = power_iteration(p, power);
    r.method = Method::kPower;
    return r;
  }
  RankOptions probe = power;
  probe.max_iter = std::min(kProbeIterations, o.max_iter);
  // --sweep auto could build a blocked layout during the probe, wasted if the components win.
  if (probe.summation == Summation::kAuto) probe.summation = Summation::kPull;
  RankResult first = power_iteration(p, probe);
  first.method = Method::kPower;
  if (first.converged || first.stalled || first.iterations >= o.max_iter) return first;

  // Continue from the probe's vector; iterations and times reported from where it stopped.
  Problem rest = p;
  rest.start.dense = std::move(first.ranks);  // first keeps only its counts and changes
  RankOptions next = power;
  next.max_iter = o.max_iter - first.iterations;
  if (o.on_iteration) {
    next.on_iteration = [&](const IterationInfo& info) {
      IterationInfo shifted = info;
      shifted.iteration += first.iterations;
      shifted.seconds += first.seconds;
      o.on_iteration(shifted);
    };
  }
  if (o.on_progress) {
    next.on_progress = [&](const SolveProgress& s) {
      SolveProgress shifted = s;
      shifted.seconds += first.seconds;
      o.on_progress(shifted);
    };
  }
  const bool by_components = predicted_iterations(first, o.tol) >= kGaussSeidelFromIterations;
  RankResult r =
      by_components ? gauss_seidel_by_component(rest, next) : power_iteration(rest, next);
  r.method = by_components ? Method::kGaussSeidel : Method::kPower;
  r.iterations += first.iterations;
  r.deltas.insert(r.deltas.begin(), first.deltas.begin(), first.deltas.end());
  r.seconds += first.seconds;
  if (r.blocked_from > 0) r.blocked_from += first.iterations;
  return r;
}

}  // namespace webrank
