#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "common.hpp"
#include "interrupts.hpp"
#include "rank_command.hpp"
#include "webrank/ingest/page_weights_file.hpp"
#include "webrank/ingest/rank_sources.hpp"
#include "webrank/json.hpp"
#include "webrank/rank/batch.hpp"
#include "webrank/rank/rank.hpp"
#include "webrank/store/rank_store.hpp"
#include "webrank/util/error.hpp"

namespace webrank::cli {
namespace {

void warn_missing(const PageList& list, const std::string& path) {
  if (list.missing.empty()) return;
  std::fprintf(stderr,
               "webrank: warning: %s: %zu of %zu lines name no page of the database (first: %s)\n",
               path.c_str(), list.missing.size(), list.missing.size() + list.pages.size(),
               list.missing.front().c_str());
}

// --batch FILE: every vector of the file in one pass, each stored under its name.
void rank_batch(const Database& db, const RankArgs& args, ProgressLine& line) {
  const std::vector<BatchEntry> entries = read_batch_file(db, args.batch);
  std::vector<PageWeights> sources;
  for (const auto& e : entries) sources.push_back(e.source);
  BatchOptions bo;
  bo.rank = args.o;
  bo.on_iteration = batch_progress(line, args.progress);
  bo.rank.stop = arm_interrupts();
  const auto start = std::chrono::steady_clock::now();
  const std::vector<RankResult> results = compute_rank_batch(db.graph(), sources, bo);
  disarm_interrupts();
  line.finish();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!args.out.empty()) std::filesystem::create_directories(args.out);
  for (std::size_t j = 0; j < entries.size(); ++j) {
    RankOptions o = args.o;
    o.source = entries[j].source;
    save_ranks(db,
               name_to_store(db, entries[j].name, entries[j].name, results[j].converged,
                             args.replace_unconverged),
               results[j], o);
    if (!args.out.empty()) {
      write_rank_tsv(db, results[j].ranks,
                     (std::filesystem::path(args.out) / (entries[j].name + ".tsv")).string(),
                     args.scale == "pages" ? static_cast<double>(db.num_pages()) : 1.0);
    }
    if (!args.quiet) {
      std::fprintf(stderr, "  %-24s %4d iterations, final L1 change %.3e\n",
                   entries[j].name.c_str(), results[j].iterations, results[j].final_delta);
    }
    report_convergence(results[j], cat("'", entries[j].name, "' "), args.o);
  }
  if (!args.quiet) {
    std::fprintf(stderr, "batch: %zu vectors in one pass, %.3f s; stored in %s\n", entries.size(),
                 seconds, args.db.c_str());
  }
}

}  // namespace

void report_convergence(const RankResult& r, const std::string& what, const RankOptions& o) {
  if (r.stalled) {
    std::fprintf(stderr,
                 "webrank: warning: %snot converged: the L1 change stalled at %.3e after %d "
                 "iterations, the rounding level of --precision %s, above --tol %g; the vector "
                 "was stored and flagged as not converged (use --precision double or a larger "
                 "--tol)\n",
                 what.c_str(), r.final_delta, r.iterations, to_string(o.precision), o.tol);
    exit_status() = kExitNotConverged;
  } else if (!r.converged) {
    std::fprintf(stderr,
                 "webrank: warning: %snot converged: the L1 change is %.3e after %d iterations, "
                 "above --tol %g; the vector was stored and flagged as not converged (raise "
                 "--max-iter or --tol)\n",
                 what.c_str(), r.final_delta, r.iterations, o.tol);
    exit_status() = kExitNotConverged;
  }
}

std::function<void(const BatchProgress&)> batch_progress(ProgressLine& line, ProgressMode mode) {
  return [&line, mode](const BatchProgress& p) {
    char text[160];
    std::snprintf(text, sizeof text,
                  "iteration %d  %d of %d vectors done  largest L1 change %.3e  %s elapsed",
                  p.iteration, p.done, p.vectors, p.largest_delta,
                  format_duration(p.seconds).c_str());
    line.update(text, json_text(nlohmann::json(p), -1), mode == ProgressMode::kJson);
  };
}

