#include "views.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "html.hpp"
#include "operation_routes.hpp"
#include "proxy.hpp"
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

std::string footer(const Site& site, const Database& db, const std::string& json_path) {
  const auto ranks = site.searcher.ranks();
  return cat(escape(site.name), " \xC2\xB7 ", thousands(db.num_pages()), " pages \xC2\xB7 ",
             ranks ? "ranked by " + escape(ranks->name()) : std::string("no rank vector yet"),
             json_path.empty() ? "" : " \xC2\xB7 <a href=\"" + escape(json_path) + "\">JSON</a>",
             " \xC2\xB7 <a href=\"/report\">charts</a> \xC2\xB7 <a href=\"/api/v1\">API</a>");
}

std::string page_link(const RankedPage& p) {
  const std::string shown = p.title && !p.title->empty() ? *p.title : p.label;
  return cat("<a class=\"wr-page-link\" href=\"/page?url=", url_param(p.label), "\">",
             escape(shown), "</a>");
}

// One row of a list of ranked pages: bar, words, title linking to its page view, URL.
std::string ranked_row(const RankedPage& p, std::uint64_t pages, std::string_view note = {}) {
  return cat("<li class=\"wr-ranked\">", page_bar(p, pages), " <span class=\"wr-words\">",
             escape(rank_words(p, pages)), "</span> ", page_link(p), " <span class=\"wr-url\">",
             escape(p.label), "</span>", note, "</li>");
}

std::string marked_snippet(const Snippet& s) {
  std::string out = s.cut_before ? "\xE2\x80\xA6" : "";
  std::size_t at = 0;
  for (const TextSpan& m : s.matches) {
    if (m.begin < at || m.end > s.text.size() || m.begin > m.end) continue;
    out += escape(std::string_view(s.text).substr(at, m.begin - at));
    out += "<mark>" + escape(std::string_view(s.text).substr(m.begin, m.end - m.begin)) + "</mark>";
    at = m.end;
  }
  out += escape(std::string_view(s.text).substr(std::min(at, s.text.size())));
  if (s.cut_after) out += "\xE2\x80\xA6";
  return out;
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

// The L1 history as an inline SVG line on a log scale (no script needed).
std::string history_svg(const std::vector<double>& deltas) {
  std::vector<double> y;
  for (double d : deltas) {
    if (d > 0 && std::isfinite(d)) y.push_back(std::log10(d));
  }
  if (y.size() < 2) return "<p>No iterations recorded.</p>";
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
  std::string axis;
  for (double e = lo; e <= hi; e += std::max(1.0, std::round(span / 4))) {
    const double py = 8 + (kH - kBottom - 8) * (hi - e) / span;
    axis += cat("<text class=\"wr-axis\" x=\"4\" y=\"", py + 4, "\">1e", static_cast<int>(e),
                "</text><line class=\"wr-grid\" x1=\"", kLeft, "\" x2=\"", kW, "\" y1=\"", py,
                "\" y2=\"", py, "\"/>");
  }
  return cat("<svg class=\"wr-history\" viewBox=\"0 0 ", kW, " ", kH,
             "\" role=\"img\" aria-label=\"L1 change per iteration, log scale\">", axis,
             "<text class=\"wr-axis\" x=\"", kLeft, "\" y=\"", kH - 4, "\">iteration 1</text>",
             "<text class=\"wr-axis\" x=\"", kW - 90, "\" y=\"", kH - 4, "\">iteration ", y.size(),
             "</text><polyline class=\"wr-line\" points=\"", points, "\"/></svg>");
}

}  // namespace

std::string error_html(const Site& site, int status, std::string_view message) {
  const auto db = site.searcher.database();
  Chrome c{cat("Error ", status), "", "full", footer(site, *db, "")};
  return page_start(c) +
         cat("<h1>Error ", status, "</h1><p class=\"wr-error\">", escape(message), "</p>") +
         page_end(c);
}

