// compute_rank_batch() (webrank/rank/batch.hpp): k vectors sharing one backlink sweep, by
// Gauss–Seidel by component (gauss_seidel_by_component.cpp, over rows) followed by finishing power
// iterations, or by power iterations alone (below).
//
// Each page holds a row of W values (W = k rounded up to a multiple of 4, or to 1 or 2; at most
// kBatchWidthMax) in two arrays, the last iterate and the next. One pull pass
// (kernels::pull_pass over a kernels::RowContribution) sums all W columns of a page's backlinks
// at once; each column's sum is added in the same order, and its new value computed by the same
// expression, as power_iteration.cpp does for one vector. So a column's iterates are those of its
// separate run up to the rounding of the dangling-rank sum (summed here by kernels::pull_pass,
// chunk by chunk, so the result does not depend on the thread count). A column stops when its own
// tracker says so; once the columns left fit a narrower row (a quarter of 16 stopped, say), they
// are copied into rows that wide.
//
// Rank sources are mostly sparse (a page, bookmarks, a topic's pages): E is kept as a uniform
// part per column plus a per-page list of (column, weight) entries (SourceRows), not as k dense
// vectors.
#include "webrank/rank/batch.hpp"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>

#include "algo/strong_components.hpp"
#include "rank/convergence.hpp"
#include "rank/kernels.hpp"
#include "rank/solver.hpp"
#include "webrank/util/error.hpp"

namespace webrank {

SourceRows::SourceRows(const std::vector<PageWeights>& sources, PageId n, std::size_t first) {
  const std::size_t k = sources.size();
  uniform.assign(k, 0.0);
  std::vector<std::vector<std::pair<PageId, double>>> entries(k);
  std::uint64_t total = 0;
  for (std::size_t j = 0; j < k; ++j) {
    Distribution e;
    try {
      e = Distribution::from_weights(sources[j], n, "source");
    } catch (const Error& err) {
      throw Error(err.kind(), cat("vector ", first + j + 1, " of the batch: ", err.what()));
    }
    if (e.is_uniform()) {
      uniform[j] = e.uniform_value;
      continue;
    }
    for (PageId u = 0; u < n; ++u) {
      if (e.dense[u] != 0) entries[j].emplace_back(u, e.dense[u]);
    }
    total += entries[j].size();
  }
  offsets.assign(std::size_t(n) + 1, 0);
  for (const auto& list : entries) {
    for (const auto& [u, w] : list) ++offsets[u + 1];
  }
  for (PageId u = 0; u < n; ++u) offsets[u + 1] += offsets[u];
  vector.resize(total);
  weight.resize(total);
  std::vector<std::uint64_t> fill(offsets.begin(), offsets.end() - 1);
  for (std::size_t j = 0; j < k; ++j) {
    for (const auto& [u, w] : entries[j]) {
      vector[fill[u]] = static_cast<std::uint32_t>(j);
      weight[fill[u]++] = w;
    }
  }
}

namespace {

// What the pass adds up over the pages: each vector's L1 change and its new mass on dangling
// pages.
template <int W>
struct Sums {
  kernels::Row<W> delta{}, mass{};
  Sums& operator+=(const Sums& o) {
    delta += o.delta;
    mass += o.mass;
    return *this;
  }
};

template <typename Real, bool Weighted>
class Batch {
 public:
  Batch(const GraphView& g, const Problem& shared, const SourceRows& rows, const BatchOptions& bo,
        std::size_t batch_size, int* done, std::chrono::steady_clock::time_point start,
        std::vector<RankResult>* from = nullptr)
      : g_(g),
        p_(shared),
        rows_(rows),
        o_(bo.rank),
        bo_(bo),
        batch_size_(batch_size),
        done_(done),
        start_(start),
        k_(rows.size()),
        from_(from),
        inv_(kernels::inverse_out_strength<Real>(g)) {
    o_.on_iteration = nullptr;
    o_.on_progress = nullptr;
    for (std::size_t j = 0; j < k_; ++j) {
      trackers_.push_back(
          std::make_unique<ConvergenceTracker>(ConvergenceTracker::for_precision<Real>(o_)));
    }
    results_.resize(k_);
  }

