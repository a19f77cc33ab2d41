// The options and reporting of `webrank rank`, shared with `rank-mpi` (webrank-mpi), which takes
// the same options and stores and reports its vector the same way.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "progress_line.hpp"
#include "webrank/rank/rank.hpp"
#include "webrank/store/database.hpp"

namespace webrank::cli {

struct RankArgs {
  std::string db, dangling_weights, source, start, out,
      name = "pagerank", scale = "unit", memory_budget, warm_start_db, bookmarks, batch;
  std::vector<std::string> personalize;
  RankOptions o;
  bool quiet = false, no_verify = false, replace_unconverged = false, root_pages = false;
  ProgressMode progress = ProgressMode::kAuto;
};

// Adds every option of `rank` but the positional database to `cmd`, storing into `args`.
void add_rank_options(CLI::App* cmd, RankArgs& args);
// The checks CLI11 cannot make (NaN, the vector's name) and --memory-budget, parsed into args.o.
void check_rank_options(RankArgs& args);
// --personalize, --source, --root-pages, --bookmarks, --start and --dangling-weights: labels
// resolved against `db`.
void resolve_rank_pages(const Database& db, RankArgs& args);
// Sets args.o's progress callbacks to draw on `line` (which must outlive the solve).
void show_rank_progress(RankArgs& args, ProgressLine& line);
// Stores the vector in `db`, writes --out, prints the summary line (with `note` appended) unless
// quiet, and sets the exit status 3 when the run did not converge.
void finish_rank(const Database& db, const RankArgs& args, const RankResult& r,
                 const std::string& note);

}  // namespace webrank::cli
