#include "layout.hpp"
#include "pages.hpp"

namespace webrank::serve {

std::string error_page(const Site& site, const HttpRequest&, int status, std::string_view message) {
  Layout page(*site.status(), cat("Error ", status), "error.tpl");
  page.body().SetValue(key("STATUS"), cat(status));
  page.body().SetValue(key("MESSAGE"), std::string(message));
  return page.render();
}

}  // namespace webrank::serve