  std::vector<RankResult> run() {
    width_ = width_for(static_cast<int>(k_));
    const std::size_t n = g_.num_pages;
    slots_.assign(width_, -1);
    for (std::size_t j = 0; j < k_; ++j) slots_[j] = static_cast<int>(j);
    rank_ = rows(n * width_);
    next_ = rows(n * width_);
#pragma omp parallel for schedule(static) if (n >= kMinParallelPages)
    for (std::int64_t u = 0; u < static_cast<std::int64_t>(n); ++u) {
      const Real start = static_cast<Real>(p_.start[u]);
      for (int j = 0; j < width_; ++j) {
        const Real x = slots_[j] < 0 ? Real(0)
                       : from_       ? static_cast<Real>((*from_)[slots_[j]].ranks[u])
                                     : start;
        rank_[u * width_ + j] = x;
      }
    }
    dangling_mass_.assign(width_, 0.0);
    for (std::size_t v = 0; v < n; ++v) {
      if (inv_[v] != 0) continue;
      for (int j = 0; j < width_; ++j) dangling_mass_[j] += rank_[v * width_ + j];
    }
    int it = 1;
    while (it <= o_.max_iter && active() > 0) {
      switch (width_) {
        case 1:
          it = iterate<1>(it);
          break;
        case 2:
          it = iterate<2>(it);
          break;
        case 4:
          it = iterate<4>(it);
          break;
        case 8:
          it = iterate<8>(it);
          break;
        case 12:
          it = iterate<12>(it);
          break;
        default:
          static_assert(kBatchWidthMax == 16, "one case per width up to kBatchWidthMax");
          it = iterate<16>(it);
          break;
      }
      if (active() > 0 && it <= o_.max_iter) narrow();
    }
    for (int j = 0; j < width_; ++j) {
      if (slots_[j] >= 0) finish(j);  // reached max_iter
    }
    return std::move(results_);
  }

 private:
  // The row width for `active` vectors: a multiple of 4 (one AVX2 lane of doubles), or the power of
  // two at or above it below 4. Multiples of 4 rather than powers of two let the rows narrow as
  // soon as a quarter of 16 vectors have stopped.
  static int width_for(int active) {
    return active > 4 ? (active + 3) / 4 * 4
                      : static_cast<int>(std::bit_ceil(static_cast<unsigned>(active)));
  }

  int active() const {
    return static_cast<int>(
        std::count_if(slots_.begin(), slots_.end(), [](int s) { return s >= 0; }));
  }

  // An array of rows, advised for huge pages: its rows are read at random, and with 4 KiB pages
  // nearly every read of a row larger than the TLB's reach also misses the TLB.
  static AlignedArray<Real> rows(std::size_t values) {
    AlignedArray<Real> a(values);
    advise_huge_pages(a.data(), values * sizeof(Real));
    return a;
  }

  // Stores column `slot` as its vector's result and frees the slot.
  void finish(int slot) {
    const std::size_t n = g_.num_pages;
    const int j = slots_[slot];
    std::vector<double> values = from_ ? std::move((*from_)[j].ranks) : std::vector<double>(n);
    for (std::size_t u = 0; u < n; ++u) values[u] = static_cast<double>(rank_[u * width_ + slot]);
    RankResult r = trackers_[j]->finish(std::move(values), p_.damping, true);
    r.method = Method::kPower;
    r.summation = "pull";
    r.batch_size = static_cast<int>(batch_size_);
    results_[j] = std::move(r);
    slots_[slot] = -1;
    ++*done_;
  }

  // Copies the columns still iterating into rows of width_for(their count).
  void narrow() {
    const int width = width_for(active());
    if (width >= width_) return;
    std::vector<int> from;
    for (int j = 0; j < width_; ++j) {
      if (slots_[j] >= 0) from.push_back(j);
    }
    const std::size_t n = g_.num_pages;
    AlignedArray<Real> rank = rows(n * width);
#pragma omp parallel for schedule(static) if (static_cast <std::int64_t>(n) >= kMinParallelPages)
    for (std::int64_t u = 0; u < static_cast<std::int64_t>(n); ++u) {
      for (int j = 0; j < width; ++j) {
        const bool used = j < static_cast<int>(from.size());
        rank[u * width + j] = used ? rank_[u * width_ + from[j]] : Real(0);
      }
    }
    std::vector<int> slots(width, -1);
    std::vector<double> mass(width, 0.0);
    for (std::size_t j = 0; j < from.size(); ++j) {
      slots[j] = slots_[from[j]];
      mass[j] = dangling_mass_[from[j]];
    }
    rank_ = std::move(rank);
    next_ = rows(n * width);
    slots_ = std::move(slots);
    dangling_mass_ = std::move(mass);
    width_ = width;
  }

