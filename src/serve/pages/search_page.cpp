#include <algorithm>

#include "../operation_routes.hpp"
#include "layout.hpp"
#include "pages.hpp"
#include "webrank/app/searching.hpp"
#include "webrank/search/search.hpp"

namespace webrank::serve {
namespace {

std::string search_url(std::string_view q, std::string_view mode, std::size_t offset,
                       std::size_t k) {
  std::string url = cat("/search?q=", url_param(q), "&mode=", mode);
  if (offset) url += cat("&offset=", offset);
  if (k != 10) url += cat("&k=", k);
  return url;
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

void fill_results(Dictionary& body, const SearchResults& r, const std::string& q,
                  const std::string& mode_name, std::uint64_t n) {
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
      if (r.mode == SearchMode::kTitle) unknown->ShowSection(key("TITLE"));
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
}

}  // namespace

std::string search_page(const Site& site, const HttpRequest& request) {
  const std::string q = request.param("q").value_or("");
  if (q.empty()) return home_page(site, request);
  const auto current = site.status();
  const app::StatusResult& status = *current;
  Layout page(status, q, "search.tpl");
  // The box keeps the mode asked for when it is one (the search says what else is wrong).
  std::string mode = request.param("mode").value_or("full");
  if (mode != "text" && mode != "title") mode = "full";
  page.search_box(q, mode);
  SearchResults r;
  try {
    r = site.call<app::SearchReport>(
                "search", operation_params(app::find_operation("search"), request), request)
            .results;
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::kInvalidArgument) throw;
    // A malformed query or parameter is the user's to fix: shown on the page, with status 200 so
    // the box keeps what was typed.
    page.body().SetValueAndShowSection(key("MESSAGE"), e.what(), key("MALFORMED"));
    return page.render();
  }
  const std::string mode_name = to_string(r.mode);
  page.json("/api/v1/search?q=" + url_param(q) + "&mode=" + mode_name);
  fill_results(page.body(), r, q, mode_name, status.pages);
  return page.render();
}

}  // namespace webrank::serve
