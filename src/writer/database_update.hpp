// A new version of a database from the old one and an edit (pages and links removed and added),
// by merging: one sequential pass over each direction of the old links, no text read again, no
// sort but of the edit itself (webrank update, docs/format.md "Updates").
//
// Page ids: the pages kept keep their order (ids close up over removed pages); new pages follow,
// in the order the edit lists them. Within every list the ids stay ascending, so the merge of
// an old list with the edit's additions for that page is a plain merge of sorted runs.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "webrank/store/database.hpp"
#include "webrank/store/page_data.hpp"

namespace webrank {

// What changes. Page ids below the old page count are the old database's; id old_pages + i is
// new_pages[i]. Removals apply first: a removed page's links go with it, and a label of a removed
// page given again is a new page (in new_pages).
struct WebEdit {
  std::vector<PageId> removed_pages;
  std::vector<std::pair<PageId, PageId>> removed_links;  // (source, target); absent ones ignored
  std::vector<std::string> new_pages;
  struct Link {
    PageId source = 0, target = 0;
    double weight = 1.0;  // identical links add their weights (unweighted webs: count once)
  };
  std::vector<Link> added_links;
  // Pages fetched again (a recrawl; new pages too, by edit id): their page data is replaced by
  // the record's (status, hash, title, text, validators, stored copy, nofollow links); the anchor
  // texts pointing to them stay, and their links' anchors are credited to the targets once. The
  // followed links of a record are not read here: the caller lists them in removed_links and
  // added_links.
  std::vector<std::pair<PageId, PageRecord>> refetched;
};

struct UpdateCounts {
  PageId pages = 0, pages_added = 0, pages_removed = 0;
  std::uint64_t links = 0, links_added = 0, links_removed = 0;
  std::uint64_t self_links = 0;
  PageId dangling_pages = 0;
  // Old page id -> new page id (kNoPage for a removed page).
  std::vector<PageId> new_id;
};

// Called with a stage ("links", "labels", "page data") as the work goes.
using UpdateStage = std::function<void(const std::string& stage)>;

// Writes the sections of the updated web into `dir` (a new directory, e.g. a TempPath) and lists
// them, with the counts, in `manifest` (the old manifest's other fields are the caller's).
// Throws Error (kInvalidArgument if nothing would be left, kIo).
UpdateCounts write_updated_web(const Database& old, const WebEdit& edit,
                               const std::filesystem::path& dir, nlohmann::json& manifest,
                               const UpdateStage& progress);

}  // namespace webrank
