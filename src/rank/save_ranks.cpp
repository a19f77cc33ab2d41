// The records of vectors the rank layer computes (webrank/store/vector_record.hpp): PageRank
// (every solver, batches, topics), forward push.
#include <cmath>
#include <ctime>

#include "webrank/rank/push.hpp"
#include "webrank/rank/rank.hpp"
#include "webrank/store/rank_store.hpp"

namespace webrank {

VectorRecord rank_record(const RankOptions& o, const RankResult& r) {
  VectorRecord v;
  v.algorithm = "pagerank";
  v.method = to_string(o.method);
  if (o.method == Method::kAuto) v.solved_by = to_string(r.method);
  v.precision = r.precision;
  v.damping = o.damping;
  v.tol = o.tol;
  v.max_iter = o.max_iter;
  v.dangling = o.dangling_weights.empty() ? to_string(o.dangling) : "custom";
  v.personalized = !o.source.empty();
  v.source_pages = o.source.size();
  v.custom_start = !o.start.empty();
  if (!o.source.empty()) v.source_weights = stored_weights(o.source);
  if (!o.dangling_weights.empty()) v.dangling_weights = stored_weights(o.dangling_weights);
  static_cast<Convergence&>(v) = r;
  v.normalized = r.normalized;
  double sum = 0;
  for (double x : r.ranks) sum += x;
  v.sum = sum;
  v.created = static_cast<std::int64_t>(std::time(nullptr));
  v.sweep = r.summation;
  v.sweep_note = r.summation_note;
  v.block_pages = r.block_pages;
  v.blocked_from_iteration = r.blocked_from;
  v.streamed_blocks = r.streamed_blocks;
  v.stream_block_bytes = r.stream_block_bytes;
  v.components = r.components;
  v.largest_component_pages = r.largest_component;
  v.batch_size = r.batch_size;
  v.phase_seconds = r.phases;
  if (r.choice) v.choice = r.choice->reason;
  if (!r.warm_start.empty()) {
    WarmStartNote note{r.warm_start, r.warm_start_pages, std::nullopt, std::nullopt};
    if (r.cold_iterations != 0) {
      note.cold_iterations = r.cold_iterations;
      note.iterations_saved = r.cold_iterations - r.iterations;
    }
    v.warm_start = std::move(note);
  }
  v.bytes_sent_per_iteration = r.bytes_sent_per_iteration;
  if (o.dangling == Dangling::kRemove) {
    v.removal_rounds = r.removal_rounds;
    v.removed_pages = r.removed_pages;
  }
  return v;
}

void save_push_ranks(const Database& db, const std::string& name, const PushResult& r,
                     const PageWeights& source, const PushOptions& o) {
  std::vector<double> values(db.num_pages(), 0.0);
  double sum = 0;
  for (const auto& [page, p] : r.estimate) {
    values.at(page) = p;
    sum += p;
  }
  VectorRecord v;
  v.algorithm = "pagerank";
  v.method = "push";
  v.damping = o.damping;
  v.eps = o.eps;
  // The verifier holds the residual (1 − d)·Σr to this, and reports Σr as the error bound.
  v.tol = r.residual_sum;
  v.error_bound = r.residual_sum;
  v.final_delta = r.residual_sum;
  v.converged = true;
  v.pushes = r.pushes;
  v.push_sweeps = static_cast<std::uint64_t>(r.sweeps);
  v.dangling = "source";
  v.personalized = true;
  v.source_pages = source.size();
  v.source_weights = stored_weights(source);
  v.normalized = false;
  v.sum = sum;
  v.seconds = r.seconds;
  v.created = static_cast<std::int64_t>(std::time(nullptr));
  write_rank_vector(db, name, values, Precision::kDouble, std::move(v));
}

void save_ranks(const Database& db, const std::string& name, const RankResult& r,
                const RankOptions& o) {
  write_rank_vector(db, name, r.ranks, r.precision, rank_record(o, r));
}

}  // namespace webrank
