// Making and changing databases (webrank/app/making.hpp): the use cases, their option
// declarations and their entries in the table of operations.
#include "webrank/app/making.hpp"

#include <algorithm>
#include <filesystem>

#include "app/registry.hpp"
#include "webrank/app/app_json.hpp"
#include "webrank/app/searching.hpp"
#include "webrank/ingest/formats.hpp"
#include "webrank/util/units.hpp"

namespace webrank::app {
namespace {

OptionSet<BuildRequest> build_option_set(bool import) {
  OptionSet<BuildRequest> s;
  s.add("inputs", WR_FIELD(build.inputs),
        import ? "Graphs to import (a BVGraph basename, a .mtx or .net file, a Common Crawl "
                 "vertices file, a Web Data Commons index file, a .warc[.gz] file, a directory of "
                 ".html files...)"
               : "Edge lists: SOURCE<TAB>TARGET[<TAB>WEIGHT] per line (blank-separated if no "
                 "tab); .gz/.zst read transparently; - is standard input")
      .as("INPUT")
      .at(0)
      .needed();
  s.add("output", WR_FIELD(output), "Database directory to create").as("DB").letter('o').needed();
  std::string list;
  std::vector<std::string> formats{"auto"};
  for (const auto& f : list_input_formats()) {
    list += cat("\n  ", f.name, ": ", f.description);
    formats.push_back(f.name);
  }
  OptionSpec& format = s.add("format", WR_FIELD(build.format),
                             "Input format; auto recognises it from each input's path" +
                                 std::string(import ? "" : " (else an edge list)") + ":" + list);
  format.type = ValueType::kChoice;
  format.choices = formats;
  s.add("pages", WR_FIELD(build.pages_file),
        "Page list: the first field of each line is a page, declared before the links (keeps the "
        "pages no link mentions; ids follow the list); an ID<TAB>LABEL file lists its ids")
      .as("FILE");
  s.add("labels", WR_FIELD(build.labels_file),
        "Label file of ID<TAB>LABEL lines: the page labelled ID is stored as LABEL (URLs for a "
        "numeric graph's ids)")
      .as("FILE");
  s.add("weighted", WR_FIELD(build.weighted),
        "Read link weights (a third column of edge lists, mtx values, Pajek weights)");
  s.add("order", WR_FIELD(build.order),
        "Page id order: input (first appearance), degree (by decreasing out-degree: faster "
        "ranking of large webs) or url (by URL with the host reversed, as the paper's link "
        "database: a site's pages together); labels and ranks are unchanged");
  s.size("memory_budget", WR_FIELD(build.memory_budget),
         "Memory the links may take (4G, 512M, ...); past it they are sorted in runs on disk, in "
         "the temporary output directory, and merged (default, 0: 3/4 of the physical memory)");
  s.add("force", WR_FIELD(build.force),
        "Replace an existing database (only once the new one is complete)");
  s.add("no_index", WR_FIELD(no_index),
        "Do not build the search index of a crawl (warc, html-dir) after the database");
  return s;
}

const OptionSet<BuildRequest>& build_options() {
  static const OptionSet<BuildRequest> set = build_option_set(false);
  return set;
}

const OptionSet<BuildRequest>& import_options() {
  static const OptionSet<BuildRequest> set = build_option_set(true);
  return set;
}

// Names the format of every input; with `strict`, an input whose path does not reveal its
// format is an error asking for `format`.
std::string resolve_formats(const BuildOptions& o, bool strict) {
  std::vector<std::string> used;
  for (const auto& in : o.inputs) {
    const std::optional<std::string> f =
        o.format == "auto" ? detect_input_format(in) : std::optional(o.format);
    std::error_code ec;
    if (!f && strict && in != "-" && !std::filesystem::exists(in, ec)) {
      // Nothing there, not even a companion file a format would recognise the path by.
      fail(ErrorKind::kNotFound, in, ": no such file or directory");
    }
    if (!f && strict) {
      std::string names;
      for (const auto& format : list_input_formats())
        names += (names.empty() ? "" : ", ") + format.name;
      fail_option("inputs", in == "-" ? "<stdin>" : in,
                  ": cannot tell its format from the path; pass ", option_ref("format"),
                  " (one of ", names, ")");
    }
    const std::string name = f.value_or("edges");
    if (std::find(used.begin(), used.end(), name) == used.end()) used.push_back(name);
  }
  std::string joined;
  for (const auto& u : used) joined += (joined.empty() ? "" : ", ") + u;
  return joined;
}

BuildResult build_or_import(const BuildRequest& req, const Run& run, bool import) {
  BuildResult r;
  r.imported = import;
  r.formats = resolve_formats(req.build, import);
  BuildOptions o = req.build;
  o.output = req.output;
  o.threads = run.threads;
  o.stop = run.stop;
  if (run.on_progress) o.on_progress = [&run](const BuildProgress& p) { run.on_progress(p); };
  r.report = build_database(o);
  const BuildReport& b = r.report;
  const std::string runs =
      b.spilled_runs ? cat(", past the memory budget: ", b.spilled_runs, " sorted runs merged")
                     : "";
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.2f", b.seconds);
  r.notices.said.push_back(cat(import ? "imported " : "built ", req.output, " (", r.formats,
                               "): ", b.pages, " pages, ", b.links, " links (",
                               b.input_links - b.links, " merged duplicates), ", b.self_links,
                               " self-links, in ", seconds, " s", runs));
  for (const std::string& note : b.notes) r.notices.said.push_back("note: " + note);
  // Lines of one field declare pages: a file of nothing else is likely not an edge list at all
  // (a CSV's "a,b" is one field), which a user would not see in "0 links".
  if (b.links == 0 && b.input_links == 0 && b.pages > 0 && o.pages_file.empty()) {
    r.notices.warnings.push_back(
        cat("no links read: every line held one field, a page (an edge list separates SOURCE and "
            "TARGET by a tab or blanks; commas are part of a label)"));
  }
  if (!o.pages_file.empty())
    r.notices.said.push_back(cat("pages: ", b.listed_pages, " listed in ", o.pages_file));
  if (!o.labels_file.empty()) {
    r.notices.said.push_back(cat("labels: ", b.relabeled_pages, " pages labelled from ",
                                 o.labels_file,
                                 b.unused_labels ? cat(" (", b.unused_labels,
                                                       " of its ids are no page of the web: not "
                                                       "used; --pages FILE adds them)")
                                                 : std::string()));
  }
  // Crawls (WARC, HTML directories) are searchable as soon as they are imported.
  if (!req.no_index) index_after_build(req.output, run, r.notices);
  return r;
}

const OptionSet<CrawlRequest>& crawl_options() {
  static const OptionSet<CrawlRequest> set = [] {
    OptionSet<CrawlRequest> s;
    s.add("seeds", WR_FIELD(crawl.seeds),
          "Seed URLs (file:///DIR/index.html crawls a directory tree); with --resume the seeds of "
          "the first run are used when none are given")
        .as("SEED")
        .at(0);
    s.add("output", WR_FIELD(output), "Database directory to create").as("DB").letter('o');
    s.add("recrawl", WR_FIELD(recrawl),
          "Fetch the pages of this crawled database again (conditional requests: ETag, "
          "Last-Modified), follow the new links, and fold the changes in (no SEED, no -o; "
          "--max-pages then bounds the new pages)")
        .as("DB")
        .without("output")
        .without("seeds");
    s.add("scope", WR_FIELD(crawl.frontier.prefixes),
          "Fetch only URLs starting with this prefix (repeatable; default: the seeds' hosts, or "
          "for file: seeds their directories)")
        .as("PREFIX")
        .alias("prefixes");
    s.add("scope_host", WR_FIELD(crawl.frontier.hosts),
          "Fetch only URLs of this host[:port] (repeatable)")
        .as("HOST");
    s.add("max_pages", WR_FIELD(crawl.max_pages), "Stop after this many fetches")
        .in(closed(1, 1e18))
        .as("N", "pages");
    s.add("max_depth", WR_FIELD(crawl.frontier.max_depth), "Links followed from a seed at most")
        .in(closed(0, 2147483647))
        .as("N", "links");
    s.add("max_bytes", WR_FIELD(crawl.fetcher.max_bytes), "Bytes kept per page (the rest is cut)")
        .in(closed(1, 1e18))
        .as("N", "bytes");
    s.add("max_url_length", WR_FIELD(crawl.frontier.max_url_length),
          "Longer URLs are not fetched, and not kept as pages")
        .in(closed(1, 1e18))
        .as("N", "bytes");
    s.add("max_query_variants", WR_FIELD(crawl.frontier.max_query_variants),
          "Distinct queries fetched per host and path (trap guard)")
        .in(closed(1, 2147483647))
        .as("N");
    s.add("delay", WR_FIELD(crawl.frontier.delay),
          "Seconds between fetches of one host (robots.txt Crawl-delay overrides)")
        .in(at_least(0))
        .as("SECONDS", "seconds");
    s.size("frontier_memory", WR_FIELD(crawl.frontier.memory),
           "Memory the queued URLs may take (512M, 2G, ...); past it they wait on disk, in "
           "DB.crawl/frontier.spill, each host's in order");
    s.add("per_host", WR_FIELD(crawl.frontier.per_host), "Connections to one host at a time")
        .in(closed(1, 2147483647))
        .as("N");
    s.add("connections", WR_FIELD(crawl.fetcher.max_connections), "Connections in all")
        .in(closed(1, 2147483647))
        .as("N");
    s.add("timeout", WR_FIELD(crawl.fetcher.timeout), "Seconds per fetch")
        .in(positive())
        .as("SECONDS", "seconds");
    s.add("connect_timeout", WR_FIELD(crawl.fetcher.connect_timeout), "Seconds to connect")
        .in(positive())
        .as("SECONDS", "seconds");
    s.add("retries", WR_FIELD(crawl.retries), "Retries of a failed fetch (errors, 429, 5xx)")
        .in(closed(0, 2147483647))
        .as("N");
    s.add("backoff", WR_FIELD(crawl.backoff), "Seconds before the first retry (doubling)")
        .in(at_least(0))
        .as("SECONDS", "seconds");
    s.add("max_redirects", WR_FIELD(crawl.max_redirects), "Redirect hops followed")
        .in(closed(0, 2147483647))
        .as("N");
    s.add("user_agent", WR_FIELD(crawl.fetcher.user_agent), "User-Agent header").as("TEXT");
    s.add("ignore_robots", WR_FIELD(ignore_robots), "Do not read robots.txt");
    s.add("resume", WR_FIELD(crawl.resume),
          "Continue the interrupted crawl journaled in DB.crawl/");
    s.add("force", WR_FIELD(crawl.force), "Replace an existing database and crawl journal");
    s.add("no_index", WR_FIELD(no_index),
          "Do not build the search index after the database (webrank index does)");
    s.add("no_verify", WR_FIELD(no_verify),
          "With --recrawl: skip checksum verification of the database");
    return s;
  }();
  return set;
}

CrawlResult recrawl(const CrawlRequest& req, const Run& run) {
  if (!req.crawl.seeds.empty())
    fail_option("seeds", option_ref("recrawl"), " takes none: the database's pages are fetched");
  if (req.crawl.resume || req.crawl.force)
    fail_option("recrawl", "cannot be combined with ", option_ref("resume"), " or ",
                option_ref("force"));
  RecrawlOptions ro;
  ro.database = req.recrawl;
  ro.crawl = req.crawl;
  ro.crawl.robots = !req.ignore_robots;
  ro.crawl.threads = run.threads;
  ro.crawl.stop = run.stop;
  ro.verify = !req.no_verify;
  if (run.on_progress)
    ro.crawl.on_progress = [&run](const CrawlProgress& p) { run.on_progress(p); };
  bool folding = false;
  ro.on_update_progress = [&](const UpdateProgress& p) {
    if (!folding && run.unstoppable) run.unstoppable();  // the fold runs to its end
    folding = true;
    if (run.on_progress) run.on_progress(p);
  };
  CrawlResult result;
  result.is_recrawl = true;
  result.database = req.recrawl;
  // The search index of the new version is built before it is published (a crawl's database is
  // indexed unless told not to), so that no reader sees the new web without it.
  Notices index_notices;
  if (!req.no_index) {
    const Database old = Database::open(req.recrawl);
    const FieldWeights weights = search_index_weights(old).value_or(FieldWeights{});
    if (old.has_page_data()) {
      ro.before_publish = [&, weights](const Database& next) {
        index_before_publish(next, req.recrawl, weights, run, index_notices);
      };
    }
  }
  RecrawlReport& r = result.recrawl = recrawl_web(ro);
  std::string vectors;
  for (const auto& v : r.update.vectors_carried) vectors += (vectors.empty() ? "" : ", ") + v;
  const bool web_changed = r.update.links_added || r.update.links_removed || r.update.pages_added ||
                           r.update.pages_removed;
  char crawl_seconds[32], update_seconds[32];
  std::snprintf(crawl_seconds, sizeof crawl_seconds, "%.1f", r.crawl.crawl_seconds);
  std::snprintf(update_seconds, sizeof update_seconds, "%.2f", r.update.seconds);
  result.notices.said.push_back(cat(
      "recrawled ", req.recrawl, ": ", r.known, " known pages (", r.conditional,
      " conditional requests): ", r.unchanged, " unchanged (", r.not_modified, " not modified, ",
      format_bytes(static_cast<double>(r.bytes_saved)), " saved), ", r.changed, " changed, ",
      r.gone, " gone, ", r.failed, " failed (kept), ", r.new_pages, " new; ", r.crawl.fetched_now,
      " fetches, ", format_bytes(static_cast<double>(r.crawl.bytes)), ", in ", crawl_seconds, " s",
      r.crawl.interrupted ? "; interrupted: what was fetched is folded in" : "",
      r.crawl.page_limit ? "; stopped at --max-pages new pages" : ""));
  result.notices.said.push_back(
      cat(r.updated ? "updated " : "left as it was (only 304s and failures) ", req.recrawl, ": ",
          r.update.pages, " pages (+", r.update.pages_added, "), ", r.update.links, " links (+",
          r.update.links_added, ", -", r.update.links_removed, "), in ", update_seconds, " s",
          vectors.empty() ? ""
                          : (web_changed ? "; stale vectors kept for rank --warm-start: "
                                         : "; vectors carried (no link changed): "),
          vectors));
  if (r.unchanged + r.changed + r.gone + r.new_pages == 0 && r.known > 0) {
    result.notices.errors.push_back(cat("no page of ", req.recrawl, " answered the recrawl (",
                                        r.failed, " failed); the database is unchanged"));
    return result;
  }
  for (std::string& line : index_notices.said) result.notices.said.push_back(std::move(line));
  return result;
}

CrawlResult crawl_new(const CrawlRequest& req, const Run& run) {
  if (req.output.empty()) fail_option("output", "is required: the database to create");
  CrawlOptions o = req.crawl;
  o.output = req.output;
  o.robots = !req.ignore_robots;
  o.threads = run.threads;
  o.stop = run.stop;
  if (o.seeds.empty() && !o.resume) fail_option("seeds", "at least one is needed");
  if (run.on_progress) o.on_progress = [&run](const CrawlProgress& p) { run.on_progress(p); };
  bool building = false;
  o.on_build_progress = [&](const BuildProgress& p) {
    // An interrupt now removes the half-built database rather than asking for a stop.
    if (!building && run.unstoppable) run.unstoppable();
    building = true;
    if (run.on_progress) run.on_progress(p);
  };
  CrawlResult result;
  result.database = req.output;
  CrawlReport& r = result.crawl = crawl_web(o);
  char seconds[32], rate[32], build_seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f", r.crawl_seconds);
  std::snprintf(rate, sizeof rate, "%.1f",
                r.crawl_seconds > 0 ? static_cast<double>(r.fetched_now) / r.crawl_seconds : 0);
  std::snprintf(build_seconds, sizeof build_seconds, "%.2f", r.build.seconds);
  result.notices.said.push_back(
      cat("crawled ", req.output, ": ", r.pages, " fetches (", r.fetched_now, " this run, ",
          r.resumed, " resumed), ", r.errors, " errors, ", r.retries, " retries, ",
          r.robots_blocked, " blocked by robots.txt, ", r.trapped, " trap URLs skipped, ",
          r.out_of_scope, " out of scope, in ", seconds, " s (", rate, " pages/s)",
          r.interrupted ? "; interrupted: continue with --resume" : "",
          r.page_limit ? "; stopped at --max-pages" : ""));
  result.notices.said.push_back(cat("built ", req.output, ": ", r.build.pages, " pages, ",
                                    r.build.links, " links, in ", build_seconds, " s"));
  // Why each seed gave no page: a warning (front ends word it as theirs: "webrank: warning:").
  for (const SeedFailure& f : r.seed_failures) {
    result.notices.warnings.push_back(cat("seed ", f.url, ": ", f.reason));
  }
  if (r.ok_pages == 0) {
    result.notices.errors.push_back(
        cat("the crawl fetched no page",
            r.seed_failures.empty() ? "" : " (the seeds' failures are above)", "; ", req.output,
            " holds what was learned (", r.build.pages, " pages known, none fetched)"));
    return result;
  }
  if (req.no_index) return result;
  if (r.interrupted) {
    // Ctrl-C asked to stop: the database of what was fetched is built, the index is left for
    // later (it may take as long as the build).
    result.notices.said.push_back(cat(
        "not indexed (interrupted): build the search index with `webrank index ", req.output, "`"));
    return result;
  }
  index_after_build(req.output, run, result.notices);
  return result;
}

const OptionSet<GenerateRequest>& generate_options() {
  static const OptionSet<GenerateRequest> set = [] {
    OptionSet<GenerateRequest> s;
    s.add("model", WR_FIELD(generate.model),
          "web (host-clustered copying model, URL labels) or rmat (Kronecker, numeric)");
    s.add("pages", WR_FIELD(generate.pages), "Number of pages")
        .in(closed(1, 4294967295.0))
        .as("N", "pages");
    s.add("links", WR_FIELD(generate.links), "Number of links")
        .in(closed(1, 1e18))
        .as("N", "links");
    s.add("seed", WR_FIELD(generate.seed), "Random seed").in(closed(0, 1e18)).as("N");
    s.add("output", WR_FIELD(generate.output),
          "Edge-list file to write (- for stdout); with --text a WARC file (.warc, or .warc.gz "
          "compressed)")
        .as("FILE")
        .letter('o')
        .needed();
    s.add("text", WR_FIELD(text),
          "Write the web model's pages as HTML with titles, text and anchor texts, in a WARC file "
          "that `import` reads (a synthetic text web for measuring search)");
    return s;
  }();
  return set;
}

const OptionSet<UpdateRequest>& update_options() {
  static const OptionSet<UpdateRequest> set = [] {
    OptionSet<UpdateRequest> s;
    s.add("add", WR_FIELD(update.add),
          "Edge list of links (SOURCE<TAB>TARGET[<TAB>WEIGHT]) and pages (one field) to add "
          "(repeatable)")
        .as("FILE");
    s.add("remove", WR_FIELD(update.remove),
          "Edge list of links and pages (one field: the page and all its links) to remove; "
          "applied before --add (repeatable)")
        .as("FILE");
    s.add("no_index", WR_FIELD(no_index),
          "Publish the new version without a search index (by default the database's index is "
          "rebuilt in the new version before it replaces the old)");
    return s;
  }();
  return set;
}

const OptionSet<ExportRequest>& export_options() {
  static const OptionSet<ExportRequest> set = [] {
    OptionSet<ExportRequest> s;
    s.add("links", WR_FIELD(links), "SOURCE<TAB>TARGET label pairs, one per link (the default)")
        .without("pages");
    s.add("pages", WR_FIELD(pages), "URL, HTTP status, title, out-links, in-links per page")
        .without("ids")
        .without("weighted")
        .without("format");
    s.add("ids", WR_FIELD(ids),
          "With --links: page ids (0 .. N-1) instead of labels, a numeric edge list");
    s.add("weighted", WR_FIELD(weighted),
          "With --links: a third column, the link weight (written anyway for a weighted database; "
          "1 per link for an unweighted one)");
    s.add("format", WR_FIELD(format),
          "edges (SOURCE<TAB>TARGET lines), gml or graphml (a directed graph for Gephi, "
          "Cytoscape, NetworkX, igraph: labels, titles, rank vectors as node attributes, "
          "weights)");
    s.add("ranks", WR_FIELD(ranks),
          "With --format gml|graphml: the stored vectors written as node attributes (repeatable; "
          "default every stored vector)")
        .as("NAME");
    s.add("output", WR_FIELD(output), "Write to FILE instead of standard output")
        .as("FILE")
        .letter('o');
    return s;
  }();
  return set;
}

const OptionSet<PartitionRequest>& partition_options() {
  static const OptionSet<PartitionRequest> set = [] {
    OptionSet<PartitionRequest> s;
    s.add("parts", WR_FIELD(partition.parts), "Number of parts (processes)")
        .in(closed(1, 2147483647))
        .as("N", "parts")
        .letter('n')
        .needed();
    s.add("output", WR_FIELD(output), "Parts directory to write").as("DIR").letter('o').needed();
    s.add("force", WR_FIELD(partition.force),
          "Replace an existing parts directory (kept until the new one is complete)");
    return s;
  }();
  return set;
}

}  // namespace

BuildResult build(Session*, const BuildRequest& req, const Run& run) {
  return build_or_import(req, run, /*import=*/false);
}

BuildResult import(Session*, const BuildRequest& req, const Run& run) {
  return build_or_import(req, run, /*import=*/true);
}

CrawlResult crawl(Session*, const CrawlRequest& req, const Run& run) {
  return req.recrawl.empty() ? crawl_new(req, run) : recrawl(req, run);
}

GenerateResult generate(Session*, const GenerateRequest& req, const Run&) {
  GenerateResult r;
  r.output = req.generate.output;
  r.is_text = req.text;
  if (req.text) {
    r.text = generate_text_web(req.generate);
    r.notices.said.push_back(cat("wrote ", r.output, ": ", r.text.pages, " pages, ", r.text.links,
                                 " links, ", format_bytes(static_cast<double>(r.text.bytes)),
                                 " of HTTP responses"));
    return r;
  }
  r.graph = generate_graph(req.generate);
  // Said on stderr even when the edge list goes to standard output.
  r.notices.said.push_back(cat("wrote ", r.output == "-" ? "<stdout>" : r.output, ": ",
                               r.graph.links, " links among ", r.graph.pages, " pages"));
  for (const std::string& note : r.graph.notes) r.notices.said.push_back("  " + note);
  return r;
}

UpdateResult update(Session* session, const UpdateRequest& req, const Run& run) {
  UpdateOptions o = req.update;
  o.threads = run.threads;
  o.stop = run.stop;
  o.verify = false;  // the session verified it (unless told not to)
  if (run.on_progress) o.on_progress = [&run](const UpdateProgress& p) { run.on_progress(p); };
  UpdateResult r;
  Notices index_notices;
  const std::optional<FieldWeights> weights =
      req.no_index ? std::nullopt : search_index_weights(*session->database());
  if (weights) {
    o.before_publish = [&](const Database& next) {
      r.index = index_before_publish(next, session->path(), *weights, run, index_notices);
    };
  }
  r.report = update_database(session->path(), o);
  const UpdateReport& u = r.report;
  std::string vectors;
  for (const auto& v : u.vectors_carried) vectors += (vectors.empty() ? "" : ", ") + v;
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.2f", u.seconds);
  r.notices.said.push_back(cat(
      "updated ", session->path().string(), " in ", seconds, " s: ", u.pages, " pages (+",
      u.pages_added, ", -", u.pages_removed, "), ", u.links, " links (+", u.links_added, ", -",
      u.links_removed, ")",
      u.removals_not_found ? cat("; ", u.removals_not_found, " removals named nothing in the web")
                           : std::string(),
      u.additions_read > u.links_added
          ? cat("; ", u.additions_read - u.links_added, " of the ", u.additions_read,
                " links added were already in the web or listed twice (a link counts once",
                session->database()->stats().weighted ? "; their weights were added)" : ")")
          : std::string(),
      vectors.empty() ? std::string() : "; stale vectors kept for rank --warm-start: " + vectors));
  for (std::string& line : index_notices.said) r.notices.said.push_back(std::move(line));
  if (!weights && !req.no_index) {
    r.notices.said.push_back(cat(session->path().string(),
                                 " had no search index: none built (webrank index builds one)"));
  }
  return r;
}

ExportResult export_text(Session* session, const ExportRequest& req, const Run&) {
  const auto db = session->database();
  if (req.format == ExportFormat::kEdges && !req.ranks.empty())
    fail_option("ranks", "needs ", option_ref("format"), " gml or graphml");
  if (req.format != ExportFormat::kEdges && req.ids)
    fail_option("ids", "is for ", option_ref("format"), " edges");
  ExportOptions o;
  o.table = req.pages ? ExportTable::kPages : req.ids ? ExportTable::kLinkIds : ExportTable::kLinks;
  o.output = req.output;
  o.weights = req.weighted;
  o.format = req.format;
  o.ranks = req.ranks;
  o.all_ranks = req.ranks.empty();
  export_database(*db, o);
  ExportResult r;
  r.output = req.output;
  return r;
}

PartitionResult partition(Session* session, const PartitionRequest& req, const Run& run) {
  const auto db = session->database();
  PartitionOptions o = req.partition;
  o.output = req.output;
  o.threads = run.threads;
  o.stop = run.stop;
  if (run.on_progress) o.on_progress = [&run](const PartitionProgress& p) { run.on_progress(p); };
  PartitionResult r;
  r.report = partition_database(*db, o);
  r.database = session->path().string();
  r.output = req.output;
  std::uint64_t most = 0, remote = 0;
  for (const PartInfo& p : r.report.parts) {
    most = std::max(most, p.links);
    remote += p.remote_pages;
  }
  char balance[32];
  std::snprintf(
      balance, sizeof balance, "%.2f",
      r.report.links ? static_cast<double>(most) * r.report.parts.size() / r.report.links : 1.0);
  r.notices.said.push_back(cat(
      "partition: ", r.database, " (", r.report.pages, " pages, ", r.report.links, " links) into ",
      r.report.parts.size(), " parts in ", r.output, ": at most ", most, " links a part (", balance,
      " of the mean), ", remote, " remote pages in all; run it with `mpirun -np ",
      r.report.parts.size(), " webrank rank-mpi ", r.output, "`"));
  return r;
}

void add_making_operations(std::vector<Operation>& table) {
  const std::string group = "Make a database";
  table.push_back(make_operation({.name = "build",
                                  .group = group,
                                  .summary = "Build a link database from edge lists",
                                  .access = Access::kNone},
                                 build_options(), &build));
  table.push_back(make_operation(
      {.name = "import",
       .group = group,
       .summary = "Build a link database from a graph in another format (bv, mtx, pajek, gml, "
                  "graphml, cc-hosts, wdc) or a crawl (warc, html-dir)",
       .access = Access::kNone},
      import_options(), &import));
  table.push_back(make_operation(
      {.name = "crawl",
       .group = group,
       .summary = "Crawl the web from seed URLs (http, https, file) and build its link database",
       .access = Access::kNone},
      crawl_options(), &crawl));
  table.push_back(make_operation(
      {.name = "update",
       .group = group,
       .summary = "Apply changes (edge lists of links and pages to remove and to add) to a "
                  "database: a new version by merging, put in place atomically; stored rank "
                  "vectors kept as warm starts",
       .access = Access::kWrite},
      update_options(), &update));
  table.push_back(make_operation({.name = "generate",
                                  .group = group,
                                  .summary = "Write a synthetic web as an edge list",
                                  .access = Access::kNone},
                                 generate_options(), &generate));
  table.push_back(make_operation(
      {.name = "export",
       .group = group,
       .summary = "Write the links (edge list, GML or GraphML) or the page table as text"},
      export_options(), &export_text));
}

void add_mpi_operations(std::vector<Operation>& table) {
  table.push_back(make_operation(
      {.name = "partition",
       .group = "Many machines",
       .summary = "Cut a database into parts balanced by links, one per process of `mpirun -np P "
                  "webrank rank-mpi PARTS`",
       .access = Access::kWrite},
      partition_options(), &partition));
}

}  // namespace webrank::app
