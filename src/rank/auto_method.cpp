// --method auto, the default: the power iteration or Gauss–Seidel by component, whichever a cost
// model predicts to be faster for this web, tolerance and thread count (docs/performance.md,
// "How auto chooses", has the model, its constants and the choices against measured times).
//
// What each method costs depends on how many passes it needs and what a pass costs:
//  - The power iteration converges at the rate of the web's second eigenvalue. Four iterations
//    (the probe) show the early rate, which predicts the run on webs without closed components
//    (generated webs converge in 9-30 iterations). A closed component (pages that link to one
//    another and to nothing outside: crawls have hundreds) keeps the rank that flows into it, and
//    with two or more the slowest mode decays only as d per iteration; its amplitude is the
//    change of the rank the closed components hold. One more step on their pages alone measures
//    it, and k + log(tol/change)/log(d) iterations follow (on the shared crawls within 10% of the
//    count that runs, where the early rate predicted less than half).
//  - Gauss–Seidel by component solves closed components apart (their mass is right from the
//    first sweep), so its sweeps follow the early rate: the probe's prediction. Each sweep reads
//    only the links inside cycles, and the components' set-up costs a few passes.
//  - Threads: the power iteration's passes split evenly over any number of threads; Gauss–Seidel
//    sweeps in place, with more sweeps the more threads read each other's stale values, and has
//    a serial part per component and level.
// The choice depends only on the web, the options and the thread count, never on a timer: the
// same command on the same web chooses the same method.
//
// The probe is not wasted: its vector is the start of whichever method continues, and its
// iterations count in the result.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>

#include "algo/strong_components.hpp"
#include "rank/auto_method.hpp"
#include "rank/convergence.hpp"
#include "rank/kernels.hpp"
#include "rank/solver.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

constexpr int kProbeIterations = 4;
// Components are searched before the choice on webs with at least this local share (web_shape():
// the crawls 0.52 and 0.98, the generated web model 0.54, R-MAT webs 0.13-0.17:
// docs/performance.md, "How auto chooses").
constexpr double kSearchFromLocalShare = 0.3;

// local_link_share() within a window of 1/16 of the ids (at most 2^16): on a web of 85,000 pages
// nearly every link is within 2^16 ids, whatever its structure.
double local_share(const GraphView& g) {
  return local_link_share(g, std::clamp<PageId>(g.num_pages / 16, 1, PageId{1} << 16));
}

std::string format(const char* pattern, double a, double b, double c, double d) {
  char text[256];
  std::snprintf(text, sizeof text, pattern, a, b, c, d);
  return text;
}

// The change that one more power iteration from `x` makes to the rank held by each closed
// component, summed over them: the amplitude of the modes that decay only as d. `x` is the
// probe's vector, in R's units; the step is taken in those of the conserving iteration the
// power method runs (x normalized: with dangling rank leaking, x = s·y and y sums to 1).
// x(u): the vector's value at page u.
template <typename Vector>
double closed_mass_change(const Problem& p, const ComponentOrder& c, const Vector& x) {
  const GraphView& g = *p.graph;
  const PageId n = g.num_pages;
  if (c.closed.empty()) return 0;
  double sum = 0, dangling = 0;
  for (PageId u = 0; u < n; ++u) {
    sum += x(u);
    if (g.out.degree(u) == 0) dangling += x(u);
  }
  if (!(sum > 0)) return 0;
  const double d = p.damping;
  // The conserving iteration sends dangling rank along E (p.dangling == p.source here).
  const double spread = d * dangling / sum;
  double change = 0;
  for (const std::uint32_t k : c.closed) {
    double before = 0, after = 0;
    for (std::uint64_t i = c.begin[k]; i < c.begin[k + 1]; ++i) {
      const PageId u = c.pages[i];
      double in = 0;
      for (std::uint64_t e = g.in.offsets[u]; e < g.in.offsets[u + 1]; ++e) {
        const PageId v = g.in.ids[e];
        const double w = g.weighted() ? g.in.weights[e] : 1.0;
        in += w * x(v) * kernels::inverse_strength<double>(kernels::out_strength(g, v));
      }
      before += x(u) / sum;
      after += (1 - d) * p.source[u] + d * in / sum + spread * p.source[u];
    }
    change += std::abs(after - before);
  }
  return change * sum;  // back in R's units
}

}  // namespace

