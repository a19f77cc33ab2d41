#include "views.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "html.hpp"
#include "operation_routes.hpp"
#include "proxy.hpp"
#include "templates.hpp"
#include "webrank/app/ranking.hpp"
#include "webrank/json.hpp"
#include "webrank/rank/compare.hpp"
#include "webrank/report/report.hpp"
#include "webrank/search/links.hpp"
#include "webrank/serve/serve.hpp"
#include "webrank/store/rank_store.hpp"
#include "webrank/util/error.hpp"
#include "webrank/web/url.hpp"

namespace webrank::serve {
namespace {

constexpr std::size_t kDefaultBacklinks = 20;
constexpr std::size_t kShownForwardLinks = 500;

std::size_t size_param(const Params& params, const char* name, std::size_t fallback,
                       std::size_t low, std::size_t high) {
  const auto text = params(name);
  if (!text || text->empty()) return fallback;
  std::size_t value = 0;
  const char* end = text->data() + text->size();
  const auto [ptr, ec] = std::from_chars(text->data(), end, value);
  if (ec != std::errc() || ptr != end || value < low || value > high) {
    throw Error(
        ErrorKind::kInvalidArgument,
        cat("must be a whole number in [", low, ", ", high, "], got '", text->substr(0, 32), "'"),
        name);
  }
  return value;
}

SearchMode mode_param(const Params& params) {
  const std::string m = params("mode").value_or("full");
  if (m == "full" || m.empty()) return SearchMode::kFull;
  if (m == "text") return SearchMode::kText;
  if (m == "title") return SearchMode::kTitle;
  throw Error(ErrorKind::kInvalidArgument, "must be full, text or title", "mode");
}

bool is_web_url(std::string_view url) {
  return url.starts_with("http://") || url.starts_with("https://");
}

// The rank vector of the site, or all zeros when the database has none yet (pages then show no
// bar, in id order).
std::shared_ptr<const PresentedRanks> ranks_of(const Site& site, const Database& db) {
  if (auto r = site.searcher.ranks()) return r;
  return std::make_shared<const PresentedRanks>(std::vector<double>(db.num_pages(), 0.0), "");
}

// The page a parameter names (a URL or label, as find_page() reads it), or ?id=N for `url`.
PageId page_param(const Database& db, const Params& params, const char* name = "url") {
  if (const auto id = params("id"); std::string_view(name) == "url" && id && !id->empty()) {
    if (db.num_pages() == 0) fail(ErrorKind::kNotFound, "the database has no pages");
    return static_cast<PageId>(size_param(params, "id", 0, 0, db.num_pages() - 1));
  }
  const auto url = params(name);
  if (!url || url->empty()) {
    throw Error(ErrorKind::kInvalidArgument, "is missing: which page (a URL)", name);
  }
  if (url->size() > kMaxQueryBytes * 4) {
    throw Error(ErrorKind::kInvalidArgument, cat("is longer than ", kMaxQueryBytes * 4, " bytes"),
                name);
  }
  const auto page = find_page(db, *url);
  if (!page) fail(ErrorKind::kNotFound, "no page ", *url, " in the database");
  return *page;
}

// A page of the server: layout.tpl (the head, the search box, the footer) around the view's
// template, whose dictionary body() is. Values go in as text; the templates escape them.
class Page {
 public:
  Page(const Site& site, const Database& db, const std::string& title, const char* view)
      : root_("page"), body_(include(root_, "BODY", view)) {
    root_.SetValue(key("TITLE"), title);
    root_.SetValue(key("DATABASE"), site.name);
    root_.SetValue(key("PAGES"), thousands(db.num_pages()));
    if (const auto ranks = site.searcher.ranks()) {
      root_.SetValueAndShowSection(key("RANKS"), ranks->name(), key("RANKED"));
    } else {
      root_.ShowSection(key("UNRANKED"));
    }
  }
  Page(const Page&) = delete;
  Page& operator=(const Page&) = delete;

