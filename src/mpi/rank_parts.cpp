// The distributed power iteration (webrank/mpi/distributed.hpp): one part per MPI process, the loop
// of rank/power_iteration.hpp over the part's pages, with a sweep that first fetches the
// contributions of the remote pages the part's backlinks come from.
//
// Per iteration each process sends to each other process the contributions of its own pages
// that the other's part needs, in the order of the other's sorted remote-page list, in one
// MPI_Alltoallv; the dangling mass, the sum and the L1 change are added by MPI_Allreduce (the
// loop's sum_all). A part's backlinks carry global page ids; they are renumbered once, at the
// start, into indices of [own pages | remote pages], so the sweep is kernels::pull_pass over one
// contiguous vector, as in memory.
//
// Failures agree: setup errors (a damaged part, a wrong process count) are collected with
// MPI_Allreduce and every process throws the error of the lowest failing rank, so no process is
// left waiting in a collective; a stop request is added over the processes before each sweep, so
// every process stops at the same iteration.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "mpi/parts.hpp"
#include "rank/kernels.hpp"
#include "rank/power_iteration.hpp"
#include "rank/solver.hpp"
#include "util/mapped_file.hpp"
#include "util/parallel.hpp"
#include "webrank/mpi/distributed.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

template <typename Real>
MPI_Datatype mpi_type() {
  return sizeof(Real) == 4 ? MPI_FLOAT : MPI_DOUBLE;
}

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

// Every process learns whether any process failed; all then throw the lowest failing rank's
// error (its kind, option and message, broadcast from it).
void agree(std::exception_ptr failure) {
  const int me = world_rank();
  int failed = failure ? me : INT_MAX;
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (failed == INT_MAX) return;
  int kind = static_cast<int>(ErrorKind::kInternal);
  std::string field, detail;
  if (me == failed) {
    try {
      std::rethrow_exception(failure);
    } catch (const Error& e) {
      kind = static_cast<int>(e.kind());
      field = e.field();
      detail = e.detail();
    } catch (const std::bad_alloc&) {
      detail = "out of memory";
    } catch (const std::exception& e) {
      detail = e.what();
    }
    if (me != 0) detail = cat("process ", me, ": ", detail);
  }
  MPI_Bcast(&kind, 1, MPI_INT, failed, MPI_COMM_WORLD);
  for (std::string* s : {&field, &detail}) {
    int size = static_cast<int>(s->size());
    MPI_Bcast(&size, 1, MPI_INT, failed, MPI_COMM_WORLD);
    s->resize(size);
    MPI_Bcast(s->data(), size, MPI_CHAR, failed, MPI_COMM_WORLD);
  }
  throw Error(static_cast<ErrorKind>(kind), detail, field);
}

// Runs f() on every process; if it throws on any, every process throws (agree()).
template <typename F>
void together(F&& f) {
  std::exception_ptr failure;
  try {
    f();
  } catch (...) {
    failure = std::current_exception();
  }
  agree(failure);
}

