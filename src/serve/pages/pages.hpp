// The server's HTML pages (docs/serve.md, "Pages"), one file each: each draws the results of
// operations of the app layer (site.hpp), called with the request's parameters as their declared
// options (operation_routes.hpp). A page throws webrank::Error as its operations do (a bad
// parameter, a page that is not there), which the routes turn into an error page.
#pragma once

#include <string>
#include <string_view>

#include "../http.hpp"
#include "../site.hpp"

namespace webrank::serve {

// `/`: the search box, the database's size and its pages of highest rank (status, top).
std::string home_page(const Site& site, const HttpRequest& request);
// `/search`: results, modes and pagination (search); a parameter the search refuses is shown in
// place of the results.
std::string search_page(const Site& site, const HttpRequest& request);
// `/page`: a page's ranks, convergence, backlinks and links (page, backlinks, links, history).
std::string page_view(const Site& site, const HttpRequest& request);
// `/proxy`: a stored copy rewritten with a bar before every link (proxy).
std::string proxy_page(const Site& site, const HttpRequest& request);
// `/compare`: personalized views side by side (compare), or the form that picks them (top).
std::string compare_page(const Site& site, const HttpRequest& request);
// `/report`: the charts of the web, drawn by serve.js from /api/v1/report.
std::string report_page(const Site& site, const HttpRequest& request);
// An error page for `status` with `message`.
std::string error_page(const Site& site, const HttpRequest& request, int status,
                       std::string_view message);

}  // namespace webrank::serve
