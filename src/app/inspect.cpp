// Looking at a database and its vectors (webrank/app/inspect.hpp): the use cases, their option
// declarations and their entries in the table of operations.
#include "webrank/app/inspect.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "app/registry.hpp"
#include "webrank/app/app_json.hpp"
#include "webrank/ingest/page_weights_file.hpp"
#include "webrank/ingest/rank_sources.hpp"
#include "webrank/store/rank_store.hpp"
#include "webrank/web/sanitize.hpp"
#include "webrank/web/url.hpp"

namespace webrank::app {
namespace {

// A vector's name, as every option naming a stored vector declares it.
constexpr const char* kRanksHelp = "Which stored rank vector";

// The vector a reader shows: `name`, except that the default ("pagerank") on a database that
// does not store it but stores exactly one vector (a host database's "hostrank") is that one,
// said in `notices`. Otherwise `name`, missing or not (load_ranks names what is stored).
std::string vector_to_show(const Database& db, const std::string& name, Notices& notices) {
  const auto names = db.rank_names();
  if (name != "pagerank" || names.size() != 1 ||
      std::find(names.begin(), names.end(), name) != names.end()) {
    return name;
  }
  notices.said.push_back(cat("showing '", names.front(), "', the only rank vector of ",
                             db.path().string(), " (it has no 'pagerank')"));
  return names.front();
}

// The stored vector `asked` for presenting pages (vector_to_show), with what every reader says of
// its state (note_vector_state). The default on a database that stores no vector yet presents
// every page at rank 0 (in id order, no bar), said in a warning, as search does.
PresentedRanks presented(const Database& db, const std::string& asked, Notices& notices) {
  if (asked == "pagerank" && db.rank_names().empty()) {
    notices.warnings.push_back(cat("no rank vector in ", db.path().string(),
                                   ": pages are shown without ranks (run `webrank rank`)"));
    return PresentedRanks(std::vector<double>(db.num_pages(), 0.0), "");
  }
  const std::string name = vector_to_show(db, asked, notices);
  PresentedRanks ranks(load_ranks(db, name));
  note_vector_state(ranks, notices);
  return ranks;
}

// The values a comparison reads from `what`: a stored vector of db if there is one by that name,
// else a LABEL<TAB>VALUE file (its labels must be pages of db); NaN where the file gives none.
std::vector<double> values_of(const Database& db, const std::string& what, bool& from_file) {
  const auto names = db.rank_names();
  if (std::find(names.begin(), names.end(), what) != names.end())
    return load_ranks(db, what).values;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(what, ec)) {
    std::string have;
    for (const auto& n : names) have += (have.empty() ? "" : ", ") + n;
    fail(ErrorKind::kNotFound, what, ": neither a rank vector of ", db.path().string(),
         " (stored: ", have.empty() ? "none" : have, ") nor a LABEL<TAB>VALUE file");
  }
  from_file = true;
  std::vector<double> by_page(db.num_pages(), NAN);
  for (const auto& [page, value] : read_page_weights(db, what)) by_page[page] = value;
  return by_page;
}

const OptionSet<InfoOptions>& info_options() {
  static const OptionSet<InfoOptions> set;
  return set;
}

const OptionSet<CheckOptions>& check_options() {
  static const OptionSet<CheckOptions> set = [] {
    OptionSet<CheckOptions> s;
    s.add("ranks", WR_FIELD(ranks),
          "Recompute this stored vector's residual with an independent pass and hold it to the "
          "tolerance it was computed to (repeatable)")
        .as("NAME");
    return s;
  }();
  return set;
}

const OptionSet<RanksOptions>& ranks_options() {
  static const OptionSet<RanksOptions> set = [] {
    OptionSet<RanksOptions> s;
    s.add("delete", WR_FIELD(remove),
          "Delete this stored vector (repeatable; a HITS name such as 'hits' deletes "
          "hits.authority and hits.hub)")
        .as("NAME");
    return s;
  }();
  return set;
}

const OptionSet<TopOptions>& top_options() {
  static const OptionSet<TopOptions> set = [] {
    OptionSet<TopOptions> s;
    s.add("k", WR_FIELD(k), "How many pages")
        .in(closed(1, 1e18))
        .serve_in(closed(1, kServedMaxResults))
        .as("N", "pages");
    s.add("ranks", WR_FIELD(ranks), kRanksHelp).as("NAME").alias("name");
    s.add("topics", WR_FIELD(topics),
          "Rank by a mix of topic vectors (webrank topics), e.g. \"Science=0.7,Sports=0.3\" "
          "(weights normalized to sum 1)")
        .as("MIX");
    return s;
  }();
  return set;
}

const OptionSet<PageOptions>& page_options() {
  static const OptionSet<PageOptions> set = [] {
    OptionSet<PageOptions> s;
    s.add("page", WR_FIELD(page), "The page's label (its URL on crawled webs)")
        .as("LABEL")
        .at(0)
        .needed()
        .http("url");
    return s;
  }();
  return set;
}

OptionSet<LinksOptions> links_option_set(bool paged) {
  OptionSet<LinksOptions> s;
  s.add("page", WR_FIELD(page), "The page (its URL or label)").as("URL").at(0).needed().http("url");
  if (paged) {
    s.add("k", WR_FIELD(k), "Pages to show")
        .in(closed(1, 1e18))
        .serve_in(closed(1, kServedMaxResults))
        .as("N", "pages");
    s.add("offset", WR_FIELD(offset), "Pages to skip")
        .in(at_least(0))
        .serve_in(closed(0, static_cast<double>(kMaxOffset)))
        .as("N", "pages");
  }
  s.add("ranks", WR_FIELD(ranks), kRanksHelp).as("NAME");
  return s;
}

const OptionSet<LinksOptions>& backlinks_options() {
  static const OptionSet<LinksOptions> set = links_option_set(true);
  return set;
}

const OptionSet<LinksOptions>& forward_links_options() {
  static const OptionSet<LinksOptions> set = links_option_set(false);
  return set;
}

const OptionSet<CompareRanksOptions>& compare_ranks_options() {
  static const OptionSet<CompareRanksOptions> set = [] {
    OptionSet<CompareRanksOptions> s;
    s.add("a", WR_FIELD(a), "A stored vector's name, or a LABEL<TAB>VALUE file")
        .as("A")
        .at(0)
        .needed();
    s.add("b", WR_FIELD(b), "A stored vector's name, or a LABEL<TAB>VALUE file")
        .as("B")
        .at(1)
        .needed();
    s.add("k", WR_FIELD(k), "Sizes of the top lists compared (repeatable; default 10 100 1000)")
        .in(closed(1, 1e18))
        .as("N", "pages");
    return s;
  }();
  return set;
}

const OptionSet<StatusOptions>& status_options() {
  static const OptionSet<StatusOptions> set = [] {
    OptionSet<StatusOptions> s;
    s.add("ranks", WR_FIELD(ranks),
          "The stored rank vector results are ranked by (default: pagerank, when the database "
          "has it)")
        .as("NAME");
    return s;
  }();
  return set;
}

const OptionSet<HistoryOptions>& history_options() {
  static const OptionSet<HistoryOptions> set = [] {
    OptionSet<HistoryOptions> s;
    s.add("ranks", WR_FIELD(ranks), kRanksHelp).as("NAME");
    return s;
  }();
  return set;
}

const OptionSet<ProxyOptions>& proxy_options() {
  static const OptionSet<ProxyOptions> set = [] {
    OptionSet<ProxyOptions> s;
    s.add("page", WR_FIELD(page), "The page (its URL or label)")
        .as("URL")
        .at(0)
        .needed()
        .http("url");
    s.add("ranks", WR_FIELD(ranks), kRanksHelp).as("NAME");
    return s;
  }();
  return set;
}

// The name a database goes by: its directory's ("g.db"), or the parent's for "g.db/".
std::string database_name(const std::filesystem::path& path) {
  std::string name = path.filename().string();
  if (name.empty() || name == ".") name = path.parent_path().filename().string();
  return name;
}

}  // namespace

