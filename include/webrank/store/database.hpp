// The link database (the paper's §3; docs/format.md): a directory holding the web as
// memory-mapped sections: forward links and backlinks in CSR, the label (URL or external name) of
// every page id, a label -> id hash index, page data of crawls, and the named rank vectors
// computed on it. `manifest.json` carries the format name and version, the counts and the
// checksum of every section.
//
// Opening is cheap: files are mapped and their headers and sizes checked (O(1) per section);
// nothing is parsed. verify() reads every byte and checks the block checksums, and can record its
// success with the identity of every file it read (inode, size, modification and change times),
// so that opening with OpenOptions::verify skips the reading while the files are unchanged
// (OpenOptions::verification_records; docs/format.md, "What is verified when").
//
// Threads: a Database is immutable once open; every const method may be called from any number
// of threads at once.
//
// Lifetimes: every view a Database returns (graph(), label(), the page data, nofollow_links())
// points into its mapped files and stays valid as long as the Database object (or the one it was
// moved into) lives. Rebuilding the database with `force` replaces the directory by a rename:
// an open Database keeps reading the files it mapped (the old web) until it is destroyed.
//
// Rank vectors are not part of what open() maps: rank_names() and load_ranks() read the ranks/
// folder each time they are called. A vector and its metadata are replaced as a pair (save_ranks;
// docs/format.md, "Writing"), so a reader sees either the old vector or the new one, never a
// mixture, even after the writer was killed between the two files.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "webrank/store/page_data.hpp"
#include "webrank/util/graph.hpp"

namespace webrank {

inline constexpr int kDatabaseFormatVersion = 1;

struct DatabaseStats {
  PageId pages = 0;
  std::uint64_t links = 0;
  PageId dangling_pages = 0;  // no out-links (out-weight 0 counts as none for weighted webs)
  std::uint64_t self_links = 0;
  bool weighted = false;
};

struct OpenOptions {
  // Check every block checksum before returning (verify()): reads the whole database once...
  bool verify = false;
  // ... unless this directory holds a record of a successful verification of exactly the files
  // opened, as they are now (same inode, size, modification and change times: any write to a
  // file since changes its change time). verify() records its successes there. Empty: nothing
  // is remembered, every verification reads everything. default_verification_records() is
  // where the command line keeps them.
  std::filesystem::path verification_records = {};
};

// $XDG_CACHE_HOME/webrank/verified, else $HOME/.cache/webrank/verified, else empty.
std::filesystem::path default_verification_records();

// What the last verification of an open Database was.
enum class Verification {
  kNone,      // not verified (OpenOptions::verify false, and verify() not called)
  kFull,      // every byte read and every checksum checked by this process
  kRecorded,  // the files are unchanged since a recorded full verification
};

class Database {
 public:
  // Opens the database directory `dir`. Throws Error: kNotFound if there is no manifest, kCorrupt
  // naming the file and what is wrong if the directory is not a readable database of this
  // version, or (with options.verify) if a checksum does not match.
  static Database open(const std::filesystem::path& dir, OpenOptions options = {});

  Database(Database&&) noexcept;
  Database& operator=(Database&&) noexcept;
  ~Database();

  // Checks every block checksum of every section, whatever was recorded before, and on success
  // records it in OpenOptions::verification_records, if given (best effort: never an error).
  // Throws Error (kCorrupt) naming the file and byte range.
  void verify() const;
  Verification verification() const;

  // The links. Valid while this Database lives.
  const GraphView& graph() const;
  const DatabaseStats& stats() const;
  PageId num_pages() const { return stats().pages; }
  std::uint64_t num_links() const { return stats().links; }

  // The label of page `id` (precondition: id < num_pages()). Valid while this Database lives.
  std::string_view label(PageId id) const;
  // The page labelled `label`, or nullopt. A hash lookup touching only a few pages of the index:
  // no scan of the label table.
  std::optional<PageId> find(std::string_view label) const;

  // Page data of crawled webs (include/webrank/store/page_data.hpp, docs/format.md): present only
  // when the database was built from crawl records (webrank crawl, WARC, HTML directories);
  // every accessor returns nullopt / an empty span otherwise. For a page that was discovered
  // but not fetched, status() is 0 and the strings are nullopt. Precondition of each: id <
  // num_pages(). The views are valid while this Database lives.
  bool has_page_data() const;
  std::optional<std::uint16_t> status(PageId id) const;
  std::optional<std::string_view> final_url(PageId id) const;
  std::optional<std::string_view> title(PageId id) const;
  std::optional<std::string_view> text(PageId id) const;
  // Anchor texts of the links pointing to the page, '\n'-joined: those of links from other pages,
  // then, after an empty line, those of its links to itself (split_anchor_text(),
  // webrank/store/page_data.hpp).
  std::optional<std::string_view> anchor_text(PageId id) const;
  std::optional<std::uint64_t> content_hash(PageId id) const;  // XXH3-64 of the body
  // The stored copy of an HTML page (the body as fetched, at most kMaxStoredHtmlBytes of
  // webrank/store/page_data.hpp), decompressed: nullopt for pages that were not fetched, were not
  // HTML, and in databases built before stored copies were kept (has_stored_html() false). Throws
  // Error (kCorrupt) naming the file and byte if the stored frame is damaged.
  bool has_stored_html() const;
  std::optional<std::string> html(PageId id) const;
  // What a recrawl's conditional request of the page sends (webrank/store/page_data.hpp): nullopt
  // for pages that were not fetched and in databases built before these were kept; empty strings
  // where the response had no such field.
  std::optional<PageValidators> validators(PageId id) const;
  // Targets of the page's nofollow links (recorded, not ranked), ascending.
  std::span<const PageId> nofollow_links(PageId id) const;
  std::uint64_t num_nofollow_links() const;

  // The directory, as given to open().
  const std::filesystem::path& path() const;
  // The version of the database that was opened: its manifest's "generation", new with every
  // build, update and recrawl ("" for databases written before generations; docs/format.md,
  // "Versions"). Every vector stored records it, and readers refuse a vector of another.
  const std::string& generation() const;
  // Names of the rank vectors stored in the database now (the ranks/ folder is read at each
  // call), sorted.
  std::vector<std::string> rank_names() const;

 private:
  struct Impl;
  explicit Database(std::unique_ptr<Impl> impl);
  void verify_contents() const;
  std::unique_ptr<Impl> impl_;
};

}  // namespace webrank
