// A verifier beside the solvers, as the GAP Benchmark Suite keeps one beside each kernel: it
// recomputes a stored rank vector's residual with a pass of its own, independent of the solvers'
// kernels, and holds it to the tolerance the vector was computed to (`webrank check --ranks`).
//
// The residual is ‖T(R) − R‖₁, where T is one exact iteration of the formulation the vector was
// computed with (damping, rank source, dangling rank: read from its metadata), applied by pushing
// each page's rank along its forward links (the solvers pull along the backlinks). For a power
// iteration stopped at an L1 change δ ≤ tol the residual is at most d·δ; and whatever the
// method, the true vector R* is within residual/(1 − d) of R in L1.
#pragma once

#include <string>

#include "webrank/store/database.hpp"

namespace webrank {

struct RankCheck {
  std::string name;
  bool checkable = true;  // false: the vector is not the fixed point of an iteration (see reason)
  std::string reason;     // why it cannot be checked (--dangling remove, a source not stored)
  // Computed before an update of the web (reason says which): not this web's vector, so neither
  // checkable nor ok.
  bool stale = false;
  double damping = 0, tol = 0;
  double residual = 0;     // ‖T(R) − R‖₁
  double allowed = 0;      // tol, or the precision's rounding floor when that is larger
  double error_bound = 0;  // residual / (1 − d): a bound on ‖R − R*‖₁ (infinite when d = 1)
  double sum = 0;          // Σ R
  // A vector that should sum to 1 (normalized formulations): |Σ R − 1| must be within
  // sum_allowed, the bound the residual sets (allowed/(1 − d), as |Σ T(R) − Σ R| = (1 − d)·|1 −
  // Σ R|) plus the rounding of the sum. Caught also where the residual cannot see it: a vector
  // scaled as a whole (a fixed point for d = 1), or one whose rank source was lost to an
  // overflow (1e308 + 1e308) in the solver and the verifier alike.
  bool sum_checked = false;  // false for vectors that need not sum to 1 (leak, remove, HITS...)
  double sum_allowed = 0;
  bool sum_ok = true;
  bool ok = false;  // checkable, residual <= allowed and sum_ok
  double seconds = 0;
};

// Loads the vector `name` of `db` (checksums verified) and computes its residual on the calling
// thread. Throws Error (kNotFound, kCorrupt) when the vector cannot be loaded; a vector that is
// not the fixed point of an iteration is returned with checkable == false.
RankCheck check_rank_vector(const Database& db, const std::string& name);

}  // namespace webrank
