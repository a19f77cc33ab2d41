// The use cases every front end offers, as one table of operations (webrank/app/operations.hpp
// lists them by name). An operation is one call: a JSON object of options, declared once
// (webrank/app/options.hpp), in; one result struct's JSON form out. The command line runs
// `webrank NAME DB ...`, the Python module `db.NAME(...)`, the server `/api/v1/NAME?...`, all
// through the same Operation::run, so that the three cannot disagree (tests/cli/test_parity.py
// holds them to it).
//
// Threads: the table is built once and read-only; run() may be called from any number of threads
// at once, each with its own Run. A Session may be shared by threads (its methods are
// thread-safe).
#pragma once

#include <any>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stop_token>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "webrank/algo/centrality.hpp"
#include "webrank/app/options.hpp"
#include "webrank/crawl/crawl.hpp"
#include "webrank/ingest/update.hpp"
#include "webrank/mpi/distributed.hpp"
#include "webrank/rank/batch.hpp"
#include "webrank/rank/rank.hpp"
#include "webrank/search/search.hpp"
#include "webrank/store/database.hpp"
#include "webrank/studies/crawl_order.hpp"
#include "webrank/writer/database_writer.hpp"

namespace webrank::app {

// Progress of long work, as the library reports it (one struct per kind of work, each with a
// JSON form); a front end shows it its way.
using Progress = std::variant<IterationInfo, SolveProgress, BatchProgress, BuildProgress,
                              CrawlProgress, IndexProgress, UpdateProgress, HarmonicProgress,
                              CrawlOrderProgress, PartitionProgress>;

// How one call runs: its threads, its stop request, where its progress goes. Not options of the
// use case (they do not change its result), but declared once too: run_options().
struct Run {
  int threads = 0;  // 0 = OpenMP's default for this call
  std::stop_token stop;
  std::function<void(const Progress&)> on_progress;  // called on the calling thread; may be empty
  // Called when the call enters work it will no longer stop for (a crawl building what it
  // fetched, a recrawl folding its changes in): a front end lets the next interrupt end the
  // process (the library's temporaries then go with it). May be empty.
  std::function<void()> unstoppable;
};

// What a call has to say beside its result: warnings for a person (a vector that did not
// converge, lines of an input that named no page), errors about a part of what it read (the
// rest is in the result), and outcomes a front end maps to its own terms (the CLI's exit
// statuses 3 and 1, Python's warnings).
struct Notices {
  std::vector<std::string> said;  // what was done, for a person (CLI: stderr, unless quiet)
  std::vector<std::string> warnings;
  std::vector<std::string> errors;  // part of what was read is damaged (CLI: exit status 1)
  bool not_converged = false;       // a vector was computed (and stored) without converging
};

// A call's result: its JSON form, its notices, and the vectors it computed by name (for front
// ends that hand vectors over, as Python's arrays; the JSON form never holds a whole vector).
struct Output {
  nlohmann::json json;
  Notices notices;
  std::vector<std::pair<std::string, std::vector<double>>> arrays;
};

// What every result struct of an operation carries beside its own fields (and outside its JSON
// form): its notices and the vectors it computed, by name.
struct ResultBase {
  Notices notices;
  std::vector<std::pair<std::string, std::vector<double>>> arrays;
};

// What an operation does to a database.
enum class Access {
  kNone,   // works without one (build, crawl, generate)
  kRead,   // reads it
  kWrite,  // stores vectors in it, or replaces it (rank, trust, update)
};

// One open database and what operations keep open on it between calls: its search index (one
// Searcher per rank vector), personalized views and the report's charts, so that a server or a
// Python session pays for them once. Thread-safe.
class Session {
 public:
  struct Options {
    bool verify = true;  // check every checksum before the first use (remembered per file set)
    // A database without a search index opens its searchers with search off (a search then says
    // so, and how to build the index) instead of failing: a server, which serves all else.
    bool search_optional = false;
    // Every call sees the files as they are now: searcher() first reopens what changed (a new
    // vector, a rebuilt index). false: only refresh() does (a server, whose watcher calls it
    // once a second, spares every search that check).
    bool reopen_on_use = true;
    // A shard list (a Xapian stub file) searched instead of DB/search.xapian when a call names
    // none (docs/search.md, "A sharded index"): a server's --shards.
    std::filesystem::path shards = {};
  };
  // Opens the database at `path`. Throws Error as Database::open does.
  explicit Session(std::filesystem::path path, Options options);
  explicit Session(std::filesystem::path path) : Session(std::move(path), Options{}) {}
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // The path as it was given (what messages name).
  const std::filesystem::path& path() const { return path_; }
  // The database as it is now. Hold the pointer for as long as the call uses it: a refresh()
  // meanwhile does not take it away.
  std::shared_ptr<const Database> database() const;
  // The searcher of the database ranked by `ranks` (`named`: asked for by name, so a missing
  // vector is an error), opened on first use and picking up a rebuilt index or a new vector.
  // `index_optional`: opened with search off when the database has no index, whatever
  // Options::search_optional says (for a call that only asks whether search is on). `shards`: a
  // shard list to search instead of the database's index ("": Options::shards). Throws Error as
  // Searcher::open does.
  Searcher& searcher(const std::string& ranks, bool named, bool index_optional = false,
                     const std::filesystem::path& shards = {}) const;
  // Reopens the database if a new version of it was put in place (update, recrawl, build
  // --force), and every searcher whose files changed (a new vector, a rebuilt index). Returns
  // true if anything changed. Throws Error as Database::open and Searcher::reopen do; what was
  // open stays in use then.
  bool refresh();