InfoResult info(Session* session, const InfoOptions&, const Run&) {
  const auto db = session->database();
  InfoResult r;
  r.summary = summarize(*db);
  r.summary.path = session->path().string();
  for (const RankVectorSummary& v : r.summary.ranks) {
    if (!v.error.empty()) r.notices.errors.push_back(cat("rank vector '", v.name, "': ", v.error));
  }
  try {
    r.search_index = search_index_info(*db);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::kCorrupt) throw;
    r.search_index_error = e.what();
    r.notices.warnings.push_back(cat("search index: ", e.what()));
  }
  return r;
}

CheckResult check(Session* session, const CheckOptions& o, const Run&) {
  const auto db = session->database();
  // Everything is read, whatever an earlier verification recorded; success is recorded.
  db->verify();
  const auto names = db->rank_names();
  for (const auto& name : names) load_ranks(*db, name);  // verifies the vector's checksums
  // A vector asked for that is not stored is named before anything is reported.
  for (const auto& name : o.ranks) {
    if (std::find(names.begin(), names.end(), name) == names.end()) load_ranks(*db, name);
  }
  CheckResult r;
  r.pages = db->num_pages();
  r.links = db->num_links();
  r.vector_count = names.size();
  // Intact but stale vectors are said even when not checked (--ranks checks them).
  for (const RankVectorSummary& v : summarize_stored_ranks(*db)) {
    const bool asked = std::find(o.ranks.begin(), o.ranks.end(), v.name) != o.ranks.end();
    if (!asked && v.error.empty() && v.record.stale) {
      r.notices.warnings.push_back(
          cat("rank vector '", v.name, "' is stale: ", v.record.stale->reason));
    }
  }
  for (const auto& name : o.ranks) {
    r.verdicts.push_back(check_rank_vector(*db, name));
    const RankCheck& c = r.verdicts.back();
    if (c.stale) r.notices.errors.push_back(cat("rank vector '", name, "' is ", c.reason));
    if (c.checkable && !c.ok) {
      r.notices.errors.push_back(c.sum_ok
                                     ? cat("rank vector '", name, "' is not within its tolerance")
                                     : cat("rank vector '", name, "' sums to ", c.sum,
                                           ", not 1 (within ", c.sum_allowed, ")"));
    }
  }
  return r;
}