  // Iterations at width W from iteration `it` until every column has stopped, enough have that
  // narrower rows hold the rest (the caller narrows them), or max_iter. Returns the next
  // iteration's number.
  template <int W>
  int iterate(int it) {
    const std::int64_t n = g_.num_pages;
    const double d = p_.damping;
    const Dangling mode = o_.dangling;
    const bool custom = !o_.dangling_weights.empty();
    const double uniform_d = 1.0 / static_cast<double>(n);
    std::vector<int> slot_of(k_, -1);
    double e_uniform[W];
    for (int j = 0; j < W; ++j) {
      e_uniform[j] = slots_[j] >= 0 ? rows_.uniform[slots_[j]] : 0.0;
      if (slots_[j] >= 0) slot_of[slots_[j]] = j;
    }
    for (; it <= o_.max_iter; ++it) {
      double share[W];  // d · the dangling mass of the last iterate
      for (int j = 0; j < W; ++j) share[j] = d * dangling_mass_[j];
      const Real* rank = rank_.data();
      Real* next = next_.data();
      const kernels::RowContribution<W, Real, Weighted> term{g_.in.ids.data(), g_.in.weights.data(),
                                                             rank, inv_.data(), g_.num_links};
      // Each value is (1 − d)·E(u) + d·y + d·(dangling mass)·D(u), the expression of
      // power_iteration.cpp term for term. On most pages E and D are the same for every page, so
      // the first and last terms are computed once per iteration.
      kernels::Row<W> teleport, dangling;
      for (int j = 0; j < W; ++j) {
        teleport.at(j) = (1 - d) * e_uniform[j];
        dangling.at(j) = share[j] * (mode == Dangling::kUniform ? uniform_d : e_uniform[j]);
      }
      const Sums<W> total =
          kernels::pull_pass(g_.in, g_.num_pages, term, [&](PageId u, const kernels::Row<W>& y) {
            kernels::Row<W> a = teleport, c = dangling;
            if (custom || rows_.offsets[u] != rows_.offsets[u + 1]) {
              double e[W];
              for (int j = 0; j < W; ++j) e[j] = e_uniform[j];
              for (std::uint64_t i = rows_.offsets[u]; i < rows_.offsets[u + 1]; ++i) {
                const int slot = slot_of[rows_.vector[i]];
                if (slot >= 0) e[slot] = rows_.weight[i];
              }
              for (int j = 0; j < W; ++j) {
                const double to = custom                       ? p_.dangling[u]
                                  : mode == Dangling::kUniform ? uniform_d
                                                               : e[j];
                a.at(j) = (1 - d) * e[j];
                c.at(j) = share[j] * to;
              }
            }
            kernels::Row<W> value;
            for (int i = 0; i < W / kernels::Row<W>::kLane; ++i)
              value.v[i] = a.v[i] + d * y.v[i] + c.v[i];
            Real* x = next + std::size_t(u) * W;
            const kernels::Row<W> stored = value.store(x);
            const kernels::Row<W> old = kernels::Row<W>::load(rank + std::size_t(u) * W);
            // Branch-free: half of NotreDame's pages are dangling, in no order a predictor learns.
            // (0·x and 1·x are exact, so the sums are those of the branch.)
            const double on_dangling = inv_[u] == 0 ? 1.0 : 0.0;
            Sums<W> sums;
            for (int i = 0; i < W / kernels::Row<W>::kLane; ++i) {
              const auto change = stored.v[i] - old.v[i];
              sums.delta.v[i] = change < 0 ? -change : change;
              sums.mass.v[i] = stored.v[i] * on_dangling;
            }
            return sums;
          });
      std::swap(rank_, next_);
      for (int j = 0; j < W; ++j) dangling_mass_[j] = total.mass.at(j);
      const kernels::Row<W>& delta = total.delta;
      double largest = 0;
      for (int j = 0; j < W; ++j) {
        if (slots_[j] < 0) continue;
        largest = std::max(largest, delta.at(j));
        if (trackers_[slots_[j]]->record(it, delta.at(j))) finish(j);
      }
      if (bo_.on_iteration) {
        bo_.on_iteration(
            {it, static_cast<int>(batch_size_), *done_, largest,
             std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count()});
      }
      const int left = active();
      if (left == 0 || width_for(left) < W) return it + 1;
    }
    return it;
  }