std::string home_html(const Site& site) {
  const auto db = site.searcher.database();
  const auto ranks = site.searcher.ranks();
  Chrome c{"Search", "", "full", footer(site, *db, "")};
  std::string body = cat("<h1>Search ", escape(site.name), "</h1><p>", thousands(db->num_pages()),
                         " pages, ", thousands(db->num_links()),
                         " links. Words, \"phrases\", -excluded, OR, site:HOST, intitle:WORD; "
                         "modes: full (text and PageRank), text, title. "
                         "<a href=\"/compare\">Compare two personalized views</a>. "
                         "<a class=\"wr-report-link\" href=\"/report\">Charts of this web</a>: "
                         "convergence, rank and degree distributions, components, crawl "
                         "status.</p>");
  if (!site.searcher.has_index()) {
    body += cat("<p class=\"wr-notice\">Search is off: this database has no search index (",
                "<code>webrank index ", escape(site.name),
                "</code> builds one; the server picks it up within a second).</p>");
  }
  if (ranks) {
    body += cat("<h2>Pages of highest PageRank (", escape(ranks->name()),
                ")</h2><ol class=\"wr-list\">");
    for (const RankedPage& p : top_ranked_pages(*db, ranks->values(), 10)) {
      body += ranked_row(p, db->num_pages());
    }
    body += "</ol>";
  }
  return page_start(c) + body + page_end(c);
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
  Chrome c{q, q, mode_name, ""};
  std::string body;
  SearchResults r;
  try {
    r = run_search(site, params);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::kInvalidArgument) throw;
    c.footer = footer(site, *db, "");
    // A malformed query is the user's to fix: shown on the page, with status 200 so the box
    // keeps it.
    return page_start(c) + "<p class=\"wr-error\">" + escape(e.what()) + "</p>" + page_end(c);
  }
  c.footer = footer(site, *db, "/api/v1/search?q=" + url_param(q) + "&mode=" + mode_name);
  body += "<nav class=\"wr-modes\">";
  for (const char* m : {"full", "text", "title"}) {
    body += m == mode_name ? cat("<strong>", m, "</strong> ")
                           : cat("<a href=\"", escape(search_url(q, m, 0, r.k)), "\">", m, "</a> ");
  }
  body += "</nav>";
  if (r.hits.empty()) {
    body += "<p class=\"wr-count\">No page matches <q>" + escape(q) + "</q>";
    if (!r.unknown_words.empty()) {
      std::string words;
      for (const auto& w : r.unknown_words) words += (words.empty() ? "" : ", ") + w;
      body += ": no page " + std::string(mode == SearchMode::kTitle ? "title has " : "has ") +
              escape(words);
    } else if (r.offset > 0) {
      body += cat(" past result ", r.offset);
    }
    body += ".</p>";
    if (!r.suggestion.empty()) {
      body += cat("<p class=\"wr-suggestion\">Did you mean <a href=\"",
                  escape(search_url(r.suggestion, mode_name, 0, r.k)), "\">", escape(r.suggestion),
                  "</a>?</p>");
    }
  } else {
    body += cat("<p class=\"wr-count\">", r.matches_lower == r.matches_upper ? "" : "About ",
                thousands(r.matches_estimated), " results, ", r.hits.front().position,
                "\xE2\x80\x93", r.hits.back().position, "</p><ol class=\"wr-results\" start=\"",
                r.hits.front().position, "\">");
    for (const SearchHit& h : r.hits) {
      const RankedPage& p = h.page;
      body += cat("<li class=\"wr-hit\"><div class=\"wr-hit-title\">", page_link(p),
                  "</div><div class=\"wr-url\">", escape(p.label), "</div>",
                  "<div class=\"wr-rank\">", page_bar(p, db->num_pages()),
                  " <span class=\"wr-words\">", escape(rank_words(p, db->num_pages())),
                  "</span> <a class=\"wr-proxy-link\" href=\"/proxy?url=", url_param(p.label),
                  "\">stored copy</a></div>");
      if (!h.snippet.text.empty()) {
        body += "<p class=\"wr-snippet\">" + marked_snippet(h.snippet) + "</p>";
      }
      body += "</li>";
    }
    body += "</ol>";
  }
  // Pagination: previous, the pages around this one, next.
  const std::size_t k = r.k, page = r.offset / k;
  const std::size_t last = r.matches_estimated == 0 ? 0 : (r.matches_estimated - 1) / k;
  body += "<nav class=\"wr-pages\">";
  if (r.offset > 0) {
    body += cat("<a rel=\"prev\" href=\"",
                escape(search_url(q, mode_name, r.offset - std::min(r.offset, k), k)),
                "\">Previous</a> ");
  }
  for (std::size_t p = page > 4 ? page - 4 : 0; p <= std::min(last, page + 5); ++p) {
    if (p * k > kMaxOffset) break;
    body += p == page ? cat("<strong>", p + 1, "</strong> ")
                      : cat("<a href=\"", escape(search_url(q, mode_name, p * k, k)), "\">", p + 1,
                            "</a> ");
  }
  if (page < last && (page + 1) * k <= kMaxOffset) {
    body += cat("<a rel=\"next\" href=\"", escape(search_url(q, mode_name, (page + 1) * k, k)),
                "\">Next</a>");
  }
  body += "</nav>";
  return page_start(c) + body + page_end(c);
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
  Chrome c{"Charts of " + site.name, "", "full", footer(site, *db, "/api/v1/report"),
           /*charts=*/true};
  const std::string body =
      cat("<h1>Charts of ", escape(site.name),
          "</h1><p class=\"wr-note\">The charts of <code>webrank report</code>, drawn from <a "
          "href=\"/api/v1/report\">/api/v1/report</a>: the convergence of every stored vector, the "
          "rank and degree distributions with their power-law fits, the top pages, the strongly "
          "connected components and the crawl's status classes. A page's view marks where it "
          "stands. Scripts draw them; without scripts, read the JSON.</p><div id=\"report\" "
          "data-view=\"report\" data-report=\"/api/v1/report\"></div>");
  return page_start(c) + body + page_end(c);
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
  const PageId page = page_param(*db, params);
  const auto ranks = ranks_of(site, *db);
  const PageReport r = describe_page(*db, page);
  const std::uint64_t n = db->num_pages();
  const std::string shown = r.title && !r.title->empty() ? *r.title : r.label;
  Chrome c{shown, "", "full", footer(site, *db, "/api/v1/page?url=" + url_param(r.label)),
           /*charts=*/true};
  std::string body = cat("<h1 class=\"wr-page-title\">", escape(shown), "</h1><p class=\"wr-url\">",
                         escape(r.label));
  if (is_web_url(r.label)) {
    body += cat(" \xC2\xB7 <a rel=\"noreferrer nofollow\" href=\"", escape(r.label),
                "\">live page</a>");
  }
  if (db->has_stored_html() && r.status && *r.status >= 200 && *r.status < 300) {
    body += cat(" \xC2\xB7 <a class=\"wr-proxy-link\" href=\"/proxy?url=", url_param(r.label),
                "\">stored copy with PageRank bars</a>");
  }
  body += "</p><p>";
  if (r.status) body += *r.status == 0 ? "not fetched; " : cat("HTTP ", *r.status, "; ");
  body += cat(thousands(r.in_links), " links in, ", thousands(r.out_links), " out",
              r.nofollow_links ? cat(" (and ", r.nofollow_links, " nofollow)") : "", "</p>");

  body += "<h2>Ranks</h2>";
  if (r.ranks.empty()) {
    body += "<p>No rank vector is stored yet: run <code>webrank rank</code>.</p>";
  } else {
    body +=
        "<table class=\"wr-ranks\"><thead><tr><th>vector</th><th>rank</th><th>percentile</th>"
        "<th>position</th><th>bar</th><th>0\xE2\x80\x93"
        "10</th></tr></thead><tbody>";
    for (const PageVectorPlace& v : r.ranks) {
      if (!v.error.empty()) {
        body += cat("<tr><td>", escape(v.name),
                    "</td><td colspan=\"5\">unreadable: ", escape(v.error), "</td></tr>");
        continue;
      }
      char rank[32];
      std::snprintf(rank, sizeof rank, "%.6g", v.rank);
      body += cat("<tr><td>", escape(v.name), v.converged ? "" : " (not converged)", "</td><td>",
                  rank, "</td><td>", format_percentile(v.percentile, n), "</td><td>",
                  thousands(v.position), " of ", thousands(n), "</td><td>",
                  bar_svg(v.bar, cat(v.toolbar, "/10")), "</td><td>", v.toolbar, "</td></tr>");
    }
    body += "</tbody></table>";
  }

  if (!ranks->name().empty()) {
    const std::vector<double> deltas = history_of(*db, ranks->name());
    body += cat("<h2>Convergence of ", escape(ranks->name()),
                "</h2><p>L1 change of the vector at each iteration (log scale).</p>",
                "<figure class=\"wr-chart\" data-history=\"/api/v1/history?ranks=",
                url_param(ranks->name()), "\">", history_svg(deltas), "</figure>");
  }
  body += cat("<div class=\"wr-page-charts\" data-view=\"page\" data-report=\"",
              escape("/api/v1/report?url=" + url_param(r.label)), "\"></div>");

  const std::size_t k = size_param(params, "k", kDefaultBacklinks, 1, kServeMaxResults);
  const std::size_t offset = size_param(params, "offset", 0, 0, kMaxOffset);
  const Backlinks back = backlinks(*db, *ranks, page, k, offset);
  body += cat("<h2>Backlinks by PageRank</h2><p>", thousands(back.total),
              back.total == 1 ? " page links" : " pages link", " here",
              back.pages.empty()
                  ? "."
                  : cat(", ", offset + 1, "\xE2\x80\x93", offset + back.pages.size(), ":"),
              "</p><ol class=\"wr-list wr-backlinks\" start=\"", offset + 1, "\">");
  for (const RankedPage& p : back.pages) body += ranked_row(p, n);
  body += "</ol>";
  if (offset + back.pages.size() < back.total) {
    body +=
        cat("<p><a rel=\"next\" href=\"/page?url=", url_param(r.label), "&amp;offset=", offset + k,
            k != kDefaultBacklinks ? cat("&amp;k=", k) : "", "\">more backlinks</a></p>");
  }

  const std::vector<ForwardLink> links = forward_links(*db, *ranks, page);
  body += cat("<h2>Links from this page</h2><ol class=\"wr-list wr-forward\">");
  for (std::size_t i = 0; i < links.size() && i < kShownForwardLinks; ++i) {
    body += ranked_row(links[i].target, n, links[i].nofollow ? " <em>(nofollow)</em>" : "");
  }
  body += "</ol>";
  if (links.size() > kShownForwardLinks) {
    body += cat("<p>and ", links.size() - kShownForwardLinks,
                " more (<a href=\"/api/v1/links?url=", url_param(r.label), "\">all, JSON</a>)</p>");
  }
  return page_start(c) + body + page_end(c);
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
      out.before = page_bar(rp, n);
      link["page"] = rp;
    } else {
      out.before = bar_svg(0, "not in the database", false);
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
  Chrome c{shown, "", "full", footer(site, *db, "/api/v1/proxy?url=" + url_param(p.url))};
  std::string banner =
      cat("<div class=\"wr-banner\">", page_bar(rp, db->num_pages()),
          " Stored copy of <a href=\"/page?url=", url_param(p.url), "\">", escape(p.url), "</a> (",
          escape(rank_words(rp, db->num_pages())),
          "). The bar before each link shows its target's PageRank; a dashed one, a page not in "
          "the database. Scripts, styles and images of the page are not shown.");
  if (is_web_url(p.url)) {
    banner += cat(" <a rel=\"noreferrer nofollow\" href=\"", escape(p.url), "\">Live page</a>.");
  }
  banner += "</div>";
  return page_start(c) + banner + "<div class=\"wr-proxied\">" + p.sanitized.body + "</div>" +
         page_end(c);
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
  Chrome c{"Two personalized views", "", "full", footer(site, *db, "")};
  std::string body =
      cat("<h1>Two personalized views</h1><p>PageRank personalized on a home page (its rank source "
          "is that page alone: the paper's \xC2\xA7"
          "6) ranks the web as seen from there. Pick two "
          "home pages; the table shows where the pages of highest rank in either view stand in "
          "both, as percentiles (the paper's Table 2).</p>"
          "<form class=\"wr-compare-form\" action=\"/compare\" method=\"get\"><label>Home page A "
          "<input name=\"a\" size=\"60\" value=\"",
          escape(a), "\"></label><br><label>Home page B <input name=\"b\" size=\"60\" value=\"",
          escape(b), "\"></label><br><button type=\"submit\">Compare</button></form>");
  if (!chosen) return page_start(c) + body + page_end(c);
  const Comparison cmp = compare(site, params);
  c.footer =
      footer(site, *db,
             "/api/v1/compare?a=" + url_param(cmp.a->name()) + "&b=" + url_param(cmp.b->name()));
  const std::uint64_t n = db->num_pages();
  body += cat("<table class=\"wr-ranks wr-compare\"><thead><tr><th>page</th><th>from A: ",
              escape(cmp.a->name()), "</th><th>from B: ", escape(cmp.b->name()),
              "</th></tr></thead><tbody>");
  for (const ViewComparison::Row& row : cmp.table.rows) {
    body += cat("<tr><td>", page_link(cmp.a->page(*db, row.page)), "</td>");
    for (const auto& view : {cmp.a, cmp.b}) {
      const RankedPage p = view->page(*db, row.page);
      body += cat("<td class=\"wr-view\">", page_bar(p, n), " <span class=\"wr-percentile\">",
                  format_percentile(p.percentile, n), "</span></td>");
    }
    body += "</tr>";
  }
  body += "</tbody></table>";
  return page_start(c) + body + page_end(c);
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