  Dictionary& body() { return *body_; }
  // The search box holds `query` in `mode`.
  void search_box(const std::string& query, const std::string& mode) {
    query_ = query;
    mode_ = mode;
  }
  // The footer links to the JSON of the view at `path`.
  void json(const std::string& path) {
    root_.SetValueAndShowSection(key("PATH"), path, key("JSON"));
  }
  // Loads uPlot, charts.js and serve.js, which draws the charts.
  void charts() { root_.ShowSection(key("CHARTS")); }

  std::string render() {
    root_.SetValue(key("QUERY"), query_);
    for (const char* m : {"full", "text", "title"}) {
      Dictionary* option = root_.AddSectionDictionary(key("MODE"));
      option->SetValue(key("NAME"), m);
      if (mode_ == m) option->ShowSection(key("SELECTED"));
    }
    return expand("layout.tpl", root_);
  }

 private:
  Dictionary root_;
  Dictionary* body_;
  std::string query_, mode_ = "full";
};

// page_link.tpl: the page's title (or URL) linking to its page view.
void include_link(Dictionary& dict, const char* marker, const RankedPage& p) {
  Dictionary* link = include(dict, marker, "page_link.tpl");
  link->SetValue(key("URL"), p.label);
  link->SetValue(key("SHOWN"), p.title && !p.title->empty() ? *p.title : p.label);
}

void include_page_bar(Dictionary& dict, const char* marker, const RankedPage& p,
                      std::uint64_t pages) {
  include_bar(dict, marker, p.bar, page_bar_tooltip(p, pages));
}

// ranked_row.tpl: one row of a list of ranked pages.
void include_ranked_row(Dictionary& dict, const char* marker, const RankedPage& p,
                        std::uint64_t pages, bool nofollow = false) {
  Dictionary* row = include(dict, marker, "ranked_row.tpl");
  include_page_bar(*row, "BAR", p, pages);
  row->SetValue(key("WORDS"), rank_words(p, pages));
  include_link(*row, "LINK", p);
  row->SetValue(key("URL"), p.label);
  if (nofollow) row->ShowSection(key("NOFOLLOW"));
}

// A search hit's snippet: the text in parts, each followed by the words it matched (<mark>).
void fill_snippet(Dictionary& hit, const Snippet& s) {
  Dictionary* d = hit.AddSectionDictionary(key("SNIPPET"));
  if (s.cut_before) d->ShowSection(key("CUT_BEFORE"));
  const std::string_view text = s.text;
  std::size_t at = 0;
  for (const TextSpan& m : s.matches) {
    if (m.begin < at || m.end > text.size() || m.begin > m.end) continue;
    Dictionary* part = d->AddSectionDictionary(key("PART"));
    part->SetValue(key("TEXT"), std::string(text.substr(at, m.begin - at)));
    part->SetValueAndShowSection(key("MARKED"), std::string(text.substr(m.begin, m.end - m.begin)),
                                 key("MARK"));
    at = m.end;
  }
  d->AddSectionDictionary(key("PART"))
      ->SetValue(key("TEXT"), std::string(text.substr(std::min(at, text.size()))));
  if (s.cut_after) d->ShowSection(key("CUT_AFTER"));
}

SearchResults run_search(const Site& site, const Params& params) {
  SearchOptions o;
  o.mode = mode_param(params);
  o.k = size_param(params, "k", 10, 1, kServeMaxResults);
  o.offset = size_param(params, "offset", 0, 0, kMaxOffset);
  const std::string q = params("q").value_or("");
  return site.searcher.search(q, o);
}

std::string search_url(std::string_view q, std::string_view mode, std::size_t offset,
                       std::size_t k) {
  std::string url = cat("/search?q=", url_param(q), "&mode=", mode);
  if (offset) url += cat("&offset=", offset);
  if (k != 10) url += cat("&k=", k);
  return url;
}

// The L1 change of every iteration of the site's vector, from its metadata; empty when there is
// none or it cannot be read.
std::vector<double> history_of(const Database& db, const std::string& name) {
  if (name.empty()) return {};
  try {
    return load_ranks(db, name).record.deltas;
  } catch (const Error&) {
    return {};
  }
}

// The L1 history as an inline SVG line on a log scale (no script needed), into page.tpl's
// HISTORY section.
void fill_history(Dictionary& history, const std::vector<double>& deltas) {
  std::vector<double> y;
  for (double d : deltas) {
    if (d > 0 && std::isfinite(d)) y.push_back(std::log10(d));
  }
  if (y.size() < 2) {
    history.ShowSection(key("NO_ITERATIONS"));
    return;
  }
  const double lo = std::floor(*std::min_element(y.begin(), y.end()));
  const double hi = std::ceil(*std::max_element(y.begin(), y.end()));
  const double span = std::max(hi - lo, 1.0);
  constexpr double kW = 600, kH = 180, kLeft = 48, kBottom = 20;
  std::string points;
  for (std::size_t i = 0; i < y.size(); ++i) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f,%.1f ",
                  kLeft + (kW - kLeft - 8) * static_cast<double>(i) / (y.size() - 1),
                  8 + (kH - kBottom - 8) * (hi - y[i]) / span);
    points += buf;
  }
  Dictionary* chart = history.AddSectionDictionary(key("CHART"));
  chart->SetValue(key("W"), cat(kW));
  chart->SetValue(key("H"), cat(kH));
  chart->SetValue(key("LEFT"), cat(kLeft));
  for (double e = lo; e <= hi; e += std::max(1.0, std::round(span / 4))) {
    const double py = 8 + (kH - kBottom - 8) * (hi - e) / span;
    Dictionary* axis = chart->AddSectionDictionary(key("AXIS"));
    axis->SetValue(key("TEXT_Y"), cat(py + 4));
    axis->SetValue(key("EXPONENT"), cat(static_cast<int>(e)));
    axis->SetValue(key("Y"), cat(py));
  }
  chart->SetValue(key("BOTTOM"), cat(kH - 4));
  chart->SetValue(key("LAST_X"), cat(kW - 90));
  chart->SetValue(key("ITERATIONS"), cat(y.size()));
  chart->SetValue(key("POINTS"), points);
}

}  // namespace

