// Ranking a web on several machines (docs/scale.md): a database is cut into P parts, each a
// range of consecutive page ids holding those pages' backlinks (with global page ids), their
// out-strengths, and the sorted list of the other parts' pages whose contributions it needs; an
// MPI job of P processes then runs the power iteration with one part per process, exchanging per
// iteration only the contributions each part needs (MPI_Alltoallv) and adding the dangling mass
// and the L1 change over the processes (MPI_Allreduce). The vector is the one a single machine
// computes (the same sums in the same order; only the order in which the processes' shares of
// the change are added differs).
//
// The parts directory (docs/format.md, "Parts"):
//   manifest.json           "format": "webrank-parts", the web's counts, the page ranges, the
//                           database it was cut from (path and section checksums), per part
//                           its pages, links, remote pages and its sections' checksums
//   part-NNNNN/bwd.offsets  u64 × (pages+1), from 0
//   part-NNNNN/bwd.sources  u32 × links: global ids of the sources, ascending per page
//   part-NNNNN/bwd.weights  f64 × links (weighted webs)
//   part-NNNNN/out.strength f64 × pages: out-degree, or out-weight of weighted webs
//   part-NNNNN/remote.pages u32 × R: the pages of other parts among the sources, ascending
//
// partition_database() needs no MPI; rank_parts() runs inside an MPI job (MPI_COMM_WORLD,
// initialized by the caller with at least MPI_THREAD_FUNNELED: the library calls MPI from the
// calling thread only). Only the webrank-mpi executable links MPI.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

#include "webrank/rank/rank.hpp"
#include "webrank/store/database.hpp"

namespace webrank {

struct PartitionProgress {
  int parts_written = 0;
  int parts = 0;
};

struct PartitionOptions {
  int parts = 2;                 // P >= 1, at most the number of pages
  std::filesystem::path output;  // the parts directory
  bool force = false;            // replace an existing parts directory (once the new is complete)
  int threads = 0;               // threads of this call (0 = OpenMP's default)
  std::function<void(const PartitionProgress&)> on_progress;  // after each part; may be empty
  std::stop_token stop;  // a stop request abandons it (Error kCancelled)
};

struct PartInfo {
  PageId first_page = 0;
  PageId pages = 0;
  std::uint64_t links = 0;         // backlinks of its pages
  std::uint64_t remote_pages = 0;  // pages of other parts whose contributions it needs
};

struct PartitionReport {
  std::vector<PartInfo> parts;
  PageId pages = 0;
  std::uint64_t links = 0;
  double seconds = 0;
};

// Cuts `db` into options.parts parts balanced by links (each page counting as one more link, so
// that parts of pages without backlinks are not empty) and writes them to options.output, through
// a temporary directory renamed into place when complete (a failed or killed run leaves the
// database and any existing parts directory as they were). Throws Error: kInvalidArgument for a
// bad part count, kExists for an existing output without `force` (or one that is not a parts
// directory), kIo, kCancelled.
PartitionReport partition_database(const Database& db, const PartitionOptions& options);

// What a distributed solve measured, per process (indexed by MPI rank; complete on rank 0).
struct DistributedStats {
  int processes = 0;
  std::vector<std::uint64_t> pages, links, remote_pages;
  // Bytes each process sends per iteration: the contributions other parts need (MPI_Alltoallv),
  // not counting the few doubles of the reductions.
  std::vector<std::uint64_t> bytes_sent_per_iteration;
  // Seconds each process spent in the exchange (packing, MPI_Alltoallv, waiting for slower
  // parts) and in all, over the whole solve.
  std::vector<double> exchange_seconds, solve_seconds;
};

struct DistributedRank {
  RankResult result;  // on rank 0: the whole vector; elsewhere `ranks` is empty
  DistributedStats stats;
};

// The power iteration (`power`, `paper`; `auto` runs power) over the parts in `parts_dir`, one
// part per process of MPI_COMM_WORLD; personalized, leak and uniform or custom dangling variants
// as in compute_rank. Every process calls it with the same options, except that the page weights
// (source, start, dangling_weights) are taken from rank 0's options. on_iteration is called on
// every process (front ends show it on rank 0). A stop request on any process stops every
// process at the same iteration (Error kCancelled). Throws Error on every process alike when the
// parts are damaged or do not match the job (kCorrupt, kInvalidArgument for a process count
// other than the part count or a method that does not distribute: direct, gauss-seidel,
// extrapolate, --dangling remove, a blocked sweep, out of core).
DistributedRank rank_parts(const std::filesystem::path& parts_dir, const RankOptions& options,
                           bool verify = true);

// The database the parts were cut from, as partition_database recorded it (an absolute path), and
// a check that `db` is that database, unchanged since: throws Error (kInvalidArgument) if not.
std::filesystem::path parts_database(const std::filesystem::path& parts_dir);
void check_parts_database(const std::filesystem::path& parts_dir, const Database& db);

// The MPI session of a front end: MPI_Init_thread (MPI_THREAD_FUNNELED) on construction,
// MPI_Finalize on destruction. One per process, on its main thread.
class MpiSession {
 public:
  MpiSession();
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
};

// This process's rank in MPI_COMM_WORLD and the job's size (0 and 1 when MPI is not running),
// and the number of the job's processes on this machine.
int mpi_rank();
int mpi_size();
int mpi_local_size();

// Runs f() on every process of the job; if it throws on any of them, every process throws the
// error of the lowest failing rank (so that no process waits forever in a collective call for
// one that failed). For work that may fail on some processes only (rank 0 opening a database).
void mpi_together(const std::function<void()>& f);

}  // namespace webrank
