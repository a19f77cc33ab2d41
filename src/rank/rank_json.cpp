// The JSON form of ranking progress and results (declared in its webrank/*_json.hpp).
#include "webrank/rank/rank_json.hpp"

#include <cmath>

namespace webrank {
namespace {

// A double as a JSON number, or null when it is not finite (JSON has no NaN or infinity).
nlohmann::json number(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json();
}

}  // namespace

void to_json(nlohmann::json& j, const IterationInfo& i) {
  j = {{"iteration", i.iteration}, {"delta", i.delta}, {"seconds", i.seconds}};
  if (std::isfinite(i.iterations_left)) j["iterations_left"] = std::ceil(i.iterations_left);
}

void to_json(nlohmann::json& j, const SolveProgress& p) {
  j = {{"stage", p.searching     ? "search"
                 : p.factorizing ? "factor"
                                 : "solve"},
       {"pages_solved", p.pages_solved},
       {"pages", p.pages},
       {"component_pages", p.component_pages},
       {"sweep", p.sweep},
       {"change", p.change},
       {"seconds", p.seconds}};
  if (p.factorizing) j["nonzeros"] = p.nonzeros;
}

void to_json(nlohmann::json& j, const MethodChoice& c) {
  j = {{"method", to_string(c.method)},
       {"threads", c.threads},
       {"power_iterations", number(c.power_iterations)},
       {"gauss_seidel_sweeps", number(c.gauss_seidel_sweeps)},
       {"power_work", number(c.power_work)},
       {"gauss_seidel_work", number(c.gauss_seidel_work)},
       {"reason", c.reason}};
}

void to_json(nlohmann::json& j, const RankResult& r) {
  j = nlohmann::json::object();
  j["precision"] = to_string(r.precision);
  j["method"] = to_string(r.method);
  if (!r.summation.empty()) j["sweep"] = r.summation;
  if (r.block_pages != 0) j["block_pages"] = r.block_pages;
  if (r.blocked_from != 0) j["blocked_from_iteration"] = r.blocked_from;
  if (!r.summation_note.empty()) j["sweep_note"] = r.summation_note;
  if (r.streamed_blocks != 0) {
    j["streamed_blocks"] = r.streamed_blocks;
    j["stream_block_bytes"] = r.stream_block_bytes;
  }
  if (!r.warm_start.empty()) {
    const auto known = [&](int x) {
      return r.cold_iterations ? nlohmann::json(x) : nlohmann::json();
    };
    j["warm_start"] = {{"from", r.warm_start},
                       {"pages_from_vector", r.warm_start_pages},
                       {"cold_iterations", known(r.cold_iterations)},
                       {"iterations_saved", known(r.cold_iterations - r.iterations)}};
  }
  if (!r.bytes_sent_per_iteration.empty()) {
    j["processes"] = r.bytes_sent_per_iteration.size();
    j["bytes_sent_per_iteration"] = r.bytes_sent_per_iteration;
  }
  if (r.components != 0) {
    j["components"] = r.components;
    j["largest_component_pages"] = r.largest_component;
  }
  if (!r.phases.empty()) {
    nlohmann::json phases = nlohmann::json::object();
    for (const auto& [name, seconds] : r.phases) phases[name] = seconds;
    j["phase_seconds"] = phases;
  }
  if (r.choice) j["choice"] = *r.choice;
  if (r.batch_size != 0) j["batch_size"] = r.batch_size;
  if (r.finishing_iterations != 0) {
    j["finishing_iterations"] = r.finishing_iterations;
    j["measured_residual"] = number(r.measured_residual);
  }
  j["iterations"] = r.iterations;
  j["converged"] = r.converged;
  j["stalled"] = r.stalled;
  j["final_delta"] = r.final_delta;
  j["error_bound"] =
      std::isfinite(r.error_bound) ? nlohmann::json(r.error_bound) : nlohmann::json(nullptr);
  j["deltas"] = r.deltas;
  j["normalized"] = r.normalized;
  if (r.removal_rounds != 0 || r.removed_pages != 0) {
    j["removal_rounds"] = r.removal_rounds;
    j["removed_pages"] = r.removed_pages;
  }
  double sum = 0;
  for (double x : r.ranks) sum += x;
  j["sum"] = sum;
  j["seconds"] = r.seconds;
}

void to_json(nlohmann::json& j, const BatchProgress& p) {
  j = {{"iteration", p.iteration},
       {"vectors", p.vectors},
       {"done", p.done},
       {"largest_delta", p.largest_delta},
       {"seconds", p.seconds}};
}

void to_json(nlohmann::json& j, const RankedPage& p) {
  j = {{"rank", p.rank}, {"percentile", p.percentile}, {"bar", p.bar}, {"toolbar", p.toolbar}};
  set_text(j, "label", p.label);
  if (p.title) set_text(j, "title", *p.title);
}

void to_json(nlohmann::json& j, const PageVectorPlace& p) {
  if (!p.error.empty()) {
    j = {{"name", p.name}, {"error", p.error}};
    return;
  }
  j = {{"name", p.name},
       {"rank", p.rank},
       {"percentile", p.percentile},
       {"position", p.position},
       {"bar", p.bar},
       {"toolbar", p.toolbar},
       {"converged", p.converged},
       {"stale", !p.stale.empty()}};
}

void to_json(nlohmann::json& j, const PageReport& r) {
  j = {{"id", r.page},
       {"pages", r.pages},
       {"out_links", r.out_links},
       {"in_links", r.in_links},
       {"nofollow_links", r.nofollow_links},
       {"self_link", r.self_link},
       {"ranks", r.ranks}};
  set_text(j, "label", r.label);
  if (r.title) set_text(j, "title", *r.title);
  if (r.final_url) set_text(j, "final_url", *r.final_url);
  if (r.status) j["status"] = *r.status;
}

void to_json(nlohmann::json& j, const RankComparison& c) {
  j = {{"pages", c.pages},
       {"l1", c.l1},
       {"max_difference", c.max_difference},
       {"kendall_tau", number(c.kendall_tau)},
       {"spearman", number(c.spearman)},
       {"top", nlohmann::json::array()}};
  for (const TopOverlap& t : c.top)
    j["top"].push_back({{"k", t.k}, {"shared", t.shared}, {"fraction", t.fraction}});
}

void to_json(nlohmann::json& j, const PprTop& t) {
  nlohmann::json top = nlohmann::json::array();
  for (const PprEntry& e : t.top)
    top.push_back({{"page", e.page}, {"lower", e.lower}, {"upper", e.upper}});
  j = {{"top", top},
       {"certified", t.certified},
       {"outside_upper", t.outside_upper},
       {"error_bound", t.push.residual_sum},
       {"pushes", t.push.pushes},
       {"links_visited", t.push.links_visited},
       {"pages_touched", t.push.pages_touched},
       {"sweeps", t.push.sweeps},
       {"seconds", t.push.seconds}};
}

void to_json(nlohmann::json& j, const ViewComparison& c) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : c.rows) {
    nlohmann::json row = {{"label", r.label}, {"ranks", r.ranks}, {"percentiles", r.percentiles}};
    if (r.title) row["title"] = *r.title;
    rows.push_back(std::move(row));
  }
  j = {{"views", c.views}, {"rows", rows}};
}

void to_json(nlohmann::json& j, const RankCheck& c) {
  j = {{"name", c.name}, {"checkable", c.checkable}};
  if (!c.checkable) {
    j["reason"] = c.reason;
    j["stale"] = c.stale;
    return;
  }
  j["damping"] = c.damping;
  j["tol"] = c.tol;
  j["residual"] = c.residual;
  j["allowed"] = c.allowed;
  j["error_bound"] = number(c.error_bound);
  j["sum"] = c.sum;
  j["sum_checked"] = c.sum_checked;
  if (c.sum_checked) {
    j["sum_allowed"] = c.sum_allowed;
    j["sum_ok"] = c.sum_ok;
  }
  j["ok"] = c.ok;
  j["seconds"] = c.seconds;
}

}  // namespace webrank
