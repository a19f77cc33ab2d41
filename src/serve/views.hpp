// What each path of the server shows: the HTML views and the JSON API (docs/serve.md). A view is
// a function of the site's state and the request's parameters; it throws webrank::Error for a
// bad parameter (kInvalidArgument, naming it) or a page that is not there (kNotFound), which the
// server turns into 400 and 404.
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "personalized.hpp"
#include "report_cache.hpp"
#include "webrank/app/operation.hpp"
#include "webrank/search/search.hpp"

namespace webrank::serve {

// A request's query parameters (first value of each), percent-decoded.
using Params = std::function<std::optional<std::string>(std::string_view name)>;

// What every view reads: the searcher (database, index, rank vector), shared by all threads.
struct Site {
  Searcher searcher;
  std::string name;  // the database directory's name, shown in footers
  std::unique_ptr<PersonalizedViews> personalized;  // the compare view's vectors
  std::unique_ptr<ReportCache> report;              // the charts' data
  // The served operations' session (/api/v1/op/NAME): the same database, reopened with it.
  std::unique_ptr<app::Session> session;
};

std::string home_html(const Site& site);
std::string search_html(const Site& site, const Params& params);
nlohmann::json search_json(const Site& site, const Params& params);

std::string page_html(const Site& site, const Params& params);
nlohmann::json page_json(const Site& site, const Params& params);
nlohmann::json backlinks_json(const Site& site, const Params& params);
nlohmann::json links_json(const Site& site, const Params& params);
nlohmann::json history_json(const Site& site, const Params& params);

// The charts of `webrank report` (webrank/report/report.hpp) for the whole web: report_html() is
// the overview page that draws them, report_json() their data, with "page" the place of the page
// named by url= or id= (null without one).
std::string report_html(const Site& site, const Params& params);
nlohmann::json report_json(const Site& site, const Params& params);

std::string proxy_html(const Site& site, const Params& params);
nlohmann::json proxy_json(const Site& site, const Params& params);

// Two views side by side (the paper's Table 2): PageRank personalized on home page `a` and on
// `b`, and the percentile of the top pages of each in both.
std::string compare_html(const Site& site, const Params& params);
nlohmann::json compare_json(const Site& site, const Params& params);

nlohmann::json health_json(const Site& site);
nlohmann::json api_index_json();

// An error page (status shown by the caller) with `message` escaped.
std::string error_html(const Site& site, int status, std::string_view message);

}  // namespace webrank::serve