WebShape web_shape(const GraphView& g, const ComponentOrder& c) {
  WebShape s;
  s.pages = g.num_pages;
  s.links = static_cast<double>(g.num_links);
  s.closed_components = c.closed.size();
  s.local_share = local_share(g);
  for (std::size_t k = 0; k < c.count(); ++k) {
    const std::uint64_t size = c.size(k);
    if (size < 2) continue;
    std::uint64_t backlinks = 0;
    for (std::uint64_t i = c.begin[k]; i < c.begin[k + 1]; ++i)
      backlinks += g.in.degree(c.pages[i]);
    s.cycle_pages += static_cast<double>(size);
    s.cycle_links += static_cast<double>(backlinks);
    ++s.cycles;
  }
  return s;
}

namespace {

// Predicted work of the rest of the solve, in power iterations at one thread, divided by what
// the threads bring.
struct Costs {
  const WebShape& web;
  const ChoiceSettings& o;
  // 0 on webs whose links join nearby ids, 1 where they join pages anywhere.
  double scattered() const { return std::clamp((0.5 - web.local_share) / 0.35, 0.0, 1.0); }
  double blend(double local, double far) const { return local + (far - local) * scattered(); }
  double speed(double contention) const {
    // On a web that fits in the caches a pass takes microseconds: threads gain nothing there.
    const double t = web.pages < o.model.cached_pages ? 1 : o.threads;
    return t / (1 + contention * (t - 1));
  }
  double power(double iterations) const {
    const CostModel& m = o.model;
    return std::max(0.0, iterations) /
           speed(blend(m.power_contention_local, m.power_contention_scattered));
  }
  double gauss_seidel(double sweeps) const {
    const CostModel& m = o.model;
    const double in_cycles = web.links > 0 ? web.cycle_links / web.links : 0;
    const double stale = 1 + m.gs_stale_sweeps * (o.threads - 1);
    const bool cached = web.pages < m.cached_pages;
    const double set_up =
        cached ? m.set_up_cached : blend(m.set_up_local, m.set_up_scattered + m.search_scattered);
    const double sweep = cached ? m.sweep_cached : blend(m.sweep_local, m.sweep_scattered);
    const double work =
        in_cycles * (set_up + sweeps * stale * sweep) + (1 - in_cycles) + m.allocation;
    return work / speed(blend(m.gs_contention_local, m.gs_contention_scattered));
  }
};

// The iterations the closed components' mode needs after `done` iterations, when the rank they
// hold changed by `change` in the last one: it falls by d per iteration.
double closed_iterations(double change, int done, const ChoiceSettings& o) {
  if (!(change > o.tol) || !(o.damping > 0 && o.damping < 1)) return 0;
  return done + std::log(o.tol / change) / std::log(o.damping);
}

// at_most: gauss-seidel's sweeps are the bound "no more than the power iteration's iterations"
// (chosen before any probe), not a prediction.
MethodChoice finish_choice(MethodChoice c, const WebShape& web, bool held_back,
                           const ChoiceSettings& o, bool at_most = false) {
  c.threads = o.threads;
  const bool gs = c.method == Method::kGaussSeidel;
  const std::string gauss_seidel =
      cat("gauss-seidel: ", at_most ? "at most" : "about", " %.0f sweeps of the cycles",
          at_most ? " (no more than the power iteration's iterations)" : "",
          ", the work of %.1f power iterations, against %.0f power iterations (their work %.1f)");
  c.reason = gs ? format(gauss_seidel.c_str(), c.gauss_seidel_sweeps, c.gauss_seidel_work,
                         c.power_iterations, c.power_work)
                : format(
                      "power: about %.0f iterations (their work %.1f) against %.0f sweeps of "
                      "gauss-seidel, the work of %.1f power iterations",
                      c.power_iterations, c.power_work, c.gauss_seidel_sweeps, c.gauss_seidel_work);
  c.reason += cat(" at ", o.threads, o.threads == 1 ? " thread" : " threads");
  if (held_back) {
    c.reason +=
        cat(" (", web.closed_components, " closed components hold the power iteration back)");
  }
  return c;
}

}  // namespace

