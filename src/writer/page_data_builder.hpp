// The page data of a crawled web while it is being built: per page its HTTP status, final URL,
// title, text, content hash, the anchor texts of the links pointing to it and the stored copy of
// its HTML (one zstd frame per page), plus the nofollow links (kept apart from the ranked links).
// Written as the optional `pages.*` and `nofollow.*` sections of docs/format.md, and only when some
// input carried page records.
//
// Only the first record of a URL counts. A redirect's final URL is followed through other
// recorded redirects (at most 20 hops) so that it names where the chain ends.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/db_layout.hpp"
#include "webrank/store/page_data.hpp"
#include "webrank/util/graph.hpp"

namespace webrank {

// One string per page (a title, a text, a stored copy), written as an offsets section and a
// bytes section. Held in memory, or, once spill_to() names a file, appended to that file as the
// pages come, with only each page's place kept in memory: a crawl of a million pages would
// otherwise hold all their text and HTML until the database is written.
class PageStrings {
 public:
  PageStrings() = default;
  ~PageStrings();  // closes and removes the spill file
  PageStrings(const PageStrings&) = delete;
  PageStrings& operator=(const PageStrings&) = delete;
  // From now on the strings set go to `file` (created; removed by the destructor). Throws Error
  // (kIo) naming the file when it cannot be created.
  void spill_to(const std::filesystem::path& file);
  // Room for pages [0, n) at least.
  void grow(PageId n);
  // Page `id`'s string (the last one set counts); throws Error (kIo) if the spill file fails.
  void set(PageId id, std::string_view s);
  // Writes the sections for `pages` pages into `dir` and lists them in `manifest`, then removes
  // the spill file: the last call.
  void write(const std::filesystem::path& dir, layout::SectionName offsets,
             layout::SectionName bytes, PageId pages, nlohmann::json& manifest);

 private:
  std::vector<std::string> memory_;
  std::filesystem::path file_;
  std::FILE* spill_ = nullptr;
  std::uint64_t spilled_ = 0;             // bytes in the spill file
  std::vector<std::uint64_t> at_, size_;  // each page's place in the spill file
};

class PageDataCollector {
 public:
  using Intern = std::function<PageId(std::string_view)>;
  // Records `r`; its links (followed ones included: their anchors) are interned with `intern`.
  // Returns false if the URL already had a record (the caller then ignores its links).
  bool add(const PageRecord& r, const Intern& intern);
  // A page's data as stored (an update carrying a page over): no redirect is followed again.
  void set(PageId id, std::uint16_t status, std::uint64_t hash, std::string_view final_url,
           std::string_view title, std::string_view text, std::string_view anchors);
  // The rest of a page's data as stored (an update carrying a page over, or a recrawl's page):
  // its validators and body size, and its stored copy (HTML, compressed here).
  void set_validators(PageId id, std::string_view etag, std::string_view last_modified,
                      std::uint64_t body_bytes);
  void set_html(PageId id, std::string_view html);
  void add_anchor(PageId target, std::string_view anchor);
  // The anchor text of a link of page `page` to itself (a #fragment of its own): kept apart,
  // after the others (split_anchor_text()).
  void add_own_anchor(PageId page, std::string_view anchor);
  // add_anchor() unless the target's anchors already hold this one (a page fetched again
  // credits its links' anchors once).
  void add_anchor_once(PageId target, std::string_view anchor);
  void add_nofollow(PageId source, PageId target);
  bool empty() const { return !any_; }
  // Titles, texts and stored copies go to files in `dir` as they come (removed by write()).
  void spill_to(const std::filesystem::path& dir);
  // Writes the sections for `pages` pages into `dir` and lists them in `manifest`; `label`
  // names a page (where a redirect chain ends).
  void write(const std::filesystem::path& dir, PageId pages,
             const std::function<std::string_view(PageId)>& label, nlohmann::json& manifest);

 private:
  void grow(PageId n);

  bool any_ = false;
  std::vector<std::uint16_t> status_;
  std::vector<std::uint64_t> hash_;
  std::vector<PageId> final_id_;  // page id of the final URL
  std::vector<std::string> final_url_, anchors_;
  PageStrings title_, text_, html_;       // html_: zstd frames; empty: no stored copy
  std::vector<std::string> own_anchors_;  // of links to the page itself
  std::vector<std::string> etag_, last_modified_;
  std::vector<std::uint64_t> body_bytes_;
  std::vector<PageId> nofollow_sources_, nofollow_targets_;
};

}  // namespace webrank
