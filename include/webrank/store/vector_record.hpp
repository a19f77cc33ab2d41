// The record of a stored vector (ranks/NAME.json beside the values in ranks/NAME.ranks): what
// the values are, how they were computed and what came of it. Every producer (rank, batch,
// topics, trust, hits, centrality, usage, hosts, ppr, update) fills one VectorRecord and every
// reader (verify, info, warm starts, spam, serve, Python, report, explain) reads one back through
// load_ranks (webrank/store/rank_store.hpp): one struct, one JSON form, one schema version.
//
// The JSON form is a flat object of the fields below under the same names (docs/format.md,
// "Rank vectors"), with "schema": kVectorSchema. Reading is strict: an unknown field, a missing
// field or one of the wrong type is an Error(kCorrupt) naming the vector and the field. Vectors
// written before the schema had a number (webrank 0.1 until the one-system change: no "schema")
// are read with the defaults docs/format.md lists for them, in one place (read_vector_record).
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "webrank/util/graph.hpp"
#include "webrank/util/named.hpp"

namespace webrank {

// The values of a stored vector, and the arithmetic a solver keeps them in: 8-byte doubles, or
// 4-byte floats (sums still accumulated in double).
enum class Precision { kDouble, kFloat };

// "double", "float" (webrank/util/named.hpp).
std::span<const Named<Precision>> names(Precision);
const char* to_string(Precision);

inline constexpr int kVectorSchema = 3;

// Page weights as stored: page ids and their weights, parallel (not normalized).
struct StoredWeights {
  std::vector<PageId> pages;
  std::vector<double> weights;
};

// Set by `webrank update` on the vectors it carries into a new version of the web.
struct StaleNote {
  std::string reason;
  std::uint64_t pages_added = 0, pages_removed = 0, links_added = 0, links_removed = 0;
};

// A solve that started from a stored vector (--warm-start).
struct WarmStartNote {
  std::string from;
  PageId pages_from_vector = 0;
  // The iterations of the cold start that vector records, and those saved (unknown when the
  // vector was computed with other options or was never cold).
  std::optional<int> cold_iterations, iterations_saved;
};

// How an iterative computation went: what a solver's result (RankResult, HitsResult) and the
// record of the vector it stored share, field for field (a record takes a result's part whole).
struct Convergence {
  int iterations = 0;          // including finishing_iterations
  std::vector<double> deltas;  // the L1 change of each iteration
  bool converged = false;
  // Stopped early because the change stopped falling at the rounding level of the precision
  // (a float run asked for a tolerance below what float resolves). Implies !converged.
  bool stalled = false;
  double final_delta = NAN;  // the last change (NaN: not an iteration's vector)
  // LAW's bound on the distance to the true vector, d/(1−d)·‖Δ‖₁ (infinite for d = 1, NaN when
  // not defined; a record keeps only a finite one).
  double error_bound = NAN;
  // Power iterations run after the method's own stopping rule to meet --tol's guarantee (the
  // residual ‖T(R) − R‖₁ <= tol; webrank/rank/rank.hpp).
  int finishing_iterations = 0;
  double seconds = 0;  // of the computation
};

struct VectorRecord : Convergence {
  // --- Identity, set by the store when the vector is written.
  int schema = kVectorSchema;
  std::string name;
  std::string xxh3;  // checksum of the values' section, hex
  // The version of the database the values were computed on (Database::generation()); readers
  // refuse a vector of another version. "" in vectors of schemas 1 and 2 (written before
  // versions were recorded): taken as the database's.
  std::string generation;

  // --- What the values are.
  // "pagerank" (PageRank and its personalized, topic, trust and usage variants), "hits",
  // "harmonic", "spam-mass".
  std::string algorithm = "pagerank";
  // hits: "authority" or "hub"; harmonic: "exact" or "hyperloglog"; spam-mass: "relative" or
  // "absolute"; empty otherwise.
  std::string kind;
  // The method asked for (power, paper, direct, gauss-seidel, extrapolate, auto; push; hits;
  // hyperball; derived), and for auto the one that ran.
  std::string method;
  std::string solved_by;
  Precision precision = Precision::kDouble;
  PageId pages = 0;

  // --- The formulation (PageRank-like vectors; absent for hits and harmonic).
  std::optional<double> damping;
  std::optional<double> tol;
  std::optional<int> max_iter;
  // "source", "uniform", "leak", "remove" or "custom" (dangling weights given); empty for
  // vectors that are no PageRank.
  std::string dangling;
  bool personalized = false;
  std::uint64_t source_pages = 0;  // pages of the rank source E (0: uniform)
  bool custom_start = false;
  // E and the dangling weights themselves, kept up to kStoredWeightsMax pages so that the
  // verifier can recompute the residual (docs/format.md).
  std::optional<StoredWeights> source_weights, dangling_weights;

  // --- What came of it (the Convergence part above, and:)
  bool normalized = true;     // false when the values need not sum to 1
  std::optional<double> sum;  // of the values
  std::int64_t created = 0;   // Unix time

  // --- How the solver went (each absent or zero unless that solver reports it).
  std::string sweep, sweep_note;  // power iterations' summation: "pull" or "blocked"
  std::uint32_t block_pages = 0;
  int blocked_from_iteration = 0;
  std::uint64_t streamed_blocks = 0, stream_block_bytes = 0;  // out of core
  std::uint64_t components = 0, largest_component_pages = 0;  // gauss-seidel by component
  // --method auto: why it chose solved_by (one sentence, with the predicted costs).
  std::string choice;
  // Where the seconds went, by phase (solvers that time their phases: auto, gauss-seidel).
  std::vector<std::pair<std::string, double>> phase_seconds;
  int batch_size = 0;  // vectors solved together
  std::optional<WarmStartNote> warm_start;
  std::vector<std::uint64_t> bytes_sent_per_iteration;  // rank-mpi, by process
  int removal_rounds = 0;                               // --dangling remove
  PageId removed_pages = 0;
  std::optional<double> eps;  // ppr (forward push)
  std::uint64_t pushes = 0, push_sweeps = 0;
  int log2m = 0;                        // harmonic with HyperLogLog counters
  std::vector<double> reachable_pairs;  // harmonic: the neighbourhood function
  std::optional<double> good_fraction;  // spam-mass
  std::uint64_t seed_pages = 0;         // spam-mass: TrustRank's seeds

  std::optional<StaleNote> stale;

  bool is_pagerank() const { return algorithm == "pagerank"; }
};

// Rank sources and dangling weights up to this many pages are kept in the record.
inline constexpr std::size_t kStoredWeightsMax = 100'000;

// Page weights as a record keeps them (nullopt past kStoredWeightsMax pages).
std::optional<StoredWeights> stored_weights(const PageWeights& weights);

// The record in `text` (the JSON of ranks/NAME.json); `where` names it in errors (the file).
// Throws Error(kCorrupt) for invalid JSON, an unknown or missing field, or a field of the wrong
// type, naming `where` and the field.
VectorRecord read_vector_record(std::string_view text, const std::string& where);

// The JSON text of `record`, as stored (2-space indent, keys sorted, newline-terminated).
std::string vector_record_text(const VectorRecord& record);

}  // namespace webrank
