// What the operations that compute vectors share (solver_options.hpp).
#include "app/solver_options.hpp"

#include <algorithm>

#include "webrank/store/rank_store.hpp"
#include "webrank/store/summary.hpp"
#include "webrank/util/units.hpp"

namespace webrank::app {

// The name a new vector is stored under: `name`, unless the run did not converge and the stored
// vector `probe` (the vector `name` stands for) did: then NAME.unconverged, with a warning, so a
// converged vector is never replaced by an unconverged one without replace_unconverged.
std::string name_to_store(const Database& db, const std::string& name, const std::string& probe,
                          bool converged, bool replace_unconverged, Notices& notices) {
  if (converged || replace_unconverged) return name;
  const auto names = db.rank_names();
  if (std::find(names.begin(), names.end(), probe) == names.end() ||
      !summarize_ranks(db, probe).record.converged) {
    return name;
  }
  const std::string stored = name + ".unconverged";
  check_rank_name(stored);
  notices.warnings.push_back(cat("not converged: stored as '", stored, "'; '", name,
                                 "' keeps its converged vector (pass ",
                                 option_ref("replace_unconverged"), " to replace it)"));
  return stored;
}

// The warning every run that did not converge gives (`what` names the vector, "" for the only
// one), and the outcome front ends map (the CLI's exit status 3).
void note_convergence(const RankResult& r, const std::string& what, const RankOptions& o,
                      Notices& notices) {
  if (r.converged) return;
  notices.not_converged = true;
  if (r.stalled) {
    notices.warnings.push_back(
        cat(what, "not converged: the L1 change stalled at ", scientific(r.final_delta), " after ",
            r.iterations, " iterations, the rounding level of ", option_ref("precision"), " ",
            to_string(o.precision), ", above ", option_ref("tol"), " ", o.tol,
            "; the vector was stored and flagged as not converged (",
            o.precision == Precision::kDouble
                ? cat("use a larger ", option_ref("tol"))
                : cat("use ", option_ref("precision"), " double or a larger ", option_ref("tol")),
            ")"));
  } else {
    notices.warnings.push_back(cat(what, "not converged: the L1 change is ",
                                   scientific(r.final_delta), " after ", r.iterations,
                                   " iterations, above ", option_ref("tol"), " ", o.tol,
                                   "; the vector was stored and flagged as not converged (raise ",
                                   option_ref("max_iter"), " or ", option_ref("tol"), ")"));
  }
}

RankOptions with_run(RankOptions o, const Run& run) {
  o.threads = run.threads;
  o.stop = run.stop;
  if (run.on_progress) {
    o.on_iteration = [&run](const IterationInfo& i) { run.on_progress(i); };
    o.on_progress = [&run](const SolveProgress& p) { run.on_progress(p); };
  }
  return o;
}

BatchOptions batch_options(const RankOptions& rank, const Run& run) {
  BatchOptions bo;
  bo.rank = rank;
  bo.rank.threads = run.threads;
  bo.rank.stop = run.stop;
  if (run.on_progress) {
    bo.on_iteration = [&run](const BatchProgress& p) { run.on_progress(p); };
    bo.rank.on_progress = [&run](const SolveProgress& p) { run.on_progress(p); };
  }
  return bo;
}

}  // namespace webrank::app
