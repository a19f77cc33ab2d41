// PageRank solvers over a GraphView (formulas and conventions: docs/ranking.md).
//
//   R(u) = (1 − d)·E(u) + d·( Σ_{v→u} R(v)·w(v,u)/W(v) + Σ_{v dangling} R(v)·D(u) )
//
// E is the rank source (uniform unless `source` is given), D is where dangling rank goes (see
// Dangling), w(v,u)/W(v) is 1/L(v) for an unweighted web and the link's share of v's out-weight
// for a weighted one. Iteration stops when the L1 norm of the change between two iterates is
// <= tol (the paper's criterion). A run that hits max_iter still returns its last vector with
// converged == false. Ranks sum to 1 except with Dangling::kLeak (less) and kRemove
// (docs/ranking.md: pages added back after ranking the core are not renormalized).
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stop_token>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "webrank/store/database.hpp"
#include "webrank/store/vector_record.hpp"
#include "webrank/util/graph.hpp"
#include "webrank/util/named.hpp"

namespace webrank {

enum class Dangling {
  kSource,   // dangling rank follows E (default; NetworkX, igraph, graph-tool)
  kUniform,  // spread over all pages
  kLeak,     // dropped: ranks sum to less than 1 (GAP, Ligra)
  kRemove,   // paper §2.7: rank the core without dangling pages, then add them back
};

// The solvers, by their row in the table of solvers (src/rank/solvers.cpp): the value of a
// solver is its row's index, and solvers() lists them with their names, help and what each
// supports. The ones the library itself refers to have a name here; a solver added to the table
// needs none (front ends reach it by its name).
enum class Method : std::uint8_t {
  kPower,   // Jacobi power iteration of the standard formulation
  kPaper,   // the paper's loop (§2.6): R' = d·A·R, then re-inject ‖R‖ − ‖R'‖ along E
  kDirect,  // sparse LU solve of (I − d·M)·x = E; the reference for small webs
  kGaussSeidel,  // in-place sweeps using the newest backlink ranks: fewer iterations
  kExtrapolate,  // power iteration with periodic quadratic extrapolation (Kamvar et al. 2003)
  // The default: a few power iterations, then whichever of kPower and kGaussSeidel a cost model
  // predicts to be faster at the thread count of the solve (RankResult::method says which ran,
  // RankResult::choice why).
  kAuto,
};

// A row of the table of solvers: what --method NAME means and where it can run.
struct SolverInfo {
  Method method{};
  std::string_view name;  // --method NAME, method="NAME", the record's "method"
  std::string_view help;  // its part of --method's help
  // What it supports besides ranking a web in memory (each false unless its row says so):
  bool out_of_core = false;    // memory_budget: the power loop of out_of_core.cpp runs it
  bool blocked_sweep = false;  // Summation::kBlocked
  bool batch = false;          // many vectors in one pass (compute_rank_batch)
  bool mpi = false;            // several machines (rank_parts)
  // Its own stopping rule bounds what --tol promises (the residual ‖T(R) − R‖₁, above): power
  // iterations stop on that residual. Others are followed by power iterations until it holds.
  bool stop_bounds_residual = false;
};

// Every solver, in the order --method lists them.
std::span<const SolverInfo> solvers();
// The row of `method` (throws Error(kInvalidArgument) for a value of no row).
const SolverInfo& solver_info(Method method);
// The names of the solvers for which `supports` holds, as a list in words: "power, paper and
// auto" (what messages refusing the others say).
std::string solver_names(bool SolverInfo::*supports);

// How power iterations (power, paper, extrapolate) sum the backlink contributions: a pass that
// pulls each page's backlinks, or propagation blocking. Both give the same vector, bit for bit;
// they differ in speed. (The CLI's --sweep; not to be confused with a Gauss–Seidel sweep.)
enum class Summation {
  kAuto,     // pull; blocked once many iterations remain on a web larger than the caches, if faster
  kPull,     // each page reads its backlinks' contributions (random reads of one vector)
  kBlocked,  // propagation blocking: sequential streams, sums per cache-sized block of pages
};

struct IterationInfo {
  int iteration = 0;   // 1-based
  double delta = 0;    // L1 norm of the change
  double seconds = 0;  // since the solve started
  // Iterations still needed at the current rate of convergence (geometric decay of the change);
  // infinity when unknown (the first iteration) or when the change is not falling.
  double iterations_left = INFINITY;
};

// Progress of a solver that does not sweep the whole web per iteration (gauss-seidel, which solves
// one strongly connected component after another): its per-sweep changes reach on_iteration only
// once it is done, so it reports this while it runs.
struct SolveProgress {
  std::uint64_t pages_solved = 0;     // pages whose final value is set
  std::uint64_t pages = 0;            // of the web
  std::uint64_t component_pages = 0;  // size of the component being swept (1: single pages)
  int sweep = 0;                      // of that component, 0 for single pages
  double change = 0;                  // L1 change of its last sweep (unnormalized)
  double seconds = 0;                 // since the solve started
  // Before any page is solved: the strongly connected components are being found (seconds on
  // webs of a billion links, during which nothing else is reported).
  bool searching = false;
  // --method direct: the sparse LU factorization of I − d·M (`nonzeros` entries) is being
  // computed, its one long step (seconds at the size cap), during which nothing else is reported.
  bool factorizing = false;
  std::uint64_t nonzeros = 0;
};

struct RankOptions {
  double damping = 0.85;
  double tol = 1e-10;
  int max_iter = 1000;
  Dangling dangling = Dangling::kSource;
  PageWeights source;            // E; empty = uniform
  PageWeights dangling_weights;  // D when non-empty (overrides kSource/kUniform)
  PageWeights start;             // R0; empty = uniform
  Method method = Method::kAuto;
  Precision precision = Precision::kDouble;
  // Threads of this call (0 = OpenMP's default: OMP_NUM_THREADS, else every core). Other calls,
  // on other threads, keep their own.
  int threads = 0;
  Summation summation = Summation::kAuto;
  std::uint32_t block_pages = 0;  // pages per block of blocked summation; 0 = chosen for the cache
  // Out of core (compute_rank over a Database only): when not 0, the rank vectors stay in memory
  // and the links are streamed from the database's files in blocks, each released once summed,
  // so that the process's resident memory stays within this many bytes (docs/ranking.md).
  std::uint64_t memory_budget = 0;
  // Warm start (compute_rank over a Database only): start from the stored vector of this name,
  // of the database ranked or, if warm_start_db is set, of that database, mapped by label (pages
  // it does not have start at 1/N), instead of `start`; the result records the iterations saved.
  std::string warm_start;
  std::filesystem::path warm_start_db;
  // Called on the calling thread between iterations (may be empty).
  std::function<void(const IterationInfo&)> on_iteration;
  std::function<void(const SolveProgress&)> on_progress;
  // A stop request makes compute_rank throw Error(kCancelled) at its next iteration (a direct
  // solve, and gauss-seidel's component search, run to their end first).
  std::stop_token stop;
};

// How --method auto chose between the power iteration and gauss-seidel (RankResult::choice):
// what the web's components and, when they do not settle it, four probe iterations predict for
// each, and the cost model of docs/performance.md ("How auto chooses") at the thread count the
// solve runs with.
struct MethodChoice {
  Method method = Method::kPower;  // the one chosen
  int threads = 1;                 // the model's thread count (the solve's)
  // Predicted to --tol: power iterations (the probe's included) and gauss-seidel's sweeps of its
  // cycles after the probe (0 where gauss-seidel was not a candidate).
  double power_iterations = 0, gauss_seidel_sweeps = 0;
  // What each would still cost, in units of one power iteration on one thread, divided by what
  // the threads bring to each; the smaller wins.
  double power_work = 0, gauss_seidel_work = 0;
  std::string reason;  // one sentence, as the summary line prints it
};

// The vector and how it went: the Convergence part (iterations, changes, flags, LAW's bound,
// finishing iterations, seconds; webrank/store/vector_record.hpp) is what its record keeps.
struct RankResult : Convergence {
  std::vector<double> ranks;  // by page id (float results widened)
  Precision precision = Precision::kDouble;
  Method method = Method::kPower;  // the method that produced the vector
  std::string summation;           // "pull" or "blocked" (at the end) for power iterations
  std::uint32_t block_pages = 0;   // of blocked summation
  int blocked_from = 0;            // first blocked iteration (Summation::kAuto switches), 0 = none
  std::string summation_note;      // why auto went back to pull, if it did
  // gauss-seidel by component: strongly connected components, and the pages of the largest
  // (0 when the web was swept whole).
  std::uint64_t components = 0, largest_component = 0;
  // Where `seconds` went, phase by phase in the order they ran (e.g. gauss-seidel by component:
  // "components" for the search, "single pages", "set-up", "sweeps", "small components"); empty
  // for solvers that do not say. Phases of parallel work are timed on the calling thread.
  std::vector<std::pair<std::string, double>> phases;
  std::optional<MethodChoice> choice;  // --method auto: what it chose and why
  int batch_size = 0;                  // vectors computed together (compute_rank_batch); 0 = alone
  // Out of core: the blocks the links were streamed in per iteration, and the largest block's
  // bytes (0 when ranked in memory).
  std::uint64_t streamed_blocks = 0, stream_block_bytes = 0;
  // Warm start: the vector it started from, how many pages took their value from it, and the
  // iterations the cold start that vector records took for the same problem (0 = unknown:
  // computed with other options, or never cold).
  std::string warm_start;
  PageId warm_start_pages = 0;
  int cold_iterations = 0;
  // rank-mpi: the bytes each process sent per iteration, by MPI rank (empty on one machine).
  std::vector<std::uint64_t> bytes_sent_per_iteration;
  bool normalized = true;  // false for kLeak and kRemove
  int removal_rounds = 0;  // kRemove: rounds of dangling-page removal (k)
  // The residual ‖T(R) − R‖₁ of the method's own vector, measured by the first finishing
  // iteration (NaN when none ran).
  double measured_residual = NAN;
  PageId removed_pages = 0;
};

// Validates the options against the graph (throws Error with a clear message) and solves.
RankResult compute_rank(const GraphView& graph, const RankOptions& options);

// compute_rank over the links of `db`; with options.memory_budget set, out of core: the links
// are read from the database's files in blocks and released after each (power, paper and
// extrapolate; auto runs power), so the process's peak resident memory stays within the budget.
// The vector is the one ranking in memory gives, bit for bit (the same sums in the same order).
// Throws Error (kInvalidArgument) when the rank vectors alone do not fit the budget, or for a
// method that needs the whole web in memory (direct, gauss-seidel, --dangling remove, blocked).
RankResult compute_rank(const Database& db, const RankOptions& options);

// The record of a vector computed with `options` (webrank/store/vector_record.hpp): the options,
// the result's convergence and how the solver went.
VectorRecord rank_record(const RankOptions& options, const RankResult& result);

// Stores `result` in `db` as the rank vector `name`, with rank_record(options, result)
// (webrank/store/rank_store.hpp reads it back). Replaces a vector of that name
// atomically. Throws Error: kInvalidArgument for a bad name or a result of another size, kIo if the
// files cannot be written (the old vector is then kept).
void save_ranks(const Database& db, const std::string& name, const RankResult& result,
                const RankOptions& options);

// The names of each enum's values, one table each (webrank/util/named.hpp), and to_string.
std::span<const Named<Dangling>> names(Dangling);
std::span<const Named<Method>> names(Method);
std::span<const Named<Summation>> names(Summation);
const char* to_string(Dangling);
const char* to_string(Method);
const char* to_string(Summation);

}  // namespace webrank