  const GraphView& g_;
  const Problem& p_;
  const SourceRows& rows_;
  RankOptions o_;  // the shared options, without callbacks (the trackers call them)
  const BatchOptions& bo_;
  std::size_t batch_size_;
  int* done_;
  std::chrono::steady_clock::time_point start_;
  std::size_t k_;
  // Each vector's start, when not the shared one; its vector's memory then holds the result.
  std::vector<RankResult>* from_;
  FreshVector<Real> inv_;
  std::vector<std::unique_ptr<ConvergenceTracker>> trackers_;
  std::vector<RankResult> results_;
  int width_ = 0;
  std::vector<int> slots_;  // per column of the rows: the vector (position in the group), -1 = none
  // The last iterate and the next, W values per page: rows on cache-line boundaries, so a row of
  // 64 bytes or more is read in whole lines.
  AlignedArray<Real> rank_, next_;
  std::vector<double> dangling_mass_;  // per column, of rank_
};

}  // namespace

std::vector<RankResult> compute_rank_batch(const GraphView& graph,
                                           const std::vector<PageWeights>& sources,
                                           const BatchOptions& options) {
  const RankOptions& o = options.rank;
  validate_rank_options(graph.num_pages, graph.weighted(), o);
  if (o.memory_budget != 0)
    fail_option("memory_budget", "is not for a batch: a batch is ranked in memory");
  if (!o.warm_start.empty())
    fail_option("warm_start", "is not for a batch: its vectors start from their own sources");
  if (!o.source.empty())
    fail_option("source", "is given per vector in a batch, not in the shared options");
  if (!solver_info(o.method).batch)
    fail_option("method", "must be ", solver_names(&SolverInfo::batch), " in a batch, not ",
                to_string(o.method));
  if (o.dangling == Dangling::kLeak || o.dangling == Dangling::kRemove)
    fail_option("dangling",
                "must be source or uniform (or custom --dangling-weights) in a batch, not ",
                to_string(o.dangling));
  // Gauss–Seidel by component solves each vector's system exactly where its dangling rank follows
  // its own E; auto takes it there (on the webs measured it needs a fraction of the power
  // iteration's work, docs/personalization.md), power everywhere else.
  const bool component_batch =
      o.damping < 1 && o.dangling == Dangling::kSource && o.dangling_weights.empty();
  if (o.method == Method::kGaussSeidel && !component_batch)
    fail_option("method",
                "gauss-seidel needs, in a batch, a damping below 1 and each vector's dangling "
                "rank sent along its own E (--dangling source, no --dangling-weights): use power "
                "or auto");
  const ThreadCount threads(o.threads);
  Problem p = make_problem(&graph, graph.num_pages, o, 0,
                           graph.num_pages);  // E uniform: each vector has its own
  const bool by_component = o.method != Method::kPower && component_batch;
  StrongComponents components;
  if (by_component && graph.num_pages > 0) {
    if (o.on_progress) o.on_progress({.pages = graph.num_pages, .searching = true});
    components = strong_components(graph);  // once for every group
    p.components = components.view();
  }
  RankOptions quiet = o;  // each vector's tracker: on_iteration is the batch's
  quiet.on_iteration = nullptr;
  const auto start = std::chrono::steady_clock::now();
  std::vector<RankResult> results;
  int done = 0;
  for (std::size_t first = 0; first < sources.size(); first += kBatchWidthMax) {
    const std::vector<PageWeights> group(
        sources.begin() + first,
        sources.begin() + std::min(sources.size(), first + kBatchWidthMax));
    const SourceRows rows(group, graph.num_pages, first);
    std::vector<RankResult> part;
    if (by_component) {
      // Then power iterations until each vector's residual meets --tol, as a separate run's
      // (solve() in solvers.cpp): all of the group's vectors together, from their own.
      std::vector<RankResult> solved = gauss_seidel_by_component_batch(p, quiet, rows);
      int sweeps = 0;
      for (const RankResult& r : solved) sweeps = std::max(sweeps, r.iterations);
      BatchOptions more = options;
      more.rank.max_iter = std::max(1, o.max_iter - sweeps);
      if (options.on_iteration) {
        more.on_iteration = [&](const BatchProgress& info) {
          BatchProgress shifted = info;
          shifted.iteration += sweeps;
          options.on_iteration(shifted);
        };
      }
      // The finishing run's results take over the memory of the vectors it starts from: those
      // it does not continue (not converged) are kept aside.
      std::vector<std::vector<double>> unconverged(solved.size());
      for (std::size_t j = 0; j < solved.size(); ++j) {
        if (!solved[j].converged) unconverged[j] = solved[j].ranks;
      }
      std::vector<RankResult> finished =
          with_solver_types(o.precision, graph.weighted(), [&](auto real, auto weighted) {
            Batch<decltype(real), decltype(weighted)::value> batch(
                graph, p, rows, more, sources.size(), &done, start, &solved);
            return batch.run();
          });
      for (std::size_t j = 0; j < solved.size(); ++j) {
        if (solved[j].converged) {
          part.push_back(continued(std::move(solved[j]), std::move(finished[j])));
        } else {
          solved[j].ranks = std::move(unconverged[j]);
          part.push_back(std::move(solved[j]));
        }
      }
    } else {
      part = with_solver_types(o.precision, graph.weighted(), [&](auto real, auto weighted) {
        Batch<decltype(real), decltype(weighted)::value> batch(graph, p, rows, options,
                                                               sources.size(), &done, start);
        return batch.run();
      });
    }
    for (auto& r : part) {
      r.batch_size = static_cast<int>(sources.size());
      results.push_back(std::move(r));
    }
  }
  return results;
}

}  // namespace webrank
