// Site chrome: the text a site repeats on many of its pages (navigation bars, headers, footers,
// sidebars), recognised per site from the crawl itself, without a list of words or of tags
// (docs/search.md, "The page's own words").
//
// The pages are grouped by site (host and port). A page's visible text (whitespace-collapsed
// words) is cut into windows of kChromeWindow consecutive words; a window is common to a site
// when at least chrome_min_pages(n) of its n pages hold it. On each page, the words covered by
// common windows form runs; chrome is then
// - the page's head: from its first word, every run that starts at most kChromeGap words after
//   the last one (the gaps between them too: a page's own title between two parts of a
//   navigation bar, the names of the previous and next pages in a footer);
// - the page's tail, the same from its last word backwards;
// - any run of at least kChromeLongRun words wherever it is (a boilerplate block);
// - where chrome ends, the marks after it (words without a letter or digit: a bar's last "|"),
//   and the first words of the page's title when the same words follow them
//   again (with at most one word between): the current page at the end of a breadcrumb, before
//   the page's own heading.
// Everything else is the page's own text: what snippets show and what the index weighs fully.
// Only the first and last kChromeEdgeWords words of a page are looked at (chrome sits at the
// edges), and at most kChromeSamplePages pages of a site are counted, so memory and time stay
// bounded on webs of any size.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "webrank/search/search.hpp"
#include "webrank/store/database.hpp"

namespace webrank::search {

inline constexpr std::size_t kChromeWindow = 3;
inline constexpr std::size_t kChromeGap = 4;
inline constexpr std::size_t kChromeLongRun = 8;
inline constexpr std::size_t kChromeEdgeWords = 1024;
inline constexpr std::size_t kChromeSamplePages = 2048;

// How many pages of a site of `pages` pages must hold a window for it to be common: five, or
// half of the pages of a site of fewer than ten (at least two).
std::size_t chrome_min_pages(std::size_t pages);

// The common windows of every site of a database, learned from its pages' texts.
class SiteChrome {
 public:
  // Reads every page's text (at most kChromeSamplePages per site), on `threads` threads.
  static SiteChrome learn(const Database& db, int threads);
  // The same from texts given directly, each with its site: for tests and for callers that have
  // no database.
  static SiteChrome learn(const std::vector<std::pair<std::string, std::string_view>>& pages);

  // The byte ranges of `text` (a page of `site` titled `title`) that are the page's own text,
  // ascending and disjoint; the whole text when nothing is chrome.
  std::vector<TextSpan> own_text(std::string_view site, std::string_view text,
                                 std::string_view title = {}) const;

  // Number of common windows over all sites (for reports and tests).
  std::size_t common_windows() const;

 private:
  std::unordered_map<std::string, std::vector<std::uint64_t>> common_;  // site -> sorted hashes
};

// The site of a page label: host[:port] of a URL, "" for labels that are not URLs.
std::string site_of(std::string_view label);

// Own-text spans in a compact form (varints of each span's gap and length), and back.
std::string encode_spans(const std::vector<TextSpan>& spans);
std::vector<TextSpan> decode_spans(std::string_view data);

// The own-text spans of every page that has chrome, in one string the search index keeps as
// metadata (kMetaOwnText): a searcher reads it once when it opens the index, so that a hit's
// snippet reads no document (docs/search.md, "The index"). For each page, in ascending page
// order: varint page id, varint length, encode_spans(). Tables of consecutive page ranges
// concatenate into the table of their union.
class OwnTextTable {
 public:
  // Appends `page`'s spans to `table`; `page` above every page `table` has.
  static void append(std::string& table, PageId page, const std::vector<TextSpan>& spans);
  // The table of the pages of all `tables` (of disjoint sets of pages, such as the shards of a
  // sharded index), in page order. Throws std::invalid_argument as the constructor does, and for
  // a page in two tables.
  static std::string merge(const std::vector<std::string>& tables);

  OwnTextTable() = default;  // no page has chrome
  // Reads a table made by append(); throws std::invalid_argument (saying at which byte) when it
  // was not.
  explicit OwnTextTable(std::string table);

  // The spans of `page`'s own text; empty when it has no chrome (all of its text is its own).
  // Thread-safe.
  std::vector<TextSpan> spans(PageId page) const;
  std::size_t pages() const { return pages_.size(); }

 private:
  std::string table_;
  std::vector<PageId> pages_;  // ascending
  struct Entry {
    std::uint64_t at;  // where the page's spans start in table_
    std::uint64_t length;
  };
  std::vector<Entry> data_;
};

}  // namespace webrank::search