void add_batch_rank_options(CLI::App* cmd, RankOptions* o) {
  cmd->add_option("--damping", o->damping, "Damping factor d (the article's beta is 1 - d)")
      ->capture_default_str()
      ->check(number_check({.low = 0, .high = 1}));
  cmd->add_option("--tol", o->tol, "Stop when the L1 norm of the change is <= this")
      ->capture_default_str()
      ->check(number_check(positive()));
  cmd->add_option("--max-iter", o->max_iter, "Iteration cap (not converged: exit status 3)")
      ->capture_default_str()
      ->check(number_check(whole_at_least(1)));
  add_enum_option(cmd, "--precision", &o->precision,
                  {{"double", Precision::kDouble}, {"float", Precision::kFloat}},
                  "double or float rank vectors (float sums are accumulated in double)");
  cmd->add_option("--threads", o->threads, "Threads (0 = all cores)")
      ->check(number_check(whole_at_least(0)));
}

void add_rank_options(CLI::App* cmd, RankArgs& args) {
  RankOptions& o = args.o;
  add_batch_rank_options(cmd, &o);
  add_enum_option(cmd, "--dangling", &o.dangling,
                  {{"source", Dangling::kSource},
                   {"uniform", Dangling::kUniform},
                   {"leak", Dangling::kLeak},
                   {"remove", Dangling::kRemove}},
                  "Where the rank of pages without out-links goes: source (along E), uniform, "
                  "leak (dropped), remove (the paper's remove-and-add-back)");
  cmd->add_option("--dangling-weights", args.dangling_weights,
                  "File of LABEL<TAB>WEIGHT: where dangling rank goes (normalized)");
  auto* pers = cmd->add_option("--personalize", args.personalize,
                               "Rank source E uniform over these pages (repeatable)");
  auto* source = cmd->add_option("--source", args.source,
                                 "File of LABEL<TAB>WEIGHT: the rank source E (normalized)")
                     ->excludes(pers);
  auto* roots = cmd->add_flag("--root-pages", args.root_pages,
                              "Rank source E uniform over the root page of every host (the "
                              "paper's compromise between uniform and one home page)")
                    ->excludes(pers)
                    ->excludes(source);
  cmd->add_option("--bookmarks", args.bookmarks,
                  "File of URLs, one a line: E uniform over these pages (URLs not in the "
                  "database are skipped with a warning)")
      ->excludes(pers)
      ->excludes(source)
      ->excludes(roots);
  cmd->add_option("--start", args.start, "File of LABEL<TAB>VALUE: the start vector (normalized)");
  add_enum_option(cmd, "--method", &o.method,
                  {{"power", Method::kPower},
                   {"paper", Method::kPaper},
                   {"direct", Method::kDirect},
                   {"gauss-seidel", Method::kGaussSeidel},
                   {"extrapolate", Method::kExtrapolate},
                   {"auto", Method::kAuto}},
                  "power (Jacobi power iteration), paper (the paper's loop, §2.6), direct (sparse "
                  "LU, the reference for webs of at most 5,000 pages), gauss-seidel (by strongly "
                  "connected component: fastest on "
                  "crawls), extrapolate (power + quadratic extrapolation), auto (a few power "
                  "iterations, then power or gauss-seidel, whichever their rate predicts faster)");
  add_enum_option(
      cmd, "--sweep", &o.summation,
      {{"auto", Summation::kAuto}, {"pull", Summation::kPull}, {"blocked", Summation::kBlocked}},
      "How power iterations sum backlinks (same result): pull, blocked (propagation "
      "blocking, for webs larger than the caches), auto (blocked above 8 MiB of "
      "contributions, unweighted webs)");
  cmd->add_option("--block-pages", o.block_pages,
                  "Pages per block of a blocked sweep (power of two in [64, 32768]; 0 = 32768, "
                  "sized for a 1 MiB L2 cache)")
      ->capture_default_str()
      ->check(number_check(whole_at_least(0)));
  cmd->add_option("--memory-budget", args.memory_budget,
                  "Out of core: keep the rank vectors in memory and stream the links from disk, "
                  "so the process stays within SIZE of memory (4G, 512M, 1.5G; power, paper, "
                  "extrapolate, auto)")
      ->check(memory_size_check());
  cmd->add_option("--warm-start", o.warm_start,
                  "Start from the stored vector NAME (after `webrank update`, the vector of the "
                  "previous version, mapped onto the new pages) and report the iterations saved");
  cmd->add_option("--warm-start-db", args.warm_start_db,
                  "Take the --warm-start vector from this database, mapped by label (e.g. the "
                  "web before a full rebuild)");
  cmd->add_option("--name", args.name, "Name of the stored rank vector")->capture_default_str();
  cmd->add_flag("--replace-unconverged", args.replace_unconverged,
                "Let a run that did not converge replace a converged vector of the same name "
                "(by default it is stored beside it, as NAME.unconverged)");
  cmd->add_option("--out", args.out, "Also write LABEL<TAB>RANK per page, in id order");
  cmd->add_option("--scale", args.scale,
                  "Values in --out: unit (ranks sum to 1) or pages (multiplied by the number of "
                  "pages, so they average 1, as GraphX and GraphChi print them)")
      ->check(CLI::IsMember({"unit", "pages"}))
      ->capture_default_str();
  cmd->add_flag("-q,--quiet", args.quiet, "Print nothing but errors and warnings");
  cmd->add_flag("--no-verify", args.no_verify, "Skip checksum verification of the database");
  add_progress_option(cmd, &args.progress);
}

