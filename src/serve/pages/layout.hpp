// What the server's pages share: the frame of every page (layout.tpl: the head, the search box,
// the footer) around the page's own template, and the parts several pages show (a page's link,
// its bar, a row of a list of ranked pages). Values go into ctemplate dictionaries as text; the
// templates escape them (templates.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "../html.hpp"
#include "../templates.hpp"
#include "webrank/app/inspect.hpp"

namespace webrank::serve {

// A page of the server: layout.tpl around the view's template `view`, whose dictionary body()
// is. `status` (the `status` operation) gives the footer's database, size and vector.
class Layout {
 public:
  Layout(const app::StatusResult& status, const std::string& title, const char* view);
  Layout(const Layout&) = delete;
  Layout& operator=(const Layout&) = delete;

  Dictionary& body() { return *body_; }
  // The search box holds `query` in `mode`.
  void search_box(const std::string& query, const std::string& mode) {
    query_ = query;
    mode_ = mode;
  }
  // The footer links to the JSON of the view at `path`.
  void json(const std::string& path);
  // Loads uPlot, charts.js and serve.js, which draws the charts.
  void charts();

  std::string render();

 private:
  Dictionary root_;
  Dictionary* body_;
  std::string query_, mode_ = "full";
};

// Whether a page's label is a URL a browser can open (a crawled page's), for a "live page" link.
inline bool is_web_url(std::string_view url) {
  return url.starts_with("http://") || url.starts_with("https://");
}

// page_link.tpl: the page's title (or URL) linking to its page view.
void include_link(Dictionary& dict, const char* marker, const RankedPage& p);
// The bar of a ranked page, with its rank in words as the tooltip.
void include_page_bar(Dictionary& dict, const char* marker, const RankedPage& p,
                      std::uint64_t pages);
// ranked_row.tpl: one row of a list of ranked pages.
void include_ranked_row(Dictionary& dict, const char* marker, const RankedPage& p,
                        std::uint64_t pages, bool nofollow = false);

}  // namespace webrank::serve