std::string error_html(const Site& site, int status, std::string_view message) {
  const auto db = site.searcher.database();
  Page page(site, *db, cat("Error ", status), "error.tpl");
  page.body().SetValue(key("STATUS"), cat(status));
  page.body().SetValue(key("MESSAGE"), std::string(message));
  return page.render();
}

std::string home_html(const Site& site) {
  const auto db = site.searcher.database();
  const auto ranks = site.searcher.ranks();
  Page page(site, *db, "Search", "home.tpl");
  Dictionary& body = page.body();
  body.SetValue(key("DATABASE"), site.name);
  body.SetValue(key("PAGES"), thousands(db->num_pages()));
  body.SetValue(key("LINKS"), thousands(db->num_links()));
  if (!site.searcher.has_index()) body.ShowSection(key("NO_INDEX"));
  if (ranks) {
    Dictionary* top = body.AddSectionDictionary(key("TOP"));
    top->SetValue(key("RANKS"), ranks->name());
    for (const RankedPage& p : top_ranked_pages(*db, ranks->values(), 10)) {
      include_ranked_row(*top, "ROW", p, db->num_pages());
    }
  }
  return page.render();
}

nlohmann::json search_json(const Site& site, const Params& params) {
  return run_search(site, params);
}

std::string search_html(const Site& site, const Params& params) {
  const auto db = site.searcher.database();
  const std::string q = params("q").value_or("");
  if (q.empty()) return home_html(site);
  const SearchMode mode = mode_param(params);
  const std::string mode_name = to_string(mode);
  const std::uint64_t n = db->num_pages();
  Page page(site, *db, q, "search.tpl");
  page.search_box(q, mode_name);
  Dictionary& body = page.body();
  SearchResults r;
  try {
    r = run_search(site, params);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::kInvalidArgument) throw;
    // A malformed query is the user's to fix: shown on the page, with status 200 so the box
    // keeps it.
    body.SetValueAndShowSection(key("MESSAGE"), e.what(), key("MALFORMED"));
    return page.render();
  }
  page.json("/api/v1/search?q=" + url_param(q) + "&mode=" + mode_name);
  Dictionary* results = body.AddSectionDictionary(key("RESULTS"));
  for (const char* m : {"full", "text", "title"}) {
    Dictionary* d = results->AddSectionDictionary(key("MODE"));
    d->SetValue(key("NAME"), m);
    if (m == mode_name) {
      d->ShowSection(key("CURRENT"));
    } else {
      d->SetValueAndShowSection(key("HREF"), search_url(q, m, 0, r.k), key("OTHER"));
    }
  }
  if (r.hits.empty()) {
    Dictionary* none = results->AddSectionDictionary(key("NONE"));
    none->SetValue(key("QUERY"), q);
    if (!r.unknown_words.empty()) {
      std::string words;
      for (const auto& w : r.unknown_words) words += (words.empty() ? "" : ", ") + w;
      Dictionary* unknown = none->AddSectionDictionary(key("UNKNOWN"));
      unknown->SetValue(key("WORDS"), words);
      if (mode == SearchMode::kTitle) unknown->ShowSection(key("TITLE"));
    } else if (r.offset > 0) {
      none->SetValueAndShowSection(key("OFFSET"), cat(r.offset), key("PAST"));
    }
    if (!r.suggestion.empty()) {
      Dictionary* s = none->AddSectionDictionary(key("SUGGESTION"));
      s->SetValue(key("HREF"), search_url(r.suggestion, mode_name, 0, r.k));
      s->SetValue(key("WORD"), r.suggestion);
    }
  } else {
    Dictionary* hits = results->AddSectionDictionary(key("HITS"));
    if (r.matches_lower != r.matches_upper) hits->ShowSection(key("ABOUT"));
    hits->SetValue(key("MATCHES"), thousands(r.matches_estimated));
    hits->SetValue(key("FIRST"), cat(r.hits.front().position));
    hits->SetValue(key("LAST"), cat(r.hits.back().position));
    for (const SearchHit& h : r.hits) {
      const RankedPage& p = h.page;
      Dictionary* hit = hits->AddSectionDictionary(key("HIT"));
      include_link(*hit, "LINK", p);
      hit->SetValue(key("URL"), p.label);
      include_page_bar(*hit, "BAR", p, n);
      hit->SetValue(key("WORDS"), rank_words(p, n));
      if (!h.snippet.text.empty()) fill_snippet(*hit, h.snippet);
    }
  }
  // Pagination: previous, the pages around this one, next.
  const std::size_t k = r.k, current = r.offset / k;
  const std::size_t last = r.matches_estimated == 0 ? 0 : (r.matches_estimated - 1) / k;
  if (r.offset > 0) {
    results->SetValueAndShowSection(key("HREF"),
                                    search_url(q, mode_name, r.offset - std::min(r.offset, k), k),
                                    key("PREVIOUS"));
  }
  for (std::size_t p = current > 4 ? current - 4 : 0; p <= std::min(last, current + 5); ++p) {
    if (p * k > kMaxOffset) break;
    Dictionary* d = results->AddSectionDictionary(key("PAGE"));
    d->SetValue(key("NUMBER"), cat(p + 1));
    if (p == current) {
      d->ShowSection(key("CURRENT"));
    } else {
      d->SetValueAndShowSection(key("HREF"), search_url(q, mode_name, p * k, k), key("OTHER"));
    }
  }
  if (current < last && (current + 1) * k <= kMaxOffset) {
    results->SetValueAndShowSection(key("HREF"), search_url(q, mode_name, (current + 1) * k, k),
                                    key("NEXT"));
  }
  return page.render();
}