void check_rank_options(RankArgs& args) {
  RankOptions& o = args.o;
  check_rank_name(args.name);
  if (!args.memory_budget.empty()) o.memory_budget = *parse_memory_size(args.memory_budget);
  if (!args.warm_start_db.empty()) {
    if (o.warm_start.empty())
      throw CLI::ValidationError("--warm-start-db", "needs --warm-start NAME");
    o.warm_start_db = args.warm_start_db;
  }
}

void resolve_rank_pages(const Database& db, RankArgs& args) {
  RankOptions& o = args.o;
  for (const auto& label : args.personalize) {
    auto id = db.find(label);
    if (!id)
      fail(ErrorKind::kNotFound, "--personalize: page '", label, "' is not in the database ",
           db.path().string());
    o.source.emplace_back(*id, 1.0);
  }
  if (!args.source.empty()) o.source = read_page_weights(db, args.source);
  if (args.root_pages) o.source = root_pages(db);
  if (!args.bookmarks.empty()) {
    const PageList list = read_page_list(db, args.bookmarks, /*allow_missing=*/true);
    warn_missing(list, args.bookmarks);
    o.source = list.pages;
  }
  if (!args.start.empty()) o.start = read_page_weights(db, args.start);
  if (!args.dangling_weights.empty())
    o.dangling_weights = read_page_weights(db, args.dangling_weights);
}

void show_rank_progress(RankArgs& args, ProgressLine& line) {
  RankOptions& o = args.o;
  const bool json = args.progress == ProgressMode::kJson;
  o.on_iteration = [&line, json](const IterationInfo& info) {
    // From the third iteration on: the first changes say little about the rate.
    const std::string left =
        info.iteration >= 3 && std::isfinite(info.iterations_left) && info.iterations_left > 0
            ? cat(", ~", static_cast<int>(std::ceil(info.iterations_left)), " to go")
            : "";
    char text[160];
    std::snprintf(text, sizeof text, "iteration %d  L1 change %.3e  %s elapsed%s", info.iteration,
                  info.delta, format_duration(info.seconds).c_str(), left.c_str());
    line.update(text, json_text(nlohmann::json(info), -1), json);
  };
  o.on_progress = [&line](const SolveProgress& p) {
    char text[200];
    const double percent = 100.0 * static_cast<double>(p.pages_solved) / p.pages;
    if (p.factorizing) {
      std::snprintf(text, sizeof text,
                    "direct: sparse LU of I - d*M (%llu pages, %llu nonzeros), the long step  "
                    "%s elapsed",
                    static_cast<unsigned long long>(p.pages),
                    static_cast<unsigned long long>(p.nonzeros),
                    format_duration(p.seconds).c_str());
    } else if (p.searching) {
      std::snprintf(text, sizeof text,
                    "components: finding the strongly connected components of %llu pages  %s "
                    "elapsed",
                    static_cast<unsigned long long>(p.pages), format_duration(p.seconds).c_str());
    } else if (p.sweep > 0) {
      std::snprintf(text, sizeof text,
                    "components: %.0f%% of pages solved; sweep %d of a %llu-page component, "
                    "change %.3e  %s elapsed",
                    percent, p.sweep, static_cast<unsigned long long>(p.component_pages), p.change,
                    format_duration(p.seconds).c_str());
    } else {
      std::snprintf(text, sizeof text, "components: %.0f%% of pages solved  %s elapsed", percent,
                    format_duration(p.seconds).c_str());
    }
    // The search's line and the last one always show: the search may take long, and JSON
    // readers should see the end.
    line.update(text, json_text(nlohmann::json(p), -1),
                p.searching || p.factorizing || p.pages_solved == p.pages);
  };
}