// Rank 0's page weights, on every process.
void broadcast_weights(PageWeights& w) {
  std::uint64_t size = w.size();
  MPI_Bcast(&size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  std::vector<PageId> pages(size);
  std::vector<double> weights(size);
  if (world_rank() == 0) {
    for (std::uint64_t i = 0; i < size; ++i) {
      pages[i] = w[i].first;
      weights[i] = w[i].second;
    }
  }
  for (std::uint64_t at = 0; at < size; at += INT_MAX / 8) {
    const int k = static_cast<int>(std::min<std::uint64_t>(INT_MAX / 8, size - at));
    MPI_Bcast(pages.data() + at, k, MPI_UINT32_T, 0, MPI_COMM_WORLD);
    MPI_Bcast(weights.data() + at, k, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  }
  w.resize(size);
  for (std::uint64_t i = 0; i < size; ++i) w[i] = {pages[i], weights[i]};
}

int as_count(std::uint64_t n, const char* what) {
  if (n > static_cast<std::uint64_t>(INT_MAX))
    fail(ErrorKind::kInvalidArgument, "a part exchanges ", n, " ", what,
         " with the others, more than one MPI exchange carries (2^31 - 1): cut the web into "
         "more parts");
  return static_cast<int>(n);
}

// Which contributions go where each iteration.
class Exchange {
 public:
  Exchange(const parts::Part& part, const std::vector<PageId>& boundaries) {
    const int p = static_cast<int>(boundaries.size()) - 1;
    recv_counts_.resize(p);
    for (int q = 0; q < p; ++q) {
      const auto lo = std::lower_bound(part.remote.begin(), part.remote.end(), boundaries[q]);
      const auto hi = std::lower_bound(lo, part.remote.end(), boundaries[q + 1]);
      recv_counts_[q] = as_count(hi - lo, "remote pages");
    }
    send_counts_.resize(p);
    MPI_Alltoall(recv_counts_.data(), 1, MPI_INT, send_counts_.data(), 1, MPI_INT, MPI_COMM_WORLD);
    recv_displs_ = displacements(recv_counts_);
    send_displs_ = displacements(send_counts_);
    send_pages_.resize(static_cast<std::size_t>(send_displs_.back()) + send_counts_.back());
    MPI_Alltoallv(part.remote.data(), recv_counts_.data(), recv_displs_.data(), MPI_UINT32_T,
                  send_pages_.data(), send_counts_.data(), send_displs_.data(), MPI_UINT32_T,
                  MPI_COMM_WORLD);
    for (PageId& u : send_pages_) {
      if (u < part.first_page || u - part.first_page >= part.pages)
        fail(ErrorKind::kCorrupt, "another part asks for page ", u,
             ", which is not in this part: the parts are damaged or from different partitions");
      u -= part.first_page;
    }
  }

  // Sends the contributions of this part's pages (`local`) that others need; receives those of
  // the part's remote pages into `remote`, in the order of its remote-page list.
  template <typename Real>
  void run(const Real* local, Real* remote) {
    const auto start = Clock::now();
    buffer_.resize(send_pages_.size() * sizeof(Real));
    Real* out = reinterpret_cast<Real*>(buffer_.data());
    const std::int64_t k = static_cast<std::int64_t>(send_pages_.size());
#pragma omp parallel for schedule(static) if (k >= kMinParallelPages)
    for (std::int64_t i = 0; i < k; ++i) out[i] = local[send_pages_[i]];
    MPI_Alltoallv(out, send_counts_.data(), send_displs_.data(), mpi_type<Real>(), remote,
                  recv_counts_.data(), recv_displs_.data(), mpi_type<Real>(), MPI_COMM_WORLD);
    seconds_ += seconds_since(start);
  }

  std::uint64_t values_sent() const {
    return send_pages_.size();
  }
  double seconds() const {
    return seconds_;
  }

 private:
  static std::vector<int> displacements(const std::vector<int>& counts) {
    std::vector<int> d(counts.size(), 0);
    std::uint64_t at = 0;
    for (std::size_t q = 0; q < counts.size(); ++q) {
      d[q] = as_count(at, "contributions");
      at += counts[q];
    }
    as_count(at, "contributions");
    return d;
  }

  std::vector<int> send_counts_, send_displs_, recv_counts_, recv_displs_;
  std::vector<PageId> send_pages_;  // local indices of the pages others need, by destination
  std::vector<char> buffer_;
  double seconds_ = 0;
};

// The sweep of iterate_power: exchange, then the backlink sums over [own | remote] values.
template <typename Real, bool Weighted>
class ExchangedSums {
 public:
  ExchangedSums(const Adjacency& in, PageId pages, std::uint64_t remote, Exchange& exchange,
                const std::stop_token& stop)
      : in_(in), pages_(pages), values_(pages + remote), exchange_(exchange), stop_(stop) {}

  template <typename Emit>
  double operator()(const Real* contrib, Emit&& emit) {
    int stop = stop_.stop_requested() ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &stop, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (stop) fail(ErrorKind::kCancelled, "ranking stopped by request");
    std::copy(contrib, contrib + pages_, values_.begin());
    exchange_.run(contrib, values_.data() + pages_);
    const kernels::Contribution<Real, Weighted> term{in_.ids.data(), in_.weights.data(),
                                                     values_.data()};
    return kernels::pull_pass(in_, pages_, term, emit);
  }
  void after_iteration(int, double, double) {}
  void describe(RankResult& r) const { r.summation = "pull"; }

 private:
  const Adjacency& in_;
  PageId pages_;
  FreshVector<Real> values_;
  Exchange& exchange_;
  const std::stop_token& stop_;
};

void check_distributable(const RankOptions& o) {
  if (!solver_info(o.method).mpi)
    fail_option("method", to_string(o.method), " does not run on several machines: rank-mpi runs ",
                solver_names(&SolverInfo::mpi), " (auto runs power)");
  if (o.dangling == Dangling::kRemove)
    fail_option("dangling", "remove ranks a core web found on one machine: not with rank-mpi");
  if (o.summation == Summation::kBlocked)
    fail_option("summation", "blocked is for one machine: rank-mpi pulls");
  if (o.memory_budget != 0)
    fail_option("memory_budget", "is for one machine: rank-mpi holds each part in memory");
  if (!o.warm_start.empty())
    fail_option("warm_start", "is for one machine: give rank-mpi a --start file instead");
}

// Sends every process's ranks to rank 0, in order, in pieces an MPI count can hold.
std::vector<double> gather_ranks(const std::vector<double>& local,
                                 const std::vector<PageId>& boundaries) {
  constexpr std::uint64_t kPiece = std::uint64_t{1} << 27;
  const int me = world_rank(), p = static_cast<int>(boundaries.size()) - 1;
  std::vector<double> all;
  if (me == 0) {
    all.resize(boundaries.back());
    std::copy(local.begin(), local.end(), all.begin());
    for (int q = 1; q < p; ++q) {
      for (std::uint64_t at = boundaries[q]; at < boundaries[q + 1]; at += kPiece) {
        const int k = static_cast<int>(std::min<std::uint64_t>(kPiece, boundaries[q + 1] - at));
        MPI_Recv(all.data() + at, k, MPI_DOUBLE, q, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
    }
  } else {
    for (std::uint64_t at = 0; at < local.size(); at += kPiece) {
      const int k = static_cast<int>(std::min<std::uint64_t>(kPiece, local.size() - at));
      MPI_Send(local.data() + at, k, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
    }
  }
  return all;
}

DistributedStats gather_stats(const parts::Part& part, std::uint64_t bytes, double exchange,
                              double solve) {
  const double mine[6] = {static_cast<double>(part.pages),
                          static_cast<double>(part.sources.size()),
                          static_cast<double>(part.remote.size()),
                          static_cast<double>(bytes),
                          exchange,
                          solve};
  DistributedStats s;
  MPI_Comm_size(MPI_COMM_WORLD, &s.processes);
  std::vector<double> all(6 * s.processes);
  MPI_Gather(mine, 6, MPI_DOUBLE, all.data(), 6, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (world_rank() != 0) return s;
  for (int q = 0; q < s.processes; ++q) {
    const double* x = &all[6 * q];
    s.pages.push_back(static_cast<std::uint64_t>(x[0]));
    s.links.push_back(static_cast<std::uint64_t>(x[1]));
    s.remote_pages.push_back(static_cast<std::uint64_t>(x[2]));
    s.bytes_sent_per_iteration.push_back(static_cast<std::uint64_t>(x[3]));
    s.exchange_seconds.push_back(x[4]);
    s.solve_seconds.push_back(x[5]);
  }
  return s;
}

}  // namespace

MpiSession::MpiSession() {
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
}

MpiSession::~MpiSession() {
  MPI_Finalize();
}

void mpi_together(const std::function<void()>& f) {
  together(f);
}

int mpi_local_size() {
  MPI_Comm local;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local);
  int size = 1;
  MPI_Comm_size(local, &size);
  MPI_Comm_free(&local);
  return size;
}

int mpi_rank() {
  int init = 0;
  MPI_Initialized(&init);
  return init ? world_rank() : 0;
}

int mpi_size() {
  int init = 0, size = 1;
  MPI_Initialized(&init);
  if (init) MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

DistributedRank rank_parts(const std::filesystem::path& parts_dir, const RankOptions& options,
                           bool verify) {
  const auto started = Clock::now();
  const ThreadCount threads(options.threads);
  RankOptions o = options;
  // Stops are decided together, in the sweep; the loop itself must never stop on its own.
  o.stop = {};
  for (PageWeights* w : {&o.source, &o.start, &o.dangling_weights}) broadcast_weights(*w);

  parts::Manifest m;
  parts::Part part;
  std::vector<PageId> ids;  // the part's backlink sources, renumbered
  together([&] {
    m = parts::read_manifest(parts_dir);
    if (m.parts != mpi_size())
      fail(ErrorKind::kInvalidArgument, parts_dir.string(), " holds ", m.parts,
           " parts; run it with as many processes (mpirun -np ", m.parts, "), not ", mpi_size());
    check_distributable(o);
    validate_rank_options(m.pages, m.weighted, o);
    part = parts::Part::open(parts_dir, m, world_rank(), verify);
    ids.resize(part.sources.size());
    const std::int64_t k = static_cast<std::int64_t>(ids.size());
    std::int64_t bad = -1;
#pragma omp parallel for schedule(static) reduction(max : bad) if (k >= kMinParallelLinks)
    for (std::int64_t e = 0; e < k; ++e) {
      const PageId s = part.sources[e];
      if (s >= part.first_page && s - part.first_page < part.pages) {
        ids[e] = s - part.first_page;
        continue;
      }
      const auto at = std::lower_bound(part.remote.begin(), part.remote.end(), s);
      if (at == part.remote.end() || *at != s) bad = std::max(bad, e);
      ids[e] = part.pages + static_cast<PageId>(at - part.remote.begin());
    }
    if (bad >= 0)
      fail(ErrorKind::kCorrupt,
           (parts_dir / parts::file_name(world_rank(), parts::kSources)).string(), ": link ", bad,
           " comes from page ", part.sources[bad],
           ", which is neither in the part nor in its remote pages (damaged)");
  });
  // The part's sources as stored are not read again: out of the resident memory (the renumbered
  // copy is what the sweeps read).
  release_pages(part.sources.data(), part.sources.size_bytes());
  std::unique_ptr<Exchange> exchange;
  together([&] { exchange = std::make_unique<Exchange>(part, m.boundaries); });

  const Adjacency in{part.offsets, ids, part.weights};
  Problem p;
  together([&] { p = make_problem(nullptr, m.pages, o, part.first_page, part.pages); });
  std::uint64_t bytes = 0;
  RankResult r = with_solver_types(o.precision, m.weighted, [&](auto real, auto weighted) {
    using Real = decltype(real);
    FreshVector<Real> inv(part.pages);
    for (PageId u = 0; u < part.pages; ++u)
      inv[u] = kernels::inverse_strength<Real>(part.strength[u]);
    ExchangedSums<Real, decltype(weighted)::value> sweep(in, part.pages, part.remote.size(),
                                                         *exchange, options.stop);
    bytes = exchange->values_sent() * sizeof(Real);
    return iterate_power<Real>(
        p, o, inv, sweep,
        [](double* values, int count) {
          MPI_Allreduce(MPI_IN_PLACE, values, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        },
        started);
  });
  r.method = o.method == Method::kAuto ? Method::kPower : o.method;
  DistributedRank out;
  out.stats = gather_stats(part, bytes, exchange->seconds(), seconds_since(started));
  r.bytes_sent_per_iteration = out.stats.bytes_sent_per_iteration;
  r.ranks = gather_ranks(r.ranks, m.boundaries);
  r.seconds = seconds_since(started);
  out.result = std::move(r);
  return out;
}

}  // namespace webrank