nlohmann::json backlinks_json(const Site& site, const Params& params) {
  const auto db = site.searcher.database();
  const PageId page = page_param(*db, params);
  const auto ranks = ranks_of(site, *db);
  nlohmann::json j =
      backlinks(*db, *ranks, page, size_param(params, "k", kDefaultBacklinks, 1, kServeMaxResults),
                size_param(params, "offset", 0, 0, kMaxOffset));
  j["url"] = std::string(db->label(page));  // the form of `webrank backlinks --format json`
  j["ranks"] = ranks->name();
  return j;
}

nlohmann::json links_json(const Site& site, const Params& params) {
  const auto db = site.searcher.database();
  const PageId page = page_param(*db, params);
  const auto ranks = ranks_of(site, *db);
  return {{"url", std::string(db->label(page))},  // the form of `webrank links --format json`
          {"ranks", ranks->name()},
          {"links", forward_links(*db, *ranks, page)}};
}

nlohmann::json history_json(const Site& site, const Params& params) {
  const auto db = site.searcher.database();
  const auto ranks = site.searcher.ranks();
  std::string name = params("ranks").value_or(ranks ? ranks->name() : "");
  if (name.empty()) fail(ErrorKind::kNotFound, "no rank vector: run webrank rank");
  check_rank_name(name);
  const StoredRanks stored = load_ranks(*db, name);
  return {{"ranks", name},
          {"converged", stored.record.converged},
          {"iterations", stored.record.iterations},
          {"l1", stored.record.deltas}};
}

