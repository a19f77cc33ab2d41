#include "layout.hpp"

namespace webrank::serve {

Layout::Layout(const app::StatusResult& status, const std::string& title, const char* view)
    : root_("page"), body_(include(root_, "BODY", view)) {
  root_.SetValue(key("TITLE"), title);
  root_.SetValue(key("DATABASE"), status.database);
  root_.SetValue(key("PAGES"), thousands(status.pages));
  if (status.ranks) {
    root_.SetValueAndShowSection(key("RANKS"), *status.ranks, key("RANKED"));
  } else {
    root_.ShowSection(key("UNRANKED"));
  }
}

void Layout::json(const std::string& path) {
  root_.SetValueAndShowSection(key("PATH"), path, key("JSON"));
}

void Layout::charts() {
  root_.ShowSection(key("CHARTS"));
}

std::string Layout::render() {
  root_.SetValue(key("QUERY"), query_);
  for (const char* m : {"full", "text", "title"}) {
    Dictionary* option = root_.AddSectionDictionary(key("MODE"));
    option->SetValue(key("NAME"), m);
    if (mode_ == m) option->ShowSection(key("SELECTED"));
  }
  return expand("layout.tpl", root_);
}

void include_link(Dictionary& dict, const char* marker, const RankedPage& p) {
  Dictionary* link = include(dict, marker, "page_link.tpl");
  link->SetValue(key("URL"), p.label);
  link->SetValue(key("SHOWN"), p.title && !p.title->empty() ? *p.title : p.label);
}

void include_page_bar(Dictionary& dict, const char* marker, const RankedPage& p,
                      std::uint64_t pages) {
  include_bar(dict, marker, p.bar, page_bar_tooltip(p, pages));
}

void include_ranked_row(Dictionary& dict, const char* marker, const RankedPage& p,
                        std::uint64_t pages, bool nofollow) {
  Dictionary* row = include(dict, marker, "ranked_row.tpl");
  include_page_bar(*row, "BAR", p, pages);
  row->SetValue(key("WORDS"), rank_words(p, pages));
  include_link(*row, "LINK", p);
  row->SetValue(key("URL"), p.label);
  if (nofollow) row->ShowSection(key("NOFOLLOW"));
}

}  // namespace webrank::serve