std::optional<MethodChoice> choose_without_probe(const WebShape& web, double closed_change,
                                                 const ChoiceSettings& o) {
  const double iterations = std::min<double>(closed_iterations(closed_change, 1, o), o.max_iter);
  if (iterations == 0) return std::nullopt;
  const Costs cost{web, o};
  // Gauss–Seidel by component needs no more sweeps than the power iteration needs iterations
  // (its closed components are solved apart, and a sweep uses every newer value): if it wins
  // even so, no probe is needed.
  MethodChoice c;
  c.power_iterations = iterations;
  c.gauss_seidel_sweeps = iterations;
  c.power_work = cost.power(iterations);
  c.gauss_seidel_work = cost.gauss_seidel(iterations);
  if (!(c.gauss_seidel_work < c.power_work)) return std::nullopt;
  c.method = Method::kGaussSeidel;
  return finish_choice(std::move(c), web, true, o, true);
}

MethodChoice choose_method(const WebShape& web, const ProbeOutcome& probe,
                           const ChoiceSettings& o) {
  const auto& d = probe.changes;
  const int k = static_cast<int>(d.size());
  // Power iterations: the early rate's prediction, or the closed components' slow mode. A rate
  // still rising at the end of the probe is taken to rise once more (but not past d).
  double early = k;
  if (k >= 2) {
    double previous = d[k - 2], last = d[k - 1];
    if (k >= 3 && d[k - 2] > 0 && d[k - 3] > 0) {
      const double rate = last / previous, before = d[k - 2] / d[k - 3];
      if (rate > o.model.rising_rate * before) {
        previous = last / std::min(rate * rate / before, o.damping);
      }
    }
    early += iterations_left(previous, last, o.tol);
  }
  const double closed = closed_iterations(probe.closed_change, k + 1, o);
  MethodChoice c;
  c.power_iterations = std::min<double>(std::max(early, closed), o.max_iter);
  c.gauss_seidel_sweeps = std::min<double>(
      std::max(1.0, k + iterations_left(k >= 2 ? d[k - 2] : 0, k >= 1 ? d[k - 1] : 0, o.tol) - k),
      o.max_iter);
  const Costs cost{web, o};
  c.power_work = cost.power(c.power_iterations - k);
  c.gauss_seidel_work = cost.gauss_seidel(c.gauss_seidel_sweeps);
  c.method = c.gauss_seidel_work < c.power_work ? Method::kGaussSeidel : Method::kPower;
  return finish_choice(std::move(c), web, closed > early, o);
}

