// The link database (SPEC §3): a directory holding the web as memory-mapped sections: forward
// links and backlinks in CSR, the label (URL or external name) of every page id, a label -> id
// hash index, and the named rank vectors computed on it. `manifest.json` carries the format
// name and version, the counts and the checksum of every section.
//
// Opening is cheap: files are mapped and their headers and sizes checked (O(1) per section);
// nothing is parsed. verify() reads every byte and checks the block checksums; the CLI runs it
// before it trusts a database's contents. A Database is immutable and safe to read from many
// threads.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "webrank/graph.hpp"

namespace webrank {

inline constexpr int kDatabaseFormatVersion = 1;

struct DatabaseStats {
  PageId pages = 0;
  std::uint64_t links = 0;
  PageId dangling_pages = 0;  // no out-links (out-weight 0 counts as none for weighted webs)
  std::uint64_t self_links = 0;
  bool weighted = false;
};

class Database {
 public:
  // Throws Error naming the file and what is wrong if the directory is not a readable database.
  static Database open(const std::filesystem::path& dir);

  Database(Database&&) noexcept;
  Database& operator=(Database&&) noexcept;
  ~Database();

  // Checks every block checksum of every section. Throws Error naming the file and byte range.
  void verify() const;

  const GraphView& graph() const;
  const DatabaseStats& stats() const;
  PageId num_pages() const { return stats().pages; }
  std::uint64_t num_links() const { return stats().links; }

  std::string_view label(PageId id) const;
  // Hash lookup touching only a few pages of the index: no scan of the label table.
  std::optional<PageId> find(std::string_view label) const;

  // Page data of crawled webs (include/webrank/page_data.hpp, docs/format.md): present only
  // when the database was built from crawl records (webrank crawl, WARC, HTML directories);
  // every accessor returns nullopt / an empty span otherwise. For a page that was discovered
  // but not fetched, status() is 0 and the strings are nullopt.
  bool has_page_data() const;
  std::optional<std::uint16_t> status(PageId id) const;
  std::optional<std::string_view> final_url(PageId id) const;
  std::optional<std::string_view> title(PageId id) const;
  std::optional<std::string_view> text(PageId id) const;
  // Anchor texts of the links pointing to the page, '\n'-joined.
  std::optional<std::string_view> anchor_text(PageId id) const;
  std::optional<std::uint64_t> content_hash(PageId id) const;  // XXH3-64 of the body
  // Targets of the page's nofollow links (recorded, not ranked), ascending.
  std::span<const PageId> nofollow_links(PageId id) const;
  std::uint64_t num_nofollow_links() const;

  const std::filesystem::path& path() const;
  // Names of the rank vectors stored in the database, sorted.
  std::vector<std::string> rank_names() const;

 private:
  struct Impl;
  explicit Database(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace webrank