namespace {

std::shared_ptr<const GatheredReport> report_of(const Site& site,
                                                const std::shared_ptr<const Database>& db) {
  const auto ranks = site.searcher.ranks();
  return site.report->get(db, ranks ? ranks->name() : "");
}

}  // namespace

nlohmann::json report_json(const Site& site, const Params& params) {
  const auto db = site.searcher.database();
  const auto report = report_of(site, db);
  nlohmann::json j = report->json;
  j["page"] = nullptr;
  const auto url = params("url"), id = params("id");
  if ((url && !url->empty()) || (id && !id->empty())) {
    const PageId page = page_param(*db, params);
    const auto& d = report->data.distribution;
    // The distribution's vector is the site's when it has one: no need to read it again.
    const auto ranks = site.searcher.ranks();
    if (!d) {
      j["page"] = place_in_report(*db, report->data, page, {});
    } else if (ranks && ranks->name() == d->vector && ranks->values().size() == db->num_pages()) {
      j["page"] = place_in_report(*db, report->data, page, ranks->values());
    } else {
      j["page"] = place_in_report(*db, report->data, page, load_ranks(*db, d->vector).values);
    }
  }
  return j;
}

std::string report_html(const Site& site, const Params&) {
  const auto db = site.searcher.database();
  Page page(site, *db, "Charts of " + site.name, "report.tpl");
  page.json("/api/v1/report");
  page.charts();
  page.body().SetValue(key("DATABASE"), site.name);
  return page.render();
}

nlohmann::json page_json(const Site& site, const Params& params) {
  const auto db = site.searcher.database();
  const PageId page = page_param(*db, params);
  const auto ranks = ranks_of(site, *db);
  return {{"page", describe_page(*db, page)},
          {"ranks", ranks->name()},
          {"history", history_of(*db, ranks->name())},
          {"backlinks", backlinks(*db, *ranks, page,
                                  size_param(params, "k", kDefaultBacklinks, 1, kServeMaxResults),
                                  size_param(params, "offset", 0, 0, kMaxOffset))},
          {"links", forward_links(*db, *ranks, page)}};
}

