// The JSON form of database summaries (declared in its webrank/*_json.hpp).
#include "webrank/store/store_json.hpp"

namespace webrank {

void to_json(nlohmann::json& j, const DegreeStats& s) {
  j = {{"min", s.min}, {"max", s.max}, {"mean", s.mean}, {"median", s.median}, {"zero", s.zero}};
}

void to_json(nlohmann::json& j, const CrawlStats& s) {
  j = {{"fetched_pages", s.fetched_pages},
       {"not_fetched_pages", s.not_fetched_pages},
       {"status", s.status_classes},
       {"pages_with_title", s.pages_with_title},
       {"exact_duplicates", s.exact_duplicates},
       {"nofollow_links", s.nofollow_links}};
  if (s.status_classes.empty()) j["status"] = nlohmann::json::object();
}

void to_json(nlohmann::json& j, const RankVectorSummary& s) {
  j = {{"name", s.name}};
  if (!s.error.empty()) {
    j["error"] = s.error;
    return;
  }
  j["algorithm"] = s.algorithm;
  if (!s.kind.empty()) j["kind"] = s.kind;
  j["precision"] = s.precision;
  j["method"] = s.method;
  j["tol"] = s.tol;
  j["personalized"] = s.personalized;
  j["created"] = s.created;
  j["bytes"] = s.bytes;
  if (s.solved_by) j["solved_by"] = *s.solved_by;
  j["damping"] = s.damping;
  j["dangling"] = s.dangling;
  j["iterations"] = s.iterations;
  j["converged"] = s.converged;
  j["final_delta"] = s.final_delta;
  j["stale"] = s.stale;
}

void to_json(nlohmann::json& j, const DatabaseSummary& s) {
  j = {{"database", s.path},
       {"pages", s.stats.pages},
       {"links", s.stats.links},
       {"dangling_pages", s.stats.dangling_pages},
       {"self_links", s.stats.self_links},
       {"isolated_pages", s.isolated_pages},
       {"weighted", s.stats.weighted},
       {"out_degree", s.out_degree},
       {"in_degree", s.in_degree},
       {"bytes_on_disk", s.bytes_on_disk},
       {"ranks", s.ranks}};
  if (s.ranks.empty()) j["ranks"] = nlohmann::json::array();
  if (s.crawl) j["crawl"] = *s.crawl;
}

namespace {

nlohmann::json stored_weights_json(const StoredWeights& w) {
  return {{"pages", w.pages}, {"weights", w.weights}};
}

}  // namespace

void to_json(nlohmann::json& j, const VectorRecord& r) {
  j = nlohmann::json::object();
  j["schema"] = kVectorSchema;
  j["name"] = r.name;
  j["xxh3"] = r.xxh3;
  j["generation"] = r.generation;
  j["algorithm"] = r.algorithm;
  j["kind"] = r.kind;
  j["method"] = r.method;
  if (!r.solved_by.empty()) j["solved_by"] = r.solved_by;
  j["precision"] = to_string(r.precision);
  j["pages"] = r.pages;
  if (r.damping) j["damping"] = *r.damping;
  if (r.tol) j["tol"] = *r.tol;
  if (r.max_iter) j["max_iter"] = *r.max_iter;
  if (!r.dangling.empty() || (r.algorithm == "pagerank" || r.algorithm == "spam-mass")) {
    j["dangling"] = r.dangling;
    j["personalized"] = r.personalized;
    j["source_pages"] = r.source_pages;
    j["custom_start"] = r.custom_start;
  }
  if (r.source_weights) j["source_weights"] = stored_weights_json(*r.source_weights);
  if (r.dangling_weights) j["dangling_weights"] = stored_weights_json(*r.dangling_weights);
  j["iterations"] = r.iterations;
  j["deltas"] = r.deltas;
  j["converged"] = r.converged;
  j["stalled"] = r.stalled;
  if (r.final_delta) j["final_delta"] = *r.final_delta;
  if (r.error_bound) j["error_bound"] = *r.error_bound;
  j["normalized"] = r.normalized;
  if (r.sum) j["sum"] = *r.sum;
  j["seconds"] = r.seconds;
  j["created"] = r.created;
  if (!r.sweep.empty()) j["sweep"] = r.sweep;
  if (!r.sweep_note.empty()) j["sweep_note"] = r.sweep_note;
  if (r.block_pages != 0) j["block_pages"] = r.block_pages;
  if (r.blocked_from_iteration != 0) j["blocked_from_iteration"] = r.blocked_from_iteration;
  if (r.streamed_blocks != 0) {
    j["streamed_blocks"] = r.streamed_blocks;
    j["stream_block_bytes"] = r.stream_block_bytes;
  }
  if (r.components != 0) {
    j["components"] = r.components;
    j["largest_component_pages"] = r.largest_component_pages;
  }
  if (r.batch_size != 0) j["batch_size"] = r.batch_size;
  if (r.finishing_iterations != 0) j["finishing_iterations"] = r.finishing_iterations;
  if (!r.choice.empty()) j["choice"] = r.choice;
  if (!r.phase_seconds.empty()) {
    nlohmann::json phases = nlohmann::json::object();
    for (const auto& [phase, seconds] : r.phase_seconds) phases[phase] = seconds;
    j["phase_seconds"] = phases;
  }
  if (r.warm_start) {
    const auto known = [](const std::optional<int>& x) {
      return x ? nlohmann::json(*x) : nlohmann::json();
    };
    j["warm_start"] = {{"from", r.warm_start->from},
                       {"pages_from_vector", r.warm_start->pages_from_vector},
                       {"cold_iterations", known(r.warm_start->cold_iterations)},
                       {"iterations_saved", known(r.warm_start->iterations_saved)}};
  }
  if (!r.bytes_sent_per_iteration.empty()) {
    j["processes"] = r.bytes_sent_per_iteration.size();
    j["bytes_sent_per_iteration"] = r.bytes_sent_per_iteration;
  }
  if (r.removal_rounds != 0 || r.removed_pages != 0) {
    j["removal_rounds"] = r.removal_rounds;
    j["removed_pages"] = r.removed_pages;
  }
  if (r.eps) {
    j["eps"] = *r.eps;
    j["pushes"] = r.pushes;
    j["sweeps"] = r.push_sweeps;
  }
  if (r.log2m != 0) j["log2m"] = r.log2m;
  if (!r.reachable_pairs.empty()) j["reachable_pairs"] = r.reachable_pairs;
  if (r.good_fraction) {
    j["good_fraction"] = *r.good_fraction;
    j["seed_pages"] = r.seed_pages;
  }
  if (r.stale) {
    j["stale"] = {{"reason", r.stale->reason},
                  {"pages_added", r.stale->pages_added},
                  {"pages_removed", r.stale->pages_removed},
                  {"links_added", r.stale->links_added},
                  {"links_removed", r.stale->links_removed}};
  }
}

}  // namespace webrank