RanksResult ranks(Session* session, const RanksOptions& o, const Run&) {
  const auto db = session->database();
  RanksResult r;
  for (const std::string& name : o.remove) {
    const auto names = db->rank_names();
    const bool stored = std::find(names.begin(), names.end(), name) != names.end();
    const bool hits =
        !stored && std::find(names.begin(), names.end(), name + ".authority") != names.end();
    for (const std::string& n : hits ? std::vector<std::string>{name + ".authority", name + ".hub"}
                                     : std::vector<std::string>{name}) {
      delete_ranks(*db, n);
      r.deleted.push_back(n);
      r.notices.said.push_back(cat("deleted '", n, "' from ", session->path().string()));
    }
  }
  r.vectors_stored = summarize_stored_ranks(*db);
  return r;
}

TopResult top(Session* session, const TopOptions& o, const Run&) {
  const auto db = session->database();
  TopResult r;
  r.pages_in_web = db->num_pages();
  if (o.topics.empty()) {
    // Not presented: the top k need no percentile of every page (a sort of the whole vector).
    const std::string name = vector_to_show(*db, o.ranks, r.notices);
    const StoredRanks s = load_ranks(*db, name);
    note_vector_state(name, s.record, r.notices);
    r.pages = top_ranked_pages(*db, s.values, o.k);
  } else {
    const TopicMix mix = TopicMix::load(*db, parse_topic_weights(o.topics));
    r.mix = mix.weights();
    r.pages = top_ranked_pages(*db, mix.scores(), o.k);
  }
  return r;
}

