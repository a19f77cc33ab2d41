// `webrank crawl SEED... -o DB [options]`: crawls from the seeds (http, https or file URLs) and
// builds the link database of what it fetched, with page data. The crawl is journaled in
// DB.crawl/ (WARC), so Ctrl-C (or SIGTERM) stops fetching and builds what was fetched, and a
// crawl that was interrupted or killed continues with --resume. `webrank crawl --recrawl DB`
// fetches a crawled database's pages again with conditional requests and folds the changes in
// (webrank/crawl/crawl.hpp has both contracts; README.md documents the options).
#include <cstdio>

#include "common.hpp"
#include "interrupts.hpp"
#include "webrank/crawl/crawl.hpp"
#include "webrank/json.hpp"
#include "webrank/util/error.hpp"

namespace webrank::cli {

namespace {

struct CrawlArgs {
  std::vector<std::string> seeds;
  std::string output, recrawl;
  CrawlOptions o;
  bool ignore_robots = false, quiet = false, no_index = false, json = false, no_verify = false;
  ProgressMode progress = ProgressMode::kAuto;
};

void crawl_progress(ProgressLine& line, const CrawlProgress& p) {
  const double rate = p.seconds > 0 ? static_cast<double>(p.pages) / p.seconds : 0;
  line.update(cat("crawl: ", p.pages, " pages, ", p.queued, " queued, ", p.in_flight,
                  " in flight, ", p.errors, " errors, ", format_bytes(static_cast<double>(p.bytes)),
                  ", ", static_cast<int>(rate * 10) / 10.0, " pages/s"),
              json_text(nlohmann::json(p), -1));
}

// `crawl --recrawl DB`.
void recrawl(const CrawlArgs& args) {
  if (!args.seeds.empty())
    throw CLI::ValidationError("SEED", "--recrawl takes none: the database's pages are fetched");
  if (!args.output.empty())
    throw CLI::ValidationError("--output", "--recrawl updates its database in place");
  if (args.o.resume || args.o.force)
    throw CLI::ValidationError("--recrawl", "cannot be combined with --resume or --force");
  RecrawlOptions ro;
  ro.database = args.recrawl;
  ro.crawl = args.o;
  ro.crawl.robots = !args.ignore_robots;
  ro.verify = !args.no_verify;
  ProgressLine line(args.quiet ? ProgressMode::kNever : args.progress);
  ro.crawl.stop = arm_interrupts();
  ro.crawl.on_progress = [&](const CrawlProgress& p) { crawl_progress(line, p); };
  bool folding = false;
  ro.on_update_progress = [&](const UpdateProgress& p) {
    if (!folding) disarm_interrupts();  // Ctrl-C now abandons the fold: the database stays
    folding = true;
    line.update("update: " + p.stage, json_text(nlohmann::json(p), -1), true);
  };
  const RecrawlReport r = recrawl_web(ro);
  disarm_interrupts();
  line.finish();
  if (args.json) std::printf("%s\n", json_text(nlohmann::json(r)).c_str());
  if (!args.quiet && !args.json) {
    std::string vectors;
    for (const auto& v : r.update.vectors_carried) vectors += (vectors.empty() ? "" : ", ") + v;
    const bool web_changed = r.update.links_added || r.update.links_removed ||
                             r.update.pages_added || r.update.pages_removed;
    std::fprintf(
        stderr,
        "recrawled %s: %llu known pages (%llu conditional requests): %llu unchanged (%llu not "
        "modified, %s saved), %llu changed, %llu gone, %llu failed (kept), %llu new; %llu "
        "fetches, %s, in %.1f s%s%s\n"
        "%s %s: %u pages (+%u), %llu links (+%llu, -%llu), in %.2f s%s%s\n",
        args.recrawl.c_str(), static_cast<unsigned long long>(r.known),
        static_cast<unsigned long long>(r.conditional),
        static_cast<unsigned long long>(r.unchanged),
        static_cast<unsigned long long>(r.not_modified),
        format_bytes(static_cast<double>(r.bytes_saved)).c_str(),
        static_cast<unsigned long long>(r.changed), static_cast<unsigned long long>(r.gone),
        static_cast<unsigned long long>(r.failed), static_cast<unsigned long long>(r.new_pages),
        static_cast<unsigned long long>(r.crawl.fetched_now),
        format_bytes(static_cast<double>(r.crawl.bytes)).c_str(), r.crawl.crawl_seconds,
        r.crawl.interrupted ? "; interrupted: what was fetched is folded in" : "",
        r.crawl.page_limit ? "; stopped at --max-pages new pages" : "",
        r.updated ? "updated" : "left as it was (only 304s and failures)", args.recrawl.c_str(),
        r.update.pages, r.update.pages_added, static_cast<unsigned long long>(r.update.links),
        static_cast<unsigned long long>(r.update.links_added),
        static_cast<unsigned long long>(r.update.links_removed), r.update.seconds,
        vectors.empty() ? ""
                        : (web_changed ? "; stale vectors kept for rank --warm-start: "
                                       : "; vectors carried (no link changed): "),
        vectors.c_str());
  }
  if (r.unchanged + r.changed + r.gone + r.new_pages == 0 && r.known > 0) {
    std::fprintf(stderr,
                 "webrank: error: no page of %s answered the recrawl (%llu failed); the database "
                 "is unchanged\n",
                 args.recrawl.c_str(), static_cast<unsigned long long>(r.failed));
    exit_status() = kExitError;
    return;
  }
  if (args.no_index || !r.updated) return;
  if (r.crawl.interrupted) {
    if (!args.quiet) {
      std::fprintf(stderr,
                   "not indexed (interrupted): build the search index with `webrank index %s`\n",
                   args.recrawl.c_str());
    }
    return;
  }
  index_after_build(args.recrawl, args.quiet, args.progress);
}

}  // namespace

void add_crawl_command(CLI::App& app) {
  using Args = CrawlArgs;
  auto args = std::make_shared<Args>();
  CrawlOptions& o = args->o;
  CLI::App* cmd = app.add_subcommand(
      "crawl", "Crawl the web from seed URLs (http, https, file) and build its link database");
  cmd->add_option("SEED", args->seeds,
                  "Seed URLs (file:///DIR/index.html crawls a directory tree); with --resume "
                  "the seeds of the first run are used when none are given");
  cmd->add_option("-o,--output", args->output, "Database directory to create");
  cmd->add_option("--recrawl", args->recrawl,
                  "Fetch the pages of this crawled database again (conditional requests: ETag, "
                  "Last-Modified), follow the new links, and fold the changes in (no SEED, no "
                  "-o; --max-pages then bounds the new pages)");
  cmd->add_option("--scope", o.frontier.prefixes,
                  "Fetch only URLs starting with this prefix (repeatable; default: the seeds' "
                  "hosts, or for file: seeds their directories)")
      ->allow_extra_args(false);
  cmd->add_option("--scope-host", o.frontier.hosts,
                  "Fetch only URLs of this host[:port] (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--max-pages", o.max_pages, "Stop after this many fetches")
      ->capture_default_str()
      ->check(number_check(whole_at_least(1, 1e18)));
  cmd->add_option("--max-depth", o.frontier.max_depth, "Links followed from a seed at most")
      ->capture_default_str()
      ->check(number_check(whole_at_least(0)));
  cmd->add_option("--max-bytes", o.fetcher.max_bytes, "Bytes kept per page (the rest is cut)")
      ->capture_default_str()
      ->check(number_check(whole_at_least(1, 1e18)));
  cmd->add_option("--max-url-length", o.frontier.max_url_length, "Longer URLs are not fetched")
      ->capture_default_str()
      ->check(number_check(whole_at_least(1, 1e18)));
  cmd->add_option("--max-query-variants", o.frontier.max_query_variants,
                  "Distinct queries fetched per host and path (trap guard)")
      ->capture_default_str()
      ->check(number_check(whole_at_least(1)));
  cmd->add_option("--delay", o.frontier.delay,
                  "Seconds between fetches of one host (robots.txt Crawl-delay overrides)")
      ->capture_default_str()
      ->check(number_check(non_negative()));
  cmd->add_option("--per-host", o.frontier.per_host, "Connections to one host at a time")
      ->capture_default_str()
      ->check(number_check(whole_at_least(1)));
  cmd->add_option("--connections", o.fetcher.max_connections, "Connections in all")
      ->capture_default_str()
      ->check(number_check(whole_at_least(1)));
  cmd->add_option("--timeout", o.fetcher.timeout, "Seconds per fetch")
      ->capture_default_str()
      ->check(number_check(positive()));
  cmd->add_option("--connect-timeout", o.fetcher.connect_timeout, "Seconds to connect")
      ->capture_default_str()
      ->check(number_check(positive()));
  cmd->add_option("--retries", o.retries, "Retries of a failed fetch (errors, 429, 5xx)")
      ->capture_default_str()
      ->check(number_check(whole_at_least(0)));
  cmd->add_option("--backoff", o.backoff, "Seconds before the first retry (doubling)")
      ->capture_default_str()
      ->check(number_check(non_negative()));
  cmd->add_option("--max-redirects", o.max_redirects, "Redirect hops followed")
      ->capture_default_str()
      ->check(number_check(whole_at_least(0)));
  cmd->add_option("--user-agent", o.fetcher.user_agent, "User-Agent header")->capture_default_str();
  cmd->add_option("--threads", o.threads,
                  "Threads that parse and journal pages beside the transfers (0 = all cores)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--ignore-robots", args->ignore_robots, "Do not read robots.txt");
  cmd->add_flag("--resume", o.resume, "Continue the interrupted crawl journaled in DB.crawl/");
  cmd->add_flag("--force", o.force, "Replace an existing database and crawl journal");
  cmd->add_flag("--no-index", args->no_index,
                "Do not build the search index after the database (webrank index does)");
  cmd->add_flag("--json", args->json, "Print the report as JSON on stdout");
  cmd->add_flag("--no-verify", args->no_verify,
                "With --recrawl: skip checksum verification of the database");
  cmd->add_flag("-q,--quiet", args->quiet, "Print nothing but errors");
  add_progress_option(cmd, &args->progress);
  cmd->callback([args] {
    if (!args->recrawl.empty()) {
      recrawl(*args);
      return;
    }
    if (args->output.empty()) throw CLI::RequiredError("--output");
    CrawlOptions o = args->o;
    o.seeds = args->seeds;
    o.output = args->output;
    o.robots = !args->ignore_robots;
    if (o.seeds.empty() && !o.resume) throw CLI::ValidationError("SEED", "at least one is needed");
    ProgressLine line(args->quiet ? ProgressMode::kNever : args->progress);
    o.stop = arm_interrupts();
    bool building = false;
    o.on_progress = [&](const CrawlProgress& p) { crawl_progress(line, p); };
    o.on_build_progress = [&](const BuildProgress& p) {
      if (!building) disarm_interrupts();  // Ctrl-C now removes the half-built database
      building = true;
      line.update(cat("building: ", p.stage, " ", format_bytes(static_cast<double>(p.bytes_read))),
                  json_text(nlohmann::json(p), -1));
    };
    const CrawlReport r = crawl_web(o);
    disarm_interrupts();
    line.finish();
    if (args->json) std::printf("%s\n", json_text(nlohmann::json(r)).c_str());
    if (!args->quiet && !args->json) {
      std::fprintf(stderr,
                   "crawled %s: %llu fetches (%llu this run, %llu resumed), %llu errors, %llu "
                   "retries, %llu blocked by robots.txt, %llu trap URLs skipped, %llu out of "
                   "scope, in %.1f s (%.1f pages/s)%s%s\n"
                   "built %s: %u pages, %llu links, in %.2f s\n",
                   args->output.c_str(), static_cast<unsigned long long>(r.pages),
                   static_cast<unsigned long long>(r.fetched_now),
                   static_cast<unsigned long long>(r.resumed),
                   static_cast<unsigned long long>(r.errors),
                   static_cast<unsigned long long>(r.retries),
                   static_cast<unsigned long long>(r.robots_blocked),
                   static_cast<unsigned long long>(r.trapped),
                   static_cast<unsigned long long>(r.out_of_scope), r.crawl_seconds,
                   r.crawl_seconds > 0 ? static_cast<double>(r.fetched_now) / r.crawl_seconds : 0,
                   r.interrupted ? "; interrupted: continue with --resume" : "",
                   r.page_limit ? "; stopped at --max-pages" : "", args->output.c_str(),
                   r.build.pages, static_cast<unsigned long long>(r.build.links), r.build.seconds);
    }
    // Why each seed gave no page, even with -q when nothing was fetched at all.
    if (!args->quiet || r.ok_pages == 0) {
      for (const SeedFailure& f : r.seed_failures) {
        std::fprintf(stderr, "webrank: warning: seed %s: %s\n", f.url.c_str(), f.reason.c_str());
      }
    }
    if (r.ok_pages == 0) {
      std::fprintf(stderr,
                   "webrank: error: the crawl fetched no page%s; %s holds what was learned (%u "
                   "pages known, none fetched)\n",
                   r.seed_failures.empty() ? "" : " (the seeds' failures are above)",
                   args->output.c_str(), r.build.pages);
      exit_status() = kExitError;
    }
    if (args->no_index || r.ok_pages == 0) return;
    if (r.interrupted) {
      // Ctrl-C asked to stop: the database of what was fetched is built, the index is left for
      // later (it may take as long as the build).
      if (!args->quiet) {
        std::fprintf(stderr,
                     "not indexed (interrupted): build the search index with `webrank index %s`\n",
                     args->output.c_str());
      }
      return;
    }
    index_after_build(args->output, args->quiet, args->progress);
  });
}

}  // namespace webrank::cli
