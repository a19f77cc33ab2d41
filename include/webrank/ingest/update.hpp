// Updating a database after a recrawl (`webrank update DB --add FILE --remove FILE`): a new
// version of the database is written by merging the old one's sections with the changes, without
// reading any text of the links that did not change, and put in place of the old one atomically.
//
// Changes are edge lists in `build`'s syntax (`SOURCE<TAB>TARGET[<TAB>WEIGHT]`; a line with one
// field is a page). Removals apply first: a removed link goes (one that is not in the web is
// counted, not an error), a removed page goes with every link from and to it. Then additions: a
// link is added (its pages created if new; on a weighted web an existing link's weight grows by
// the new weight, as duplicate lines add in `build`), a page is added if new. Pages whose links
// were removed stay pages.
//
// Page ids: the pages kept keep their order (ids close up over removed pages); new pages come
// after them in the order they first appear in the additions. Every stored rank vector is carried
// into the new version mapped by label onto the new page set (a new page gets 1/N) and flagged
// stale, for `rank --warm-start` (webrank/rank/rank.hpp). Crawled page data is carried over for the
// pages kept.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

#include "webrank/util/graph.hpp"

namespace webrank {

class Database;

// Called with the new version of a database, complete, opened from its temporary directory,
// before it is put in place of the old one: what it writes into next.path() is published with it
// in the same rename (the search index: readers never see the new version without it). An
// exception it throws abandons the update, the database left as it was.
using BeforePublish = std::function<void(const Database& next)>;

struct UpdateProgress {
  // "reading" the changes, then "links", "labels", "page data", "rank vectors"
  std::string stage;
  std::uint64_t bytes_read = 0, bytes_total = 0;  // of the change files, while reading
};

struct UpdateOptions {
  std::vector<std::string> add, remove;  // edge lists (plain, gzip, zstd; "-" = standard input)
  int threads = 0;                       // threads of this call (0 = OpenMP's default)
  bool verify = true;                    // check the database's checksums first
  std::function<void(const UpdateProgress&)> on_progress;  // may be empty
  std::stop_token stop;  // a stop request abandons the update (Error kCancelled), nothing changed
  BeforePublish before_publish;  // may be empty
};

struct UpdateReport {
  PageId pages_before = 0, pages = 0, pages_added = 0, pages_removed = 0;
  std::uint64_t links_before = 0, links = 0, links_added = 0, links_removed = 0;
  // Removals naming a page or a link the web does not have.
  std::uint64_t removals_not_found = 0;
  // Links the --add files listed: more than links_added when some were already in the web or
  // listed twice (a link counts once; a weighted web adds their weights).
  std::uint64_t additions_read = 0;
  std::vector<std::string> vectors_carried;  // stored vectors mapped onto the new page set
  double seconds = 0;
};

// Updates the database `db` (a directory). Throws Error: kNotFound/kCorrupt for the database,
// kInvalidInput naming FILE:LINE for a bad change line, kInvalidArgument if the update would
// leave no page, kIo, kCancelled. On any failure the database is left as it was.
UpdateReport update_database(const std::filesystem::path& db, const UpdateOptions& options);

}  // namespace webrank
