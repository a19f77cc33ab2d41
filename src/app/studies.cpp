// The paper's studies and after (webrank/app/studies.hpp): the use cases, their option
// declarations and their entries in the table of operations.
#include "webrank/app/studies.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>

#include "app/registry.hpp"
#include "app/solver_options.hpp"
#include "webrank/app/app_json.hpp"
#include "webrank/rank/presentation.hpp"
#include "webrank/store/rank_store.hpp"
#include "webrank/studies/stored_centrality.hpp"
#include "webrank/util/output_file.hpp"
#include "webrank/util/units.hpp"

namespace webrank::app {
namespace {

const OptionSet<ExplainRequest>& explain_options() {
  static const OptionSet<ExplainRequest> set = [] {
    OptionSet<ExplainRequest> s;
    s.add("page", WR_FIELD(page), "The page (its label)").as("URL").at(0).needed().http("url");
    s.add("ranks", WR_FIELD(explain.ranks), "Which stored vector").as("NAME");
    s.add("k", WR_FIELD(explain.k), "Top contributors and two-hop paths listed")
        .in(closed(1, 1e9))
        .serve_in(closed(1, kServedMaxResults))
        .as("N");
    // Each what-if is a re-solve of up to what_if_seconds: a server takes a few, each short.
    s.add("without", WR_FIELD(explain.without_pages),
          "What-if: the page's rank without the link from this page (repeatable)")
        .as("URL")
        .serve_at_most(4);
    s.add("without_host", WR_FIELD(explain.without_hosts),
          "What-if: without the links from every page of this host (repeatable)")
        .as("HOST")
        .serve_at_most(4);
    s.add("no_what_if", WR_FIELD(no_what_if),
          "Skip the default what-if (without the top contributor)");
    s.add("what_if_seconds", WR_FIELD(explain.what_if_seconds),
          "Time bound of one what-if re-solve")
        .in(closed(1e-6, 10))
        .serve_in(closed(1e-6, 1))
        .as("SECONDS", "seconds");
    s.add("what_if_tol", WR_FIELD(explain.what_if_tolerance),
          "Error bound a what-if aims at, relative to the page's rank")
        .in(positive());
    return s;
  }();
  return set;
}

const OptionSet<UsageRequest>& usage_options() {
  static const OptionSet<UsageRequest> set = [] {
    OptionSet<UsageRequest> s;
    s.add("counts", WR_FIELD(counts), "LABEL<TAB>COUNT lines: visits per page (# comments)")
        .as("FILE")
        .without("log");
    s.add("strict", WR_FIELD(strict),
          "--counts: a page that is not in the database is an error (by default such lines are "
          "counted, listed and left out)")
        .without("log");
    s.add("log", WR_FIELD(log), "A web server access log (Common or Combined Log Format; gz, zst)")
        .as("FILE");
    s.add("site", WR_FIELD(log_options.site),
          "--log: scheme://host[:port] of the logged paths (default: the origin every page "
          "shares)")
        .as("URL");
    s.add("keep_bots", WR_FIELD(log_options.keep_bots),
          "--log: count user agents of robots (bot, crawler, spider, slurp) too");
    s.add("ranks", WR_FIELD(ranks), "The stored vector compared").as("NAME");
    s.add("k", WR_FIELD(k), "Pages in each list").in(closed(1, 1e9)).as("N", "pages");
    s.add("source", WR_FIELD(source),
          "Also compute PageRank with the usage counts as rank source, store it as --name, and "
          "compare it too");
    s.add("name", WR_FIELD(name), "--source: the name of that vector").as("NAME");
    s.add("damping", WR_FIELD(rank.damping), "--source: damping factor").in(closed(0, 1));
    s.add("tol", WR_FIELD(rank.tol), "--source: L1 tolerance").in(positive());
    return s;
  }();
  return set;
}

const OptionSet<CrawlOrderRequest>& crawl_order_options() {
  static const OptionSet<CrawlOrderRequest> set = [] {
    OptionSet<CrawlOrderRequest> s;
    s.add("seed", WR_FIELD(seed),
          "The page the crawls start from (default: page id 0, the first page of the input: a "
          "crawl's seed)")
        .as("URL");
    OptionSpec& orders = s.add("order", WR_FIELD(orders),
                               "pagerank, backlinks, breadth or random (repeatable; default: all "
                               "four)");
    orders.as("ORDER");
    for (const auto& n : names(CrawlOrder{})) orders.choices.emplace_back(n.name);
    s.add("recompute", WR_FIELD(study.recompute_every),
          "PageRank order: pages fetched between PageRank computations of the graph seen (0: 1% "
          "of the reachable pages)")
        .in(closed(0, 1e18))
        .as("N", "pages");
    s.add("hot", WR_FIELD(study.hot_by),
          "Hot pages are the top by final in-degree, or by final PageRank (--ranks)");
    s.add("hot_fraction", WR_FIELD(study.hot_fraction), "The share of pages that are hot")
        .in(open_closed(0, 1));
    s.add("ranks", WR_FIELD(ranks),
          "--hot pagerank: the stored vector of the whole web (computed if absent)")
        .as("NAME");
    s.add("damping", WR_FIELD(study.damping), "Damping factor of the PageRank order")
        .in(half_open(0, 1));
    s.add("points", WR_FIELD(study.points), "Points per curve").in(closed(1, 1e6)).as("N");
    s.add("random_seed", WR_FIELD(study.random_seed), "Seed of the random order").as("N");
    s.add("out", WR_FIELD(out),
          "Write the curves as TSV: crawled fraction, then the hot fraction of each order")
        .as("FILE");
    s.add("html", WR_FIELD(html), "Write the curves as a chart in a self-contained page")
        .as("FILE");
    return s;
  }();
  return set;
}

const OptionSet<HostsRequest>& hosts_options() {
  static const OptionSet<HostsRequest> set = [] {
    OptionSet<HostsRequest> s;
    s.add("output", WR_FIELD(output), "The host database to write").as("DB").letter('o').needed();
    s.add("by", WR_FIELD(hosts.by),
          "Group pages by host name, or by pay-level domain (Public Suffix List)");
    s.add("keep_internal", WR_FIELD(hosts.keep_internal),
          "Keep links within a host as self-links (dropped by default)");
    s.add("damping", WR_FIELD(hosts.rank.damping), "Damping factor of HostRank").in(closed(0, 1));
    s.add("tol", WR_FIELD(hosts.rank.tol), "L1 tolerance of HostRank").in(positive());
    s.add("name", WR_FIELD(hosts.rank_name), "Name of the HostRank vector").as("NAME");
    s.add("k", WR_FIELD(k), "Top hosts shown").in(closed(1, 1e9)).as("N");
    s.add("force", WR_FIELD(hosts.force), "Replace an existing host database");
    return s;
  }();
  return set;
}

const OptionSet<CentralityRequest>& centrality_options() {
  static const OptionSet<CentralityRequest> set = [] {
    OptionSet<CentralityRequest> s;
    s.add("harmonic", WR_FIELD(harmonic),
          "Harmonic centrality: the sum of 1/distance from every page that reaches a page");
    s.add("counters", WR_FIELD(harmonic_options.counters),
          "Ball counters: exact sets (N^2/4 bytes), HyperLogLog, or auto (exact up to "
          "--exact-max-pages)");
    s.add("log2m", WR_FIELD(harmonic_options.log2m),
          "HyperLogLog registers per page: 2^log2m (relative error ~1.04/sqrt(2^log2m))")
        .in(closed(4, 16));
    s.add("exact_max_pages", WR_FIELD(harmonic_options.exact_max_pages),
          "Largest web counted exactly by --counters auto")
        .in(closed(0, 1 << 20))
        .as("N", "pages");
    s.add("seed", WR_FIELD(harmonic_options.seed), "Seed of the HyperLogLog hash").as("N");
    s.add("name", WR_FIELD(name), "Stored as this vector").as("NAME");
    s.add("compare", WR_FIELD(compare),
          "Compare the order with this stored vector, if there is one")
        .as("NAME");
    s.add("k", WR_FIELD(k), "Top pages shown").in(closed(1, 1e9)).as("N", "pages");
    s.add("out", WR_FIELD(out), "Also write LABEL<TAB>H per page, in id order (- = stdout)")
        .as("FILE");
    return s;
  }();
  return set;
}

const OptionSet<ReportRequest>& report_options() {
  static const OptionSet<ReportRequest> set = [] {
    OptionSet<ReportRequest> s;
    s.add("output", WR_FIELD(output), "The HTML file to write (- = standard output)")
        .as("FILE")
        .letter('o')
        .only(kCli | kPython);
    s.add("format", WR_FIELD(format),
          "What --output holds: html (the page with its charts) or json (their data)")
        .only(kCli | kPython)
        .choices = {"html", "json"};
    s.add("ranks", WR_FIELD(report.ranks),
          "The vector whose distribution is charted (default: pagerank, else the first)")
        .as("NAME");
    s.add("k", WR_FIELD(report.top), "Top pages listed per vector")
        .in(closed(1, 1e6))
        .serve_in(closed(1, kServedMaxResults))
        .as("N");
    s.add("title", WR_FIELD(report.title), "Title of the page (default: the database's name)")
        .as("TEXT");
    s.add("page", WR_FIELD(page),
          "Where this page (label or URL) stands in the charts: its value and degrees")
        .as("URL")
        .http("url");
    return s;
  }();
  return set;
}

// The report of the database as it is now, kept by the session while it still shows it: the
// same database (a refresh opens a new one) and the same stored vectors (ranks_fingerprint).
// Gathering reads every stored vector and finds the components, O(links): once.
class ReportKeeper {
 public:
  std::shared_ptr<const ReportData> get(const std::shared_ptr<const Database>& db,
                                        const ReportOptions& options) {
    std::lock_guard lock(mutex_);
    // Taken before gathering: a vector stored meanwhile makes the next call gather again.
    std::string key =
        cat(options.ranks, '\n', options.top, '\n', options.title, '\n', ranks_fingerprint(*db));
    if (data_ && db_ == db && key_ == key) return data_;
    data_ = std::make_shared<const ReportData>(gather_report(*db, options));
    db_ = db;
    key_ = std::move(key);
    return data_;
  }