std::string page_html(const Site& site, const Params& params) {
  const auto db = site.searcher.database();
  const PageId id = page_param(*db, params);
  const auto ranks = ranks_of(site, *db);
  const PageReport r = describe_page(*db, id);
  const std::uint64_t n = db->num_pages();
  const std::string shown = r.title && !r.title->empty() ? *r.title : r.label;
  Page page(site, *db, shown, "page.tpl");
  page.json("/api/v1/page?url=" + url_param(r.label));
  page.charts();
  Dictionary& body = page.body();
  body.SetValue(key("SHOWN"), shown);
  body.SetValue(key("URL"), r.label);
  if (is_web_url(r.label)) body.ShowSection(key("LIVE"));
  if (db->has_stored_html() && r.status && *r.status >= 200 && *r.status < 300) {
    body.ShowSection(key("STORED"));
  }
  if (r.status && *r.status == 0) body.ShowSection(key("UNFETCHED"));
  if (r.status && *r.status != 0)
    body.SetValueAndShowSection(key("CODE"), cat(*r.status), key("STATUS"));
  body.SetValue(key("IN_LINKS"), thousands(r.in_links));
  body.SetValue(key("OUT_LINKS"), thousands(r.out_links));
  if (r.nofollow_links)
    body.SetValueAndShowSection(key("COUNT"), cat(r.nofollow_links), key("NOFOLLOW"));

  if (r.ranks.empty()) {
    body.ShowSection(key("NO_RANKS"));
  } else {
    Dictionary* table = body.AddSectionDictionary(key("RANK_TABLE"));
    for (const PageVectorPlace& v : r.ranks) {
      Dictionary* vector = table->AddSectionDictionary(key("VECTOR"));
      vector->SetValue(key("NAME"), v.name);
      if (!v.error.empty()) {
        vector->SetValueAndShowSection(key("ERROR"), v.error, key("UNREADABLE"));
        continue;
      }
      Dictionary* read = vector->AddSectionDictionary(key("READ"));
      if (!v.converged) read->ShowSection(key("UNCONVERGED"));
      char rank[32];
      std::snprintf(rank, sizeof rank, "%.6g", v.rank);
      read->SetValue(key("RANK"), rank);
      read->SetValue(key("PERCENTILE"), format_percentile(v.percentile, n));
      read->SetValue(key("POSITION"), thousands(v.position));
      read->SetValue(key("PAGES"), thousands(n));
      include_bar(*read, "BAR", v.bar, cat(v.toolbar, "/10"));
      read->SetValue(key("TOOLBAR"), cat(v.toolbar));
    }
  }

  if (!ranks->name().empty()) {
    Dictionary* history = body.AddSectionDictionary(key("HISTORY"));
    history->SetValue(key("RANKS"), ranks->name());
    fill_history(*history, history_of(*db, ranks->name()));
  }

  const std::size_t k = size_param(params, "k", kDefaultBacklinks, 1, kServeMaxResults);
  const std::size_t offset = size_param(params, "offset", 0, 0, kMaxOffset);
  const Backlinks back = backlinks(*db, *ranks, id, k, offset);
  body.SetValue(key("TOTAL"), thousands(back.total));
  body.ShowSection(back.total == 1 ? key("ONE") : key("MANY"));
  if (back.pages.empty()) {
    body.ShowSection(key("NONE"));
  } else {
    Dictionary* some = body.AddSectionDictionary(key("SOME"));
    some->SetValue(key("FROM"), cat(offset + 1));
    some->SetValue(key("TO"), cat(offset + back.pages.size()));
  }
  body.SetValue(key("START"), cat(offset + 1));
  for (const RankedPage& p : back.pages) include_ranked_row(body, "BACKLINK", p, n);
  if (offset + back.pages.size() < back.total) {
    Dictionary* more = body.AddSectionDictionary(key("MORE"));
    more->SetValue(key("OFFSET"), cat(offset + k));
    if (k != kDefaultBacklinks) more->SetValueAndShowSection(key("K"), cat(k), key("CUSTOM_K"));
  }

  const std::vector<ForwardLink> links = forward_links(*db, *ranks, id);
  for (std::size_t i = 0; i < links.size() && i < kShownForwardLinks; ++i) {
    include_ranked_row(body, "FORWARD", links[i].target, n, links[i].nofollow);
  }
  if (links.size() > kShownForwardLinks) {
    body.SetValueAndShowSection(key("COUNT"), cat(links.size() - kShownForwardLinks),
                                key("MORE_LINKS"));
  }
  return page.render();
}

