#include "../operation_routes.hpp"
#include "layout.hpp"
#include "pages.hpp"
#include "webrank/app/ranking.hpp"

namespace webrank::serve {

std::string compare_page(const Site& site, const HttpRequest& request) {
  const auto current = site.status();
  const app::StatusResult& status = *current;
  const nlohmann::json values = operation_params(app::find_operation("compare"), request);
  const bool chosen = values.contains("homes") || values.contains("views");
  // The form holds the home pages asked for; without, it offers the two of highest rank.
  std::vector<std::string> homes = values.value("homes", std::vector<std::string>{});
  if (!chosen && status.ranks) {
    const auto top =
        site.call<app::TopResult>("top", {{"k", 2}, {"ranks", *status.ranks}}, request);
    for (const RankedPage& p : top.pages) homes.push_back(p.label);
  }
  Layout page(status, "Two personalized views", "compare.tpl");
  Dictionary& body = page.body();
  body.SetValue(key("A"), homes.size() > 0 ? homes[0] : std::string());
  body.SetValue(key("B"), homes.size() > 1 ? homes[1] : std::string());
  if (!chosen) return page.render();
  const app::CompareReport cmp = site.call<app::CompareReport>("compare", values, request);
  page.json("/api/v1/compare?" + request.query);
  Dictionary* table = body.AddSectionDictionary(key("TABLE"));
  for (std::size_t v = 0; v < cmp.table.views.size(); ++v) {
    Dictionary* head = table->AddSectionDictionary(key("HEAD"));
    head->SetValue(key("LETTER"), std::string(1, static_cast<char>('A' + v % 26)));
    head->SetValue(key("VIEW"), cmp.table.views[v]);
  }
  for (const std::vector<RankedPage>& cells : cmp.cells) {
    Dictionary* d = table->AddSectionDictionary(key("ROW"));
    if (!cells.empty()) include_link(*d, "LINK", cells.front());
    for (const RankedPage& p : cells) {
      Dictionary* cell = d->AddSectionDictionary(key("VIEW"));
      include_page_bar(*cell, "BAR", p, status.pages);
      cell->SetValue(key("PERCENTILE"), format_percentile(p.percentile, status.pages));
    }
  }
  return page.render();
}

}  // namespace webrank::serve