PageResult page(Session* session, const PageOptions& o, const Run&) {
  const auto db = session->database();
  PageResult r;
  r.report = describe_page(*db, find_page_or_fail(*db, session->path().string(), o.page));
  for (const PageVectorPlace& v : r.report.ranks) {
    if (v.error.empty()) note_vector_state(v.name, v.converged, v.stale, r.notices);
  }
  r.copies = db->has_stored_html();
  return r;
}

BacklinksResult backlinks(Session* session, const LinksOptions& o, const Run&) {
  const auto db = session->database();
  const PageId page = find_page_or_fail(*db, session->path().string(), o.page);
  BacklinksResult r;
  const PresentedRanks ranks = presented(*db, o.ranks, r.notices);
  r.url = db->label(page);
  r.ranks = ranks.name();
  r.offset = o.offset;
  r.k = o.k;
  r.backlinks = webrank::backlinks(*db, ranks, page, o.k, o.offset);
  return r;
}

LinksResult links(Session* session, const LinksOptions& o, const Run&) {
  const auto db = session->database();
  const PageId page = find_page_or_fail(*db, session->path().string(), o.page);
  LinksResult r;
  const PresentedRanks ranks = presented(*db, o.ranks, r.notices);
  r.url = db->label(page);
  r.ranks = ranks.name();
  r.links = forward_links(*db, ranks, page);
  return r;
}

StatusResult status(Session* session, const StatusOptions& o, const Run&) {
  const std::string ranks = o.ranks.empty() ? "pagerank" : o.ranks;
  const Searcher& searcher = session->searcher(ranks, !o.ranks.empty(), /*index_optional=*/true);
  const auto db = searcher.database();
  StatusResult r;
  r.database = database_name(session->path());
  r.pages = db->num_pages();
  r.links = db->num_links();
  if (const auto presented = searcher.ranks()) r.ranks = presented->name();
  r.search = searcher.has_index();
  return r;
}

HistoryResult history(Session* session, const HistoryOptions& o, const Run&) {
  const auto db = session->database();
  HistoryResult r;
  check_rank_name(o.ranks);
  r.ranks = vector_to_show(*db, o.ranks, r.notices);
  const StoredRanks stored = load_ranks(*db, r.ranks);
  r.converged = stored.record.converged;
  r.iterations = stored.record.iterations;
  r.l1 = stored.record.deltas;
  return r;
}

ProxyResult proxy(Session* session, const ProxyOptions& o, const Run&) {
  const auto db = session->database();
  const PageId page = find_page_or_fail(*db, session->path().string(), o.page);
  ProxyResult r;
  const PresentedRanks ranks = presented(*db, o.ranks, r.notices);
  r.url = db->label(page);
  r.ranked = ranks.page(*db, page);
  auto html = db->html(page);
  if (!html) {
    fail(ErrorKind::kNotFound, "no stored copy of ", r.url,
         db->has_stored_html() ? " (not fetched, or not HTML)"
                               : " (the database keeps no page copies: crawl it again)");
  }
  r.html = std::move(*html);
  const std::string page_url = std::string(db->final_url(page).value_or(r.url));
  // The links sanitize_page() keeps, in its order: what a front end rewriting the copy is handed.
  const LinkRewriter record = [&](std::string_view href, std::string_view base) {
    ProxyLink link;
    link.href = href;
    std::string from = page_url;
    if (!base.empty()) {
      if (auto b = resolve_link(page_url, base)) from = *b;
    }
    link.target = resolve_link(from, href);
    if (link.target) {
      if (const auto id = find_page(*db, *link.target)) link.page = ranks.page(*db, *id);
    }
    r.links.push_back(std::move(link));
    return LinkRewrite{};
  };
  r.title = sanitize_page(r.html, record).title;
  return r;
}