namespace {

struct Proxied {
  PageId page = kNoPage;
  std::string url;  // the page's label
  std::optional<std::string> html;
  SanitizedPage sanitized;
  nlohmann::json links = nlohmann::json::array();
};

Proxied proxy_page(const Site& site, const Params& params, bool want_html) {
  const auto db = site.searcher.database();
  const auto ranks = ranks_of(site, *db);
  Proxied p;
  p.page = page_param(*db, params);
  p.url = std::string(db->label(p.page));
  p.html = db->html(p.page);
  if (!p.html) {
    fail(ErrorKind::kNotFound, "no stored copy of ", p.url,
         db->has_stored_html() ? " (not fetched, or not HTML)"
                               : " (the database keeps no page copies: crawl it again)");
  }
  const std::string page_url = std::string(db->final_url(p.page).value_or(p.url));
  const std::uint64_t n = db->num_pages();
  LinkRewriter rewrite = [&](std::string_view href, std::string_view base) {
    LinkRewrite out;
    std::string from = page_url;
    if (!base.empty()) {
      if (auto b = resolve_link(page_url, base)) from = *b;
    }
    const auto target = resolve_link(from, href);
    nlohmann::json link = {{"href", std::string(href)}, {"target", nullptr}, {"page", nullptr}};
    if (!target) {
      p.links.push_back(std::move(link));
      return out;  // javascript:, mailto:, data:, malformed: the link goes
    }
    link["target"] = *target;
    const auto id = find_page(*db, *target);
    out.keep = true;
    const std::size_t hash = href.find('#');
    out.href = "/proxy?url=" + url_param(*target) +
               (hash == std::string_view::npos ? "" : "#" + url_param(href.substr(hash + 1)));
    if (id) {
      const RankedPage rp = ranks->page(*db, *id);
      out.before = bar_html(rp.bar, page_bar_tooltip(rp, n));
      link["page"] = rp;
    } else {
      out.before = bar_html(0, "not in the database", false);
    }
    p.links.push_back(std::move(link));
    return out;
  };
  p.sanitized = sanitize_page(*p.html, rewrite);
  if (!want_html) p.sanitized.body.clear();
  return p;
}

}  // namespace

nlohmann::json proxy_json(const Site& site, const Params& params) {
  Proxied p = proxy_page(site, params, false);
  return {{"url", p.url}, {"title", p.sanitized.title}, {"links", std::move(p.links)}};
}

std::string proxy_html(const Site& site, const Params& params) {
  const auto db = site.searcher.database();
  const auto ranks = ranks_of(site, *db);
  const Proxied p = proxy_page(site, params, true);
  const RankedPage rp = ranks->page(*db, p.page);
  const std::string shown = p.sanitized.title.empty() ? p.url : p.sanitized.title;
  Page page(site, *db, shown, "proxy.tpl");
  page.json("/api/v1/proxy?url=" + url_param(p.url));
  Dictionary& body = page.body();
  include_page_bar(body, "BAR", rp, db->num_pages());
  body.SetValue(key("URL"), p.url);
  body.SetValue(key("WORDS"), rank_words(rp, db->num_pages()));
  if (is_web_url(p.url)) body.ShowSection(key("LIVE"));
  // HTML that webrank wrote: sanitize_page() rebuilt the crawled body from gumbo's parse, every
  // text and attribute it kept escaped (proxy.cpp); proxy.tpl writes it with :none.
  body.SetValue(key("STORED"), p.sanitized.body);
  return page.render();
}

