// The table of solvers: one row per --method, and the dispatch that runs a row. A new solver is
// its file in src/rank/ (a function over the Problem of rank/solver.hpp) and one row here; its
// name, help, the choices of --method in every front end and the checks of what it supports
// (out of core, blocked sweeps, batches, MPI) all follow from the row.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rank/solver.hpp"
#include "webrank/util/error.hpp"

namespace webrank {

// Solvers whose files have no header are declared here, beside their rows (the others are in
// rank/solver.hpp).

namespace {

// --method gauss-seidel: by component where that is exact, over the whole web otherwise.
RankResult gauss_seidel(const Problem& p, const RankOptions& o) {
  return gauss_seidel_by_component_applies(p) ? gauss_seidel_by_component(p, o)
                                              : gauss_seidel_whole_web(p, o);
}

struct Row {
  SolverInfo info;  // its `method` is set from the row's index
  SolveFunction solve;
};

// A row's index is its Method value: the methods webrank/rank/rank.hpp names come first, in the
// enum's order (checked below); a row added at the end needs no name there.
constexpr Row kRows[] = {
    {{.name = "power",
      .help = "power (Jacobi power iteration)",
      .out_of_core = true,
      .blocked_sweep = true,
      .batch = true,
      .mpi = true,
      .stop_bounds_residual = true},
     power_iteration},
    {{.name = "paper",
      .help = "paper (the paper's loop, §2.6)",
      .out_of_core = true,
      .blocked_sweep = true,
      .mpi = true,
      .stop_bounds_residual = true},
     power_iteration},
    {{.name = "direct",
      .help = "direct (sparse LU, the reference for webs of at most 5,000 pages)"},
     direct_solve},
    {{.name = "gauss-seidel",
      .help = "gauss-seidel (by strongly connected component: fastest on crawls)",
      .batch = true},
     gauss_seidel},
    {{.name = "extrapolate",
      .help = "extrapolate (power + quadratic extrapolation)",
      .out_of_core = true,
      .blocked_sweep = true,
      .stop_bounds_residual = true},
     power_iteration},
    {{.name = "auto",
      .help = "auto (the default: power or gauss-seidel, whichever a cost model predicts faster "
              "for this web, tolerance and thread count; the summary and the record say which "
              "and why)",
      .out_of_core = true,
      .blocked_sweep = true,
      .batch = true,
      .mpi = true},
     auto_method},
};

constexpr bool named_rows_in_enum_order() {
  constexpr std::pair<Method, std::string_view> kNamed[] = {{Method::kPower, "power"},
                                                            {Method::kPaper, "paper"},
                                                            {Method::kDirect, "direct"},
                                                            {Method::kGaussSeidel, "gauss-seidel"},
                                                            {Method::kExtrapolate, "extrapolate"},
                                                            {Method::kAuto, "auto"}};
  for (const auto& [method, name] : kNamed) {
    if (kRows[static_cast<std::size_t>(method)].info.name != name) return false;
  }
  return true;
}

const Row& row(Method m) {
  const auto i = static_cast<std::size_t>(m);
  if (i >= std::size(kRows)) fail_option("method", "no solver has the value ", i);
  return kRows[i];
}

// The vector `r` (converged by its method's own rule) continued with power iterations until
// their change, the residual of the vector they start from, is <= tol: the first one measures
// r's residual, so a vector that already meets --tol costs one iteration more and is replaced by
// its image T(r), whose residual is at most d times r's.
RankResult finish_to_tolerance(const Problem& p, const RankOptions& o, RankResult r) {
  Problem from = p;
  from.start.dense = r.ranks;
  RankOptions more = o;
  more.method = Method::kPower;
  more.summation = Summation::kPull;
  more.max_iter = std::max(1, o.max_iter - r.iterations);
  const int before = r.iterations;
  if (o.on_iteration) {
    more.on_iteration = [&](const IterationInfo& info) {
      IterationInfo shifted = info;
      shifted.iteration += before;
      shifted.seconds += r.seconds;
      o.on_iteration(shifted);
    };
  }
  return continued(std::move(r), power_iteration(from, more));
}

}  // namespace

RankResult continued(RankResult r, RankResult finished) {
  r.iterations += finished.iterations;
  r.finishing_iterations = finished.iterations;
  r.measured_residual = finished.deltas.empty() ? NAN : finished.deltas.front();
  r.deltas.insert(r.deltas.end(), finished.deltas.begin(), finished.deltas.end());
  r.final_delta = finished.final_delta;
  r.error_bound = finished.error_bound;
  r.converged = finished.converged;
  r.stalled = finished.stalled;
  r.phases.emplace_back("finishing iterations", finished.seconds);
  r.seconds += finished.seconds;
  r.ranks = std::move(finished.ranks);
  return r;
}

static_assert(named_rows_in_enum_order(), "kRows must list the named Methods first, in order");

std::span<const SolverInfo> solvers() {
  static const std::vector<SolverInfo> infos = [] {
    std::vector<SolverInfo> v;
    for (const Row& r : kRows) {
      v.push_back(r.info);
      v.back().method = static_cast<Method>(v.size() - 1);
    }
    return v;
  }();
  return infos;
}

const SolverInfo& solver_info(Method m) {
  return solvers()[&row(m) - kRows];
}

std::span<const Named<Method>> names(Method) {
  static const std::vector<Named<Method>> table = [] {
    std::vector<Named<Method>> v;
    for (const SolverInfo& s : solvers()) v.push_back({s.method, s.name});
    return v;
  }();
  return table;
}

const char* to_string(Method m) {
  return name_in(names(m), m);
}

std::string solver_names(bool SolverInfo::*supports) {
  std::vector<std::string_view> chosen;
  for (const SolverInfo& s : solvers()) {
    if (s.*supports) chosen.push_back(s.name);
  }
  std::string text;
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    if (i > 0) text += i + 1 == chosen.size() ? " and " : ", ";
    text += chosen[i];
  }
  return text;
}

RankResult solve(const Problem& p, const RankOptions& o) {
  RankResult r = row(o.method).solve(p, o);
  if (o.method != Method::kAuto) r.method = o.method;  // auto records the method it ran
  if (r.converged && !solver_info(r.method).stop_bounds_residual) {
    r = finish_to_tolerance(p, o, std::move(r));
  }
  return r;
}

}  // namespace webrank
