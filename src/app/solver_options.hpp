// What the operations that compute vectors share (ranking.cpp, spam.cpp, studies.cpp): the
// solver's options declared once, the runs' callbacks, how convergence is reported and which
// name a new vector takes. Private to the app layer.
#pragma once

#include <string>

#include "webrank/app/operation.hpp"
#include "webrank/rank/batch.hpp"
#include "webrank/rank/rank.hpp"

namespace webrank::app {

inline constexpr const char* kDampingHelp = "Damping factor d (the article's beta is 1 - d)";
inline constexpr const char* kTolHelp = "Stop when the L1 norm of the change is <= this";
inline constexpr const char* kMaxIterHelp = "Iteration cap (not converged: exit status 3)";
inline constexpr const char* kPrecisionHelp =
    "double or float rank vectors (float sums are accumulated in double)";

// The solver options every operation that computes PageRank-like vectors declares: damping,
// tol, max_iter, precision (webrank/rank/rank.hpp has their meaning), in the RankOptions that
// `rank` returns of an Options.
template <typename Options, typename At>
void add_solver_options(OptionSet<Options>& s, At rank) {
  s.add(
       "damping", [rank](Options& o) -> double& { return rank(o).damping; }, kDampingHelp)
      .in(closed(0, 1));
  s.add(
       "tol", [rank](Options& o) -> double& { return rank(o).tol; }, kTolHelp)
      .in(positive());
  s.add(
       "max_iter", [rank](Options& o) -> int& { return rank(o).max_iter; }, kMaxIterHelp)
      .in(closed(1, 2147483647))
      .as("N", "iterations");
  s.add(
      "precision", [rank](Options& o) -> Precision& { return rank(o).precision; }, kPrecisionHelp);
}

// The name a new vector is stored under: `name`, unless the run did not converge and the stored
// vector `probe` (the vector `name` stands for) did: then NAME.unconverged, with a warning, so a
// converged vector is never replaced by an unconverged one without replace_unconverged.
std::string name_to_store(const Database& db, const std::string& name, const std::string& probe,
                          bool converged, bool replace_unconverged, Notices& notices);

// The warning every run that did not converge gives (`what` names the vector, "" for the only
// one), and the outcome front ends map (the CLI's exit status 3).
void note_convergence(const RankResult& r, const std::string& what, const RankOptions& o,
                      Notices& notices);

// `rank` with the run's threads, stop request and progress.
RankOptions with_run(RankOptions rank, const Run& run);
// A batch of solves over `rank`'s options, with the run's threads, stop request and progress.
BatchOptions batch_options(const RankOptions& rank, const Run& run);

}  // namespace webrank::app
