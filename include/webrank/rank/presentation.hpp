// Presentation of rank values, the one home of the scales every front end shows (top lists,
// search results, page views, a proxy's link bars), defined in docs/ranking.md:
//   percentile  = 100 · |{v : R(v) <= R(u)}| / N          (the top page is at 100)
//   floor       = min(Rmin, Rmax / N)
//   bar         = 100 · ln(R(u)/floor) / ln(Rmax/floor)    (log scale; top page 100)
//   toolbar     = min(10, floor(11 · ln(R(u)/floor) / ln(Rmax/floor)))   (0–10, 11 equal log bins)
// where Rmax and Rmin are the largest and smallest positive ranks of the vector and N its size.
// The floor spans at least a factor N below the top page, so a page at half the top rank of a
// 3-page web reads 37%, not 0% (as when the lowest rank was the floor), and on a large web the
// lowest pages keep a short bar. A page of rank 0 gets bar 0 and toolbar 0; a page at Rmax gets
// 100 and 10.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "webrank/store/database.hpp"
#include "webrank/store/rank_store.hpp"
#include "webrank/util/graph.hpp"

namespace webrank {

struct RankScale {
  double max_rank = 0;  // Rmax
  double min_rank = 0;  // Rmin (smallest positive)
  double floor = 0;     // min(Rmin, Rmax / N): where the log scale starts
  double bar_percent(double rank) const;
  int toolbar(double rank) const;
};

RankScale make_rank_scale(std::span<const double> ranks);

// Decimals that show one page's step of percentile (100/N) on a web of `pages` pages: 2 up to
// 10,000 pages, 4 at 325,729 (the top five of web-NotreDame read 100.0000, 99.9997, ... instead of
// 100.00 each), 7 at a billion.
int percentile_decimals(std::uint64_t pages);
// "99.9997": the percentile with percentile_decimals(pages) decimals.
std::string format_percentile(double percentile, std::uint64_t pages);

struct TopEntry {
  PageId page;
  double rank;
  double percentile;
};

// The k pages of highest rank (ties broken by smaller id), with their percentiles.
std::vector<TopEntry> top_pages(std::span<const double> ranks, std::size_t k);

// Where one page stands in a vector: its position (1 = highest; pages of equal rank share the
// smallest position) and its percentile. One pass over the vector.
struct PagePlace {
  std::uint64_t position = 0;
  double percentile = 0;
};
PagePlace place_of(std::span<const double> ranks, PageId page);
// The percentile of every page at once (O(N log N)): 100·|{v : x(v) <= x(u)}|/N, so equal values
// share the higher percentile (pages of no usage all get the share of such pages).
std::vector<double> percentiles(std::span<const double> values);

// A page as the paper's result lists show it: its label, title (crawled webs), rank and the
// three scales. JSON form in webrank/json.hpp.
struct RankedPage {
  PageId page = kNoPage;
  std::string label;
  std::optional<std::string> title;
  double rank = 0, percentile = 0, bar = 0;
  int toolbar = 0;
};

// top_pages() of a vector of `db`, with labels, titles and scales.
std::vector<RankedPage> top_ranked_pages(const Database& db, std::span<const double> ranks,
                                         std::size_t k);

// One page with everything the database knows of it (`webrank page`): its page data, degrees,
// and its place in every stored vector. JSON form in webrank/json.hpp.
struct PageVectorPlace {
  std::string name;  // the stored vector
  double rank = 0, percentile = 0, bar = 0;
  int toolbar = 0;
  std::uint64_t position = 0;
  bool converged = false;
  std::string stale;  // why the vector is stale (computed before an update), "" when current
  std::string error;  // why the vector could not be read (the fields above are then unset)
};
struct PageReport {
  PageId page = kNoPage;
  std::string label;
  std::optional<std::string> title, final_url;
  std::optional<std::uint16_t> status;  // crawled webs: HTTP status, 0 = known but not fetched
  std::uint64_t pages = 0;              // of the web
  std::uint64_t out_links = 0, in_links = 0, nofollow_links = 0;
  bool self_link = false;
  std::vector<PageVectorPlace> ranks;  // every stored vector, by name
};

// Reads page `page` (precondition: < db.num_pages()) and every stored vector (checksums
// verified; a vector that cannot be read is listed with its error). Throws nothing else.
PageReport describe_page(const Database& db, PageId page);

// Text layout shared by front ends that print pages in columns.
// The scheme://host[:port] every label shares (without the path's '/'), for file:// labels the
// deepest folder all are in (without its last '/'), or "" when they do not all share one or are
// not URLs: a list of one site's pages can then show paths.
std::string common_origin(std::span<const std::string> labels);
// `text` cut to at most `columns` columns (UTF-8 code points), the middle replaced by "..." when
// it is cut, so that both the start and the end of a URL stay visible.
std::string elide_middle(std::string_view text, std::size_t columns);
// Columns `text` takes on a terminal: its UTF-8 code points.
std::size_t display_columns(std::string_view text);

// A rank vector ready to show any page on the three scales (search results, backlinks, links):
// the values, their RankScale and a sorted copy, so a page's percentile is one binary search.
// Building one sorts the N values. Immutable: safe to share between threads.
class PresentedRanks {
 public:
  // `ranks` by page id; `name` says which vector they are (shown in reports).
  explicit PresentedRanks(std::vector<double> ranks, std::string name = {});
  // A stored vector (webrank/store/rank_store.hpp), its record kept for what readers say of it.
  explicit PresentedRanks(StoredRanks stored);

  const std::string& name() const { return name_; }
  std::span<const double> values() const { return values_; }
  const RankScale& scale() const { return scale_; }
  // Precondition of each: page < values().size().
  double rank(PageId page) const { return values_[page]; }
  // The record of a stored vector (null for computed values: a topic mix, a view).
  const VectorRecord* record() const { return record_ ? &*record_ : nullptr; }
  double percentile(PageId page) const;  // 100·|{v : R(v) <= R(u)}|/N
  // The page with its label, title (crawled webs) and scales.
  RankedPage page(const Database& db, PageId page) const;

 private:
  std::string name_;
  std::vector<double> values_, percentiles_;
  RankScale scale_;
  std::optional<VectorRecord> record_;
};

}  // namespace webrank