RankResult auto_method(const Problem& p, const RankOptions& o) {
  RankOptions power = o;
  power.method = Method::kPower;
  if (!gauss_seidel_by_component_applies(p)) {
    RankResult r = power_iteration(p, power);
    r.method = Method::kPower;
    MethodChoice c;
    c.method = Method::kPower;
    c.threads = std::max(1, std::min(omp_get_max_threads(), omp_get_num_procs()));
    c.reason = p.damping >= 1 ? "power: gauss-seidel by component needs --damping below 1"
                              : "power: gauss-seidel by component needs dangling rank sent along "
                                "the rank source or leaking";
    r.choice = std::move(c);
    return r;
  }
  const auto started = std::chrono::steady_clock::now();
  std::vector<std::pair<std::string, double>> phases;
  double lap_start = 0;
  const auto lap = [&](const char* name) {
    const double now =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    phases.emplace_back(name, now - lap_start);
    lap_start = now;
    return now;
  };
  // The components, found now on webs whose links join nearby ids (crawls, small webs): there
  // gauss-seidel usually wins and needs them, and the closed components they reveal are what
  // holds the power iteration back. Where links join pages anywhere (generated webs) the search
  // costs as much as several power iterations, the probe's rate predicts the run, and
  // gauss-seidel searches for itself only if chosen.
  StrongComponents searched;
  Problem rest = p;
  WebShape shape;
  const double share = local_share(*p.graph);
  const bool search = share >= kSearchFromLocalShare;
  if (search) {
    searched = strong_components(*p.graph);
    find_closed_components(*p.graph, searched);
    rest.components = searched.view();
    shape = web_shape(*p.graph, *rest.components);
    lap("components");
  } else {
    // Not searched: taken as one component holding every link, none closed.
    shape.pages = p.graph->num_pages;
    shape.links = static_cast<double>(p.graph->num_links);
    shape.cycle_pages = shape.pages;
    shape.cycle_links = shape.links;
    shape.cycles = 1;
    shape.local_share = share;
  }
  ChoiceSettings settings;
  settings.threads = std::max(1, std::min(omp_get_max_threads(), omp_get_num_procs()));
  settings.tol = o.tol;
  settings.damping = p.damping;
  settings.max_iter = o.max_iter;
  const auto finish = [&](RankResult r, MethodChoice choice, int probe_iterations, double offset) {
    r.method = choice.method;
    r.choice = std::move(choice);
    r.seconds += offset;
    if (r.blocked_from > 0) r.blocked_from += probe_iterations;
    phases.insert(phases.end(), r.phases.begin(), r.phases.end());
    if (r.method == Method::kPower) phases.emplace_back("power iterations", r.seconds - offset);
    r.phases = std::move(phases);
    return r;
  };

  // Closed components that hold the power iteration back long enough decide without a probe.
  const double start_change =
      search ? closed_mass_change(p, *rest.components, [&](PageId u) { return p.start[u]; }) : 0;
  if (std::optional<MethodChoice> choice = choose_without_probe(shape, start_change, settings)) {
    const double offset = lap("choice");
    RankResult r = gauss_seidel_by_component(rest, o);
    return finish(std::move(r), std::move(*choice), 0, offset);
  }

  RankOptions probe = power;
  probe.max_iter = std::min(kProbeIterations, o.max_iter);
  // --sweep auto could build a blocked layout during the probe, wasted if the components win.
  if (probe.summation == Summation::kAuto) probe.summation = Summation::kPull;
  RankResult first = power_iteration(p, probe);
  first.method = Method::kPower;
  lap("probe");
  if (first.converged || first.stalled || first.iterations >= o.max_iter) {
    MethodChoice c;
    c.method = Method::kPower;
    c.threads = settings.threads;
    c.power_iterations = first.iterations;
    c.reason = cat("power: ", first.converged ? "converged" : "stopped", " within the ",
                   first.iterations, " probe iterations");
    first.choice = std::move(c);
    first.phases = std::move(phases);
    return first;
  }
  ProbeOutcome outcome;
  outcome.changes = first.deltas;
  if (search) {
    outcome.closed_change =
        closed_mass_change(p, *rest.components, [&](PageId u) { return first.ranks[u]; });
  }
  MethodChoice choice = choose_method(shape, outcome, settings);

  // Continue from the probe's vector; iterations and times reported from where it stopped.
  rest.start.dense = std::move(first.ranks);  // first keeps only its counts and changes
  RankOptions next = power;
  next.max_iter = o.max_iter - first.iterations;
  const double offset = lap("choice");
  if (o.on_iteration) {
    next.on_iteration = [&](const IterationInfo& info) {
      IterationInfo shifted = info;
      shifted.iteration += first.iterations;
      shifted.seconds += offset;
      o.on_iteration(shifted);
    };
  }
  if (o.on_progress) {
    next.on_progress = [&](const SolveProgress& s) {
      SolveProgress shifted = s;
      shifted.seconds += offset;
      o.on_progress(shifted);
    };
  }
  RankResult r = choice.method == Method::kGaussSeidel ? gauss_seidel_by_component(rest, next)
                                                       : power_iteration(rest, next);
  r.iterations += first.iterations;
  r.deltas.insert(r.deltas.begin(), first.deltas.begin(), first.deltas.end());
  return finish(std::move(r), std::move(choice), first.iterations, offset);
}

}  // namespace webrank