  // State operations keep between calls (personalized views, the report's data), by key; made
  // by `make` on first use. Thread-safe.
  template <typename T>
  std::shared_ptr<T> keep(const std::string& key,
                          const std::function<std::shared_ptr<T>()>& make) const {
    std::lock_guard lock(mutex_);
    auto& slot = kept_[key];
    if (!slot) slot = make();
    return std::static_pointer_cast<T>(slot);
  }

 private:
  std::filesystem::path path_;
  Options options_;
  std::pair<std::uint64_t, std::uint64_t> manifest_;  // device and inode when opened
  mutable std::mutex mutex_;
  std::shared_ptr<const Database> db_;
  mutable std::map<std::string, std::unique_ptr<Searcher>> searchers_;
  mutable std::map<std::string, std::shared_ptr<void>> kept_;
};

// What the work of a call grows with, so that a server can run each kind where it holds up least
// (docs/serve.md, "Bounds").
enum class Cost {
  kBounded,  // only what the options' declared bounds allow (a search, the database's counts)
  kWeb,      // the size of the web or of a page (a page's links, a stored copy, the charts' data)
  kSolve,    // a solve, whose work grows with its options up to their served ranges (ppr,
             // explain's what-ifs, compare's personalized views)
};

struct Operation {
  std::string name;     // "top": `webrank top`, db.top(), /api/v1/top
  std::string group;    // the task it belongs to, for `webrank --help`
  std::string summary;  // one line
  Access access = Access::kRead;
  // Offered by the server's JSON API: reads only, bounded in cost, reads no file of the server's
  // disk that a client names (docs/serve.md).
  bool served = false;
  // Front ends open the database with every checksum verified first (the CLI's --no-verify
  // skips it); false for operations that read too little of it to be worth a full check.
  bool verifies = true;
  Cost cost = Cost::kWeb;
  std::vector<OptionSpec> options = {};
  // Runs the operation on `session` (null for Access::kNone) with `options`, a JSON object of
  // option names and values (those not given take their declared defaults). Throws Error: a bad
  // option (kInvalidArgument, naming it), and whatever the use case throws.
  std::function<Output(Session*, const nlohmann::json& options, const Run& run)> run = {};
  // The same call, its result the use case's own struct (a std::shared_ptr<Result> in the any)
  // rather than its JSON form: for a front end that renders results itself (the server's pages),
  // through call_as().
  std::function<std::any(Session*, const nlohmann::json& options, const Run& run)> call = {};
};

// Operation::call's result as the struct `op` returns (ranking.hpp, inspect.hpp, ...): the
// options are parsed and checked by the declarations exactly as run() does. Throws as run() does,
// and std::bad_any_cast when Result is not the operation's.
template <typename Result>
Result call_as(const Operation& op, Session* session, const nlohmann::json& options,
               const Run& run) {
  return std::move(*std::any_cast<std::shared_ptr<Result>>(op.call(session, options, run)));
}

// Every operation, in the order of `webrank --help`.
const std::vector<Operation>& operations();
// The operation `name`; throws Error(kInvalidArgument) naming the nearest one when there is none.
const Operation& find_operation(std::string_view name);

// The run options every front end offers beside an operation's own (threads), declared once.
const std::vector<OptionSpec>& run_options();

// The groups of operations, in the order `webrank --help` shows them.
const std::vector<std::string>& operation_groups();

}  // namespace webrank::app