CompareRanksResult compare_ranks(Session* session, const CompareRanksOptions& o, const Run&) {
  const auto db = session->database();
  CompareRanksResult r;
  r.a = o.a;
  r.b = o.b;
  r.pages_in_web = db->num_pages();
  const std::vector<double> a = values_of(*db, o.a, r.from_file);
  const std::vector<double> b = values_of(*db, o.b, r.from_file);
  // A file gives values for the pages it lists: both vectors are compared on those.
  std::vector<double> va, vb;
  std::vector<PageId> pages;
  for (PageId u = 0; u < db->num_pages(); ++u) {
    if (std::isnan(a[u]) || std::isnan(b[u])) continue;
    va.push_back(a[u]);
    vb.push_back(b[u]);
    pages.push_back(u);
  }
  if (va.empty()) fail(ErrorKind::kInvalidInput, "no page has a value in both vectors");
  r.comparison = webrank::compare_ranks(va, vb, o.k);
  r.max_difference_label = db->label(pages[r.comparison.max_difference_at]);
  return r;
}

void add_inspect_operations(std::vector<Operation>& table) {
  const std::string group = "Look at ranks";
  table.push_back(make_operation({.name = "info",
                                  .group = group,
                                  .summary = "Show a database's pages, links and degree statistics",
                                  .served = true},
                                 info_options(), &info));
  table.push_back(make_operation(
      {.name = "status",
       .group = group,
       .summary = "Show what a server of the database serves: its pages and links, the vector "
                  "results are ranked by, and whether search is on",
       .served = true,
       .verifies = false,
       .cost = Cost::kBounded},
      status_options(), &status));
  table.push_back(make_operation(
      {.name = "check",
       .group = group,
       .summary = "Verify every checksum of a database and its rank vectors; with --ranks, "
                  "recompute the residual of stored vectors (exit 1 on damage or a vector outside "
                  "its tolerance)",
       .verifies = false},
      check_options(), &check));
  table.push_back(make_operation({.name = "ranks",
                                  .group = group,
                                  .summary = "List the stored rank vectors, or delete some",
                                  .access = Access::kWrite,
                                  .verifies = false},
                                 ranks_options(), &ranks));
  table.push_back(make_operation({.name = "top",
                                  .group = group,
                                  .summary = "Show the pages of highest rank",
                                  .served = true,
                                  .verifies = false},
                                 top_options(), &top));
  table.push_back(make_operation(
      {.name = "page",
       .group = group,
       .summary = "Show one page: title, status, links in and out, and its ranks in every vector",
       .served = true},
      page_options(), &page));
  table.push_back(make_operation(
      {.name = "backlinks",
       .group = group,
       .summary = "Show the pages linking to a page, ordered by their rank (PageRank)",
       .served = true,
       .verifies = false},
      backlinks_options(), &backlinks));
  table.push_back(make_operation(
      {.name = "links",
       .group = group,
       .summary = "Show the links of a page, each with the target's rank and log bar",
       .served = true,
       .verifies = false},
      forward_links_options(), &links));
  table.push_back(
      make_operation({.name = "history",
                      .group = group,
                      .summary = "Show the L1 change of every iteration of a stored vector",
                      .served = true,
                      .verifies = false},
                     history_options(), &history));
  table.push_back(make_operation(
      {.name = "proxy",
       .group = group,
       .summary = "Show the links of a crawled page's stored copy, each resolved and ranked (the "
                  "server's proxy view)",
       .served = true,
       .verifies = false},
      proxy_options(), &proxy));
  table.push_back(make_operation(
      {.name = "compare-ranks",
       .group = group,
       .summary = "Compare two rank vectors (stored, or a LABEL<TAB>VALUE file): L1, Kendall's "
                  "tau, Spearman's rho, top-k overlap",
       .verifies = false},
      compare_ranks_options(), &compare_ranks));
}

}  // namespace webrank::app