void finish_rank(const Database& db, const RankArgs& args, const RankResult& r,
                 const std::string& note) {
  const RankOptions& o = args.o;
  const std::string stored =
      name_to_store(db, args.name, args.name, r.converged, args.replace_unconverged);
  save_ranks(db, stored, r, o);
  if (!args.out.empty()) {
    write_rank_tsv(db, r.ranks, args.out,
                   args.scale == "pages" ? static_cast<double>(db.num_pages()) : 1.0);
  }

  if (!args.quiet) {
    std::string how =
        o.method == Method::kDirect ? std::string("direct solve")
        : r.components != 0
            ? cat(r.iterations, " sweeps of the slowest of ", r.components,
                  " strongly connected components (the largest: ", r.largest_component,
                  " pages), final L1 change ", r.final_delta)
            : cat(r.iterations, " iterations, final L1 change ", r.final_delta);
    if (std::isfinite(r.error_bound) && o.method != Method::kDirect) {
      how += cat(" (error bound ", r.error_bound, ")");
    }
    if (r.streamed_blocks != 0)
      how += cat(", links streamed in ", r.streamed_blocks, " blocks of up to ",
                 format_bytes(static_cast<double>(r.stream_block_bytes)));
    if (r.blocked_from > 1) how += cat(", blocked sweep from iteration ", r.blocked_from);
    if (r.blocked_from == 1) how += ", blocked sweep";
    if (!r.summation_note.empty()) how += ", " + r.summation_note;
    if (!r.warm_start.empty()) {
      how += cat(", warm start from '", r.warm_start, "'");
      if (r.cold_iterations > 0)
        how += cat(": ", r.cold_iterations - r.iterations, " iterations saved against the ",
                   r.cold_iterations, " of its cold start");
    }
    how += note;
    const std::string method = o.method == Method::kAuto ? cat("auto (", to_string(r.method), ")")
                                                         : std::string(to_string(o.method));
    std::fprintf(stderr, "%s: %s, %.3f s; stored as '%s' in %s\n", method.c_str(), how.c_str(),
                 r.seconds, stored.c_str(), args.db.c_str());
  }
  report_convergence(r, "", o);
}

void add_rank_command(CLI::App& app) {
  auto args = std::make_shared<RankArgs>();
  CLI::App* cmd = app.add_subcommand("rank", "Compute PageRank and store it in the database");
  cmd->add_option("DB", args->db, "Database directory")->required();
  add_rank_options(cmd, *args);
  auto* batch =
      cmd->add_option("--batch", args->batch,
                      "File of NAME [LABEL... | @WEIGHTS_FILE] lines: compute one vector per line "
                      "in one pass (a k-wide vector per page), each stopped at its own tolerance "
                      "and stored under its NAME; --out is then a folder of NAME.tsv files");
  for (const char* other : {"--personalize", "--source", "--root-pages", "--bookmarks", "--name",
                            "--memory-budget", "--warm-start"}) {
    batch->excludes(cmd->get_option(other));
  }
  cmd->callback([args] {
    check_rank_options(*args);
    Database db = open_database(args->db, args->no_verify);
    resolve_rank_pages(db, *args);
    ProgressLine line(args->quiet ? ProgressMode::kNever : args->progress);
    show_rank_progress(*args, line);
    if (!args->batch.empty()) {
      rank_batch(db, *args, line);
      return;
    }
    RankOptions& o = args->o;
    o.stop = arm_interrupts();  // Ctrl-C stops the solve; the stored vectors are kept
    RankResult r = compute_rank(db, o);
    disarm_interrupts();
    line.finish();
    finish_rank(db, *args, r, "");
  });
}

}  // namespace webrank::cli
