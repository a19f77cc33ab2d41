// Validation of RankOptions, the problem they state, and compute_rank (the solvers' table and
// dispatch: solvers.cpp).
#include <cmath>

#include "rank/propagation_blocks.hpp"
#include "rank/solver.hpp"
#include "rank/warm_start.hpp"
#include "webrank/util/error.hpp"

namespace webrank {

std::span<const Named<Dangling>> names(Dangling) {
  static constexpr Named<Dangling> kNames[] = {{Dangling::kSource, "source"},
                                               {Dangling::kUniform, "uniform"},
                                               {Dangling::kLeak, "leak"},
                                               {Dangling::kRemove, "remove"}};
  return kNames;
}

std::span<const Named<Summation>> names(Summation) {
  static constexpr Named<Summation> kNames[] = {
      {Summation::kAuto, "auto"}, {Summation::kPull, "pull"}, {Summation::kBlocked, "blocked"}};
  return kNames;
}

const char* to_string(Dangling d) {
  return name_in(names(d), d);
}
const char* to_string(Summation s) {
  return name_in(names(s), s);
}

void validate_rank_options(PageId num_pages, bool weighted, const RankOptions& o) {
  if (num_pages == 0) fail(ErrorKind::kInvalidArgument, "cannot rank an empty web (no pages)");
  if (!(o.damping >= 0 && o.damping <= 1))
    fail_option("damping", "must be in [0, 1], got ", o.damping);
  if (!(o.tol >= 0) || !std::isfinite(o.tol))
    fail_option("tol", "must be a finite number >= 0, got ", o.tol);
  if (o.max_iter < 1) fail_option("max_iter", "must be at least 1, got ", o.max_iter);
  if (o.threads < 0) fail_option("threads", "must be >= 0, got ", o.threads);
  if (o.method == Method::kPaper &&
      (o.dangling == Dangling::kUniform || o.dangling == Dangling::kLeak ||
       !o.dangling_weights.empty())) {
    fail_option("method", "paper re-injects all lost rank along the rank source E, which is ",
                option_ref("dangling"),
                " "
                "source; it cannot be combined with ",
                option_ref("dangling"), " ", to_string(o.dangling),
                o.dangling_weights.empty() ? "" : " or " + option_ref("dangling_weights"));
  }
  if (!o.dangling_weights.empty() &&
      (o.dangling == Dangling::kLeak || o.dangling == Dangling::kRemove)) {
    fail_option("dangling_weights", "cannot be combined with ", option_ref("dangling"), " ",
                to_string(o.dangling));
  }
  if (o.summation == Summation::kBlocked && weighted)
    fail_option("summation", "blocked needs an unweighted web; weighted webs are ranked with ",
                option_ref("summation"), " pull");
  if (o.summation == Summation::kBlocked && !solver_info(o.method).blocked_sweep) {
    fail_option("summation", "blocked applies to ", option_ref("method"), " ",
                solver_names(&SolverInfo::blocked_sweep), ", not ", to_string(o.method));
  }
  if (o.block_pages != 0) BlockLayout::check_block_pages(o.block_pages);
}

Problem make_problem(const GraphView* graph, PageId num_pages, const RankOptions& o, PageId first,
                     PageId count) {
  const PageId n = num_pages;
  Problem p;
  p.graph = graph;
  p.damping = o.damping;
  p.source = Distribution::from_weights(o.source, n, "source", first, count);
  p.leak = o.dangling == Dangling::kLeak;
  if (!o.dangling_weights.empty()) {
    p.dangling =
        Distribution::from_weights(o.dangling_weights, n, "dangling_weights", first, count);
    p.dangling_is_source = false;
  } else if (o.dangling == Dangling::kUniform) {
    p.dangling = Distribution::uniform(n);
    p.dangling_is_source = o.source.empty();
  } else {
    p.dangling = p.source;
  }
  p.start = Distribution::from_weights(o.start, n, "start", first, count);
  return p;
}

namespace {

// Checks the options against the graph (throws Error naming the option) and materializes the
// problem's distributions.
Problem validated_problem(const GraphView& graph, const RankOptions& o) {
  validate_rank_options(graph.num_pages, graph.weighted(), o);
  return make_problem(&graph, graph.num_pages, o, 0, graph.num_pages);
}

}  // namespace

RankResult compute_rank(const GraphView& graph, const RankOptions& o) {
  if (o.memory_budget != 0)
    fail_option("memory_budget",
                "applies to a database's links (streamed from its files), not to "
                "a graph in memory");
  if (!o.warm_start.empty())
    fail_option("warm_start",
                "starts from a vector stored in a database, not for a graph in "
                "memory");
  const Problem p = validated_problem(graph, o);
  const ThreadCount threads(o.threads);
  if (o.dangling == Dangling::kRemove) return rank_removing_dangling(p, o);
  return solve(p, o);
}

namespace {

// compute_rank(Database) once the warm start is set up: in memory, or out of core.
RankResult compute_rank_streamed(const Database& db, const RankOptions& o) {
  if (o.memory_budget == 0) return compute_rank(db.graph(), o);
  if (!solver_info(o.method).out_of_core || o.dangling == Dangling::kRemove ||
      o.summation == Summation::kBlocked) {
    fail_option("memory_budget", "streams the links for ", option_ref("method"), " ",
                solver_names(&SolverInfo::out_of_core), "; ",
                o.dangling == Dangling::kRemove ? cat(option_ref("dangling"), " remove")
                : o.summation == Summation::kBlocked
                    ? cat(option_ref("summation"), " blocked")
                    : cat(option_ref("method"), " ", to_string(o.method)),
                " needs the whole web in memory");
  }
  RankOptions streamed = o;
  streamed.memory_budget = 0;  // validated_problem checks the rest as for a graph in memory
  const Problem p = validated_problem(db.graph(), streamed);
  const ThreadCount threads(o.threads);
  RankResult r = rank_out_of_core(p, o);
  r.method = o.method == Method::kAuto ? Method::kPower : o.method;
  return r;
}

}  // namespace

RankResult compute_rank(const Database& db, const RankOptions& options) {
  RankOptions o = options;
  const WarmStart warm = prepare_warm_start(db, o);
  o.warm_start.clear();
  RankResult r = compute_rank_streamed(db, o);
  record_warm_start(warm, r);
  return r;
}

}  // namespace webrank