namespace {

struct Comparison {
  std::shared_ptr<const Database> db;
  std::shared_ptr<const PresentedRanks> a, b;
  ViewComparison table;
};

Comparison compare(const Site& site, const Params& params) {
  Comparison c;
  c.db = site.session->database();
  const PageId a = page_param(*c.db, params, "a");
  const PageId b = page_param(*c.db, params, "b");
  const std::size_t k = size_param(params, "k", 10, 1, kServeMaxResults);
  app::Run one;
  one.threads = 1;
  c.a = app::personalized_view(*site.session, a, one);
  c.b = app::personalized_view(*site.session, b, one);
  const std::vector<std::span<const double>> vectors{c.a->values(), c.b->values()};
  c.table =
      compare_views(*c.db, {c.a->name(), c.b->name()}, vectors, top_pages_of_views(vectors, k));
  return c;
}

}  // namespace

nlohmann::json compare_json(const Site& site, const Params& params) {
  const Comparison c = compare(site, params);
  return c.table;
}

std::string compare_html(const Site& site, const Params& params) {
  const auto db = site.searcher.database();
  const bool chosen = params("a").has_value() || params("b").has_value();
  // Without a choice, the two pages of highest PageRank are offered.
  std::string a = params("a").value_or(""), b = params("b").value_or("");
  if (!chosen) {
    if (const auto ranks = site.searcher.ranks()) {
      const auto top = top_ranked_pages(*db, ranks->values(), 2);
      if (top.size() == 2) a = top[0].label, b = top[1].label;
    }
  }
  Page page(site, *db, "Two personalized views", "compare.tpl");
  Dictionary& body = page.body();
  body.SetValue(key("A"), a);
  body.SetValue(key("B"), b);
  if (!chosen) return page.render();
  const Comparison cmp = compare(site, params);
  page.json("/api/v1/compare?a=" + url_param(cmp.a->name()) + "&b=" + url_param(cmp.b->name()));
  const std::uint64_t n = db->num_pages();
  Dictionary* table = body.AddSectionDictionary(key("TABLE"));
  table->SetValue(key("VIEW_A"), cmp.a->name());
  table->SetValue(key("VIEW_B"), cmp.b->name());
  for (const ViewComparison::Row& row : cmp.table.rows) {
    Dictionary* d = table->AddSectionDictionary(key("ROW"));
    include_link(*d, "LINK", cmp.a->page(*db, row.page));
    for (const auto& view : {cmp.a, cmp.b}) {
      const RankedPage p = view->page(*db, row.page);
      Dictionary* cell = d->AddSectionDictionary(key("VIEW"));
      include_page_bar(*cell, "BAR", p, n);
      cell->SetValue(key("PERCENTILE"), format_percentile(p.percentile, n));
    }
  }
  return page.render();
}

nlohmann::json health_json(const Site& site) {
  const auto db = site.searcher.database();
  const auto ranks = site.searcher.ranks();
  return {{"status", "ok"},
          {"database", site.name},
          {"pages", db->num_pages()},
          {"links", db->num_links()},
          {"ranks", ranks ? nlohmann::json(ranks->name()) : nlohmann::json(nullptr)},
          {"search", site.searcher.has_index()}};
}

nlohmann::json api_index_json() {
  return {
      {"version", 1},
      {"endpoints",
       {"/api/v1/search?q=QUERY[&mode=full|text|title][&k=10][&offset=0]",
        "/api/v1/page?url=URL (or id=N)[&k=20][&offset=0]",
        "/api/v1/backlinks?url=URL[&k=20][&offset=0]", "/api/v1/links?url=URL",
        "/api/v1/proxy?url=URL", "/api/v1/history[?ranks=NAME]",
        "/api/v1/compare?a=URL&b=URL[&k=10]", "/api/v1/report[?url=URL (or id=N)]", "/healthz"}},
      {"operations", operation_paths()},
      {"docs", "docs/serve.md"}};
}

}  // namespace webrank::serve
