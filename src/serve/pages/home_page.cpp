#include "layout.hpp"
#include "pages.hpp"

namespace webrank::serve {

std::string home_page(const Site& site, const HttpRequest& request) {
  const auto current = site.status();
  const app::StatusResult& status = *current;
  Layout page(status, "Search", "home.tpl");
  Dictionary& body = page.body();
  body.SetValue(key("DATABASE"), status.database);
  body.SetValue(key("PAGES"), thousands(status.pages));
  body.SetValue(key("LINKS"), thousands(status.links));
  if (!status.search) body.ShowSection(key("NO_INDEX"));
  if (status.ranks) {
    const auto top =
        site.call<app::TopResult>("top", {{"k", 10}, {"ranks", *status.ranks}}, request);
    Dictionary* list = body.AddSectionDictionary(key("TOP"));
    list->SetValue(key("RANKS"), *status.ranks);
    for (const RankedPage& p : top.pages) include_ranked_row(*list, "ROW", p, status.pages);
  }
  return page.render();
}

}  // namespace webrank::serve