 private:
  std::mutex mutex_;
  std::shared_ptr<const Database> db_;
  std::shared_ptr<const ReportData> data_;
  std::string key_;
};

}  // namespace

ExplainResult explain(Session* session, const ExplainRequest& req, const Run& run) {
  const auto db = session->database();
  const PageId page = find_page_or_fail(*db, session->path().string(), req.page);
  ExplainOptions o = req.explain;
  o.what_if_top_backlink = !req.no_what_if;
  o.stop = run.stop;
  ExplainResult r;
  r.explanation = explain_rank(*db, page, o);
  r.k = o.k;
  return r;
}

UsageResult usage(Session* session, const UsageRequest& req, const Run& run) {
  if (req.counts.empty() && req.log.empty())
    fail_option("counts", "or ", option_ref("log"), ": give the visits");
  if (req.source) check_rank_name(req.name);
  const auto db = session->database();
  const StoredRanks base = load_ranks(*db, req.ranks);
  UsageResult r;
  r.pages = db->num_pages();
  r.from = req.counts.empty() ? req.log : req.counts;
  r.name = req.name;
  if (req.counts.empty()) {
    AccessLogReport log;
    r.usage = count_log_visits(*db, req.log, req.log_options, &log);
    r.log = std::move(log);
  } else {
    r.usage = read_usage_counts(*db, req.counts, req.strict);
    const UnknownLabels& u = r.usage.unknown;
    if (u.lines > 0) {
      std::string first;
      for (std::size_t i = 0; i < u.labels.size() && i < 3; ++i)
        first += cat(i ? ", " : "", "'", u.labels[i].label, "'");
      r.notices.said.push_back(cat(req.counts, ": ", u.lines, " line", u.lines == 1 ? "" : "s",
                                   " (", u.labels.size(), " page", u.labels.size() == 1 ? "" : "s",
                                   ", ", u.weight, " visit", u.weight == 1 ? "" : "s",
                                   ") name no page of ", session->path().string(),
                                   " and are left out: ", first, u.labels.size() > 3 ? ", ..." : "",
                                   " (--strict makes that an error)"));
    }
  }
  r.comparisons.push_back(compare_usage(*db, r.usage.visits, base.values, req.ranks, req.k));
  if (req.source) {
    RankOptions o = req.rank;
    for (PageId u = 0; u < db->num_pages(); ++u) {
      if (r.usage.visits[u] > 0) o.source.emplace_back(u, r.usage.visits[u]);
    }
    o.threads = run.threads;
    o.stop = run.stop;
    RankResult source_rank = compute_rank(db->graph(), o);
    save_ranks(*db, req.name, source_rank, o);
    r.comparisons.push_back(compare_usage(*db, r.usage.visits, source_rank.ranks, req.name, req.k));
    if (!source_rank.converged) {
      r.notices.not_converged = true;
      r.notices.warnings.push_back(cat("'", req.name, "' did not converge (L1 change ",
                                       scientific(source_rank.final_delta), ")"));
    }
    r.arrays.emplace_back(req.name, std::move(source_rank.ranks));
    r.source_rank = std::move(source_rank);
  }
  return r;
}

CrawlOrderResult crawl_order(Session* session, const CrawlOrderRequest& req, const Run& run) {
  const auto db = session->database();
  if (db->num_pages() == 0)
    fail(ErrorKind::kInvalidInput, session->path().string(), ": the web has no pages");
  CrawlOrderOptions o = req.study;
  o.seed = req.seed.empty() ? 0 : find_page_or_fail(*db, session->path().string(), req.seed);
  if (!req.orders.empty()) {
    o.orders.clear();
    for (const auto& name : req.orders) o.orders.push_back(*value_in(names(CrawlOrder{}), name));
  }
  o.threads = run.threads;
  o.stop = run.stop;
  CrawlOrderResult r;
  if (o.hot_by == HotBy::kPageRank) {
    const auto names = db->rank_names();
    if (std::find(names.begin(), names.end(), req.ranks) != names.end()) {
      o.final_ranks = load_ranks(*db, req.ranks).values;
    } else {
      r.notices.said.push_back(cat("crawl-order: no vector '", req.ranks,
                                   "' stored: computing PageRank of the whole web (not stored)"));
      RankOptions ro;
      ro.threads = o.threads;
      ro.stop = o.stop;
      o.final_ranks = compute_rank(db->graph(), ro).ranks;
    }
  }
  if (run.on_progress) o.on_progress = [&run](const CrawlOrderProgress& p) { run.on_progress(p); };
  r.study = simulate_crawl_orders(db->graph(), o);
  r.seed_label = db->label(r.study.seed);
  r.pagerank_order =
      std::find(o.orders.begin(), o.orders.end(), CrawlOrder::kPageRank) != o.orders.end();
  if (!req.out.empty()) {
    const CrawlOrderStudy& s = r.study;
    std::string tsv = "# crawled";
    for (const CrawlCurve& c : s.curves) tsv += cat("\t", to_string(c.order));
    tsv += "\tideal\n";
    for (std::size_t i = 0; i < s.ideal.crawled.size(); ++i) {
      tsv += cat(s.ideal.crawled[i]);
      for (const CrawlCurve& c : s.curves) tsv += cat("\t", i < c.hot.size() ? c.hot[i] : 1.0);
      tsv += cat("\t", s.ideal.hot[i], "\n");
    }
    write_output_file(req.out, tsv);
  }
  if (!req.html.empty()) {
    write_output_file(req.html,
                      render_chart_page("webrank crawl-order: " + session->path().string(),
                                        "crawlOrder", nlohmann::json(r)));
  }
  return r;
}

HostsResult hosts(Session* session, const HostsRequest& req, const Run& run) {
  check_rank_name(req.hosts.rank_name);
  const auto db = session->database();
  HostGraphOptions o = req.hosts;
  o.rank.threads = run.threads;
  o.rank.stop = run.stop;
  HostsResult r;
  r.report = build_host_graph(*db, req.output, o);
  r.k = req.k;
  r.output = req.output;
  r.by = o.by;
  r.keep_internal = o.keep_internal;
  if (!r.report.hostrank.converged) {
    r.notices.not_converged = true;
    r.notices.warnings.push_back(cat("HostRank did not converge (L1 change ",
                                     scientific(r.report.hostrank.final_delta), ")"));
  }
  return r;
}

CentralityResult centrality(Session* session, const CentralityRequest& req, const Run& run) {
  if (!req.harmonic) fail_option("harmonic", "say which centrality: ", option_ref("harmonic"));
  check_rank_name(req.name);
  const auto db = session->database();
  HarmonicOptions o = req.harmonic_options;
  o.threads = run.threads;
  o.stop = run.stop;
  if (run.on_progress) o.on_progress = [&run](const HarmonicProgress& p) { run.on_progress(p); };
  CentralityResult r;
  r.result = harmonic_centrality(db->graph(), o);
  save_harmonic(*db, req.name, r.result);
  if (!req.out.empty()) write_rank_tsv(*db, r.result.values, req.out);
  r.name = req.name;
  r.pages = db->num_pages();
  const auto names = db->rank_names();
  const bool comparable = !req.compare.empty() && req.compare != req.name &&
                          std::find(names.begin(), names.end(), req.compare) != names.end();
  if (comparable && db->num_pages() > 0) {
    const StoredRanks other = load_ranks(*db, req.compare);
    const std::uint64_t ks[] = {10, 100, 1000};
    r.comparison = webrank::compare_ranks(r.result.values, other.values, ks);
    r.compared_with = req.compare;
  }
  r.top = top_ranked_pages(*db, r.result.values, req.k);
  r.arrays.emplace_back(req.name, std::move(r.result.values));
  return r;
}

ReportResult report(Session* session, const ReportRequest& req, const Run&) {
  const auto db = session->database();
  const ReportOptions& o = req.report;
  const auto keeper =
      session->keep<ReportKeeper>("report", [] { return std::make_shared<ReportKeeper>(); });
  const auto data = keeper->get(db, o);
  ReportResult r;
  r.data = *data;
  if (!req.page.empty()) {
    const PageId page = find_page_or_fail(*db, session->path().string(), req.page);
    const auto& d = data->distribution;
    r.page = place_in_report(*db, *data, page,
                             d ? load_ranks(*db, d->vector).values : std::vector<double>{});
  }
  if (!req.output.empty()) {
    const std::string text =
        req.format == "json" ? json_text(nlohmann::json(*data)) + "\n" : render_report_html(*data);
    write_output_file(req.output, text);
    r.output = req.output;
    r.bytes = text.size();
    if (req.output != "-") {
      r.notices.said.push_back(
          cat("report: ", req.output, " (", format_bytes(static_cast<double>(text.size())), "; ",
              data->top.size(), " vectors, ", data->summary.stats.pages, " pages)"));
    }
  }
  return r;
}

void add_studies_operations(std::vector<Operation>& table) {
  const std::string group = "Studies";
  table.push_back(make_operation(
      {.name = "explain",
       .group = group,
       .summary = "Why a page ranks where it does: its rank split term by term, backlink by "
                  "backlink, and what-ifs",
       .served = true,
       .cost = Cost::kSolve},
      explain_options(), &explain));
  table.push_back(make_operation(
      {.name = "usage",
       .group = group,
       .summary = "Compare PageRank with real usage (visit counts or an access log): "
                  "correlations and the pages they disagree on"},
      usage_options(), &usage));
  table.push_back(make_operation(
      {.name = "crawl-order",
       .group = group,
       .summary = "Simulate crawls in PageRank, backlink, breadth-first and random order and "
                  "measure how soon they find the hot pages"},
      crawl_order_options(), &crawl_order));
  table.push_back(make_operation(
      {.name = "hosts",
       .group = group,
       .summary = "Build the host graph (hosts or pay-level domains, links weighted by page "
                  "links) with HostRank"},
      hosts_options(), &hosts));
  table.push_back(make_operation(
      {.name = "centrality",
       .group = group,
       .summary = "Harmonic centrality (HyperBall), stored as a vector and compared with "
                  "PageRank",
       .access = Access::kWrite},
      centrality_options(), &centrality));
  table.push_back(make_operation(
      {.name = "report",
       .group = group,
       .summary = "Write one self-contained HTML page of interactive charts about the web",
       .served = true},
      report_options(), &report));
}

}  // namespace webrank::app
