#include "layout.hpp"
#include "pages.hpp"

namespace webrank::serve {

std::string report_page(const Site& site, const HttpRequest&) {
  const auto current = site.status();
  const app::StatusResult& status = *current;
  Layout page(status, "Charts of " + status.database, "report.tpl");
  page.json("/api/v1/report");
  page.charts();
  page.body().SetValue(key("DATABASE"), status.database);
  return page.render();
}

}  // namespace webrank::serve
