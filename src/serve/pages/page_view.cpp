#include <algorithm>
#include <cmath>
#include <cstdio>

#include "../operation_routes.hpp"
#include "layout.hpp"
#include "pages.hpp"
#include "webrank/app/inspect.hpp"

namespace webrank::serve {
namespace {

constexpr std::size_t kShownForwardLinks = 500;

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

void fill_ranks(Dictionary& body, const PageReport& r, std::uint64_t n) {
  if (r.ranks.empty()) {
    body.ShowSection(key("NO_RANKS"));
    return;
  }
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

}  // namespace

std::string page_view(const Site& site, const HttpRequest& request) {
  // One set of parameters for the four operations the view draws: url to each, k and offset to
  // the backlinks, ranks to those that take one.
  const app::Operation* ops[] = {&app::find_operation("page"), &app::find_operation("backlinks"),
                                 &app::find_operation("links"), &app::find_operation("history")};
  std::vector<nlohmann::json> values = operation_params(ops, request);
  const auto current = site.status();
  const app::StatusResult& status = *current;
  const std::uint64_t n = status.pages;
  const app::PageResult page_result = site.call<app::PageResult>("page", values[0], request);
  const PageReport& r = page_result.report;
  const app::BacklinksResult back =
      site.call<app::BacklinksResult>("backlinks", values[1], request);
  const app::LinksResult links = site.call<app::LinksResult>("links", values[2], request);

  const std::string shown = r.title && !r.title->empty() ? *r.title : r.label;
  Layout page(status, shown, "page.tpl");
  page.json("/api/v1/page?url=" + url_param(r.label));
  page.charts();
  Dictionary& body = page.body();
  body.SetValue(key("SHOWN"), shown);
  body.SetValue(key("URL"), r.label);
  if (is_web_url(r.label)) body.ShowSection(key("LIVE"));
  if (page_result.copies && r.status && *r.status >= 200 && *r.status < 300) {
    body.ShowSection(key("STORED"));
  }
  if (r.status && *r.status == 0) body.ShowSection(key("UNFETCHED"));
  if (r.status && *r.status != 0)
    body.SetValueAndShowSection(key("CODE"), cat(*r.status), key("STATUS"));
  body.SetValue(key("IN_LINKS"), thousands(r.in_links));
  body.SetValue(key("OUT_LINKS"), thousands(r.out_links));
  if (r.nofollow_links)
    body.SetValueAndShowSection(key("COUNT"), cat(r.nofollow_links), key("NOFOLLOW"));
  fill_ranks(body, r, n);

  if (!back.ranks.empty()) {
    Dictionary* history = body.AddSectionDictionary(key("HISTORY"));
    history->SetValue(key("RANKS"), back.ranks);
    std::vector<double> deltas;
    try {  // a vector whose record cannot be read shows no history, the rest of the page
      values[3]["ranks"] = back.ranks;
      deltas = site.call<app::HistoryResult>("history", values[3], request).l1;
    } catch (const Error& e) {
      if (e.kind() == ErrorKind::kCancelled) throw;
    }
    fill_history(*history, deltas);
  }

  const std::size_t offset = back.offset, k = back.k;
  body.SetValue(key("TOTAL"), thousands(back.backlinks.total));
  body.ShowSection(back.backlinks.total == 1 ? key("ONE") : key("MANY"));
  if (back.backlinks.pages.empty()) {
    body.ShowSection(key("NONE"));
  } else {
    Dictionary* some = body.AddSectionDictionary(key("SOME"));
    some->SetValue(key("FROM"), cat(offset + 1));
    some->SetValue(key("TO"), cat(offset + back.backlinks.pages.size()));
  }
  body.SetValue(key("START"), cat(offset + 1));
  for (const RankedPage& p : back.backlinks.pages) include_ranked_row(body, "BACKLINK", p, n);
  if (offset + back.backlinks.pages.size() < back.backlinks.total) {
    Dictionary* more = body.AddSectionDictionary(key("MORE"));
    more->SetValue(key("OFFSET"), cat(offset + k));
    // The link says k only when it is not the declared default.
    const auto& declared = app::find_option(ops[1]->options, "k", "backlinks");
    if (nlohmann::json(k) != declared.default_value) {
      more->SetValueAndShowSection(key("K"), cat(k), key("CUSTOM_K"));
    }
  }

  for (std::size_t i = 0; i < links.links.size() && i < kShownForwardLinks; ++i) {
    include_ranked_row(body, "FORWARD", links.links[i].target, n, links.links[i].nofollow);
  }
  if (links.links.size() > kShownForwardLinks) {
    body.SetValueAndShowSection(key("COUNT"), cat(links.links.size() - kShownForwardLinks),
                                key("MORE_LINKS"));
  }
  return page.render();
}

}  // namespace webrank::serve
