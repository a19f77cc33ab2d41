// Putting an edit of a database's web in place (webrank/ingest/update.hpp): `webrank update` reads
// its changes from edge lists; the crawler's --recrawl makes them from the pages it fetched again.
#pragma once

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <stop_token>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "webrank/ingest/update.hpp"
#include "webrank/store/database.hpp"
#include "writer/database_update.hpp"

namespace webrank {

// Labels as the page ids of a WebEdit over `db`: a page of `db` that is not in `removed` keeps its
// id; any other label is a new page, listed once in edit.new_pages (ids from db.num_pages()).
// `db`, `edit` and `removed` must outlive it.
class EditIds {
 public:
  EditIds(const Database& db, WebEdit& edit, const std::vector<bool>& removed)
      : db_(db), edit_(edit), removed_(removed) {}
  PageId resolve(std::string_view label);

 private:
  const Database& db_;
  WebEdit& edit_;
  const std::vector<bool>& removed_;
  std::unordered_map<std::string, PageId> new_pages_;
};

// Writes the new version of `old` (opened from `path`) with `edit` applied into a temporary
// sibling, carries every stored rank vector over (mapped onto the new pages, flagged stale), and
// renames it in place of the old one (after before_publish, if any, has written into it). `change`
// is recorded in the manifest's "updates" list. Fills the report's page and link counts and
// vectors_carried.
void commit_web_edit(const std::filesystem::path& path, const Database& old, const WebEdit& edit,
                     const nlohmann::json& change, UpdateReport& report,
                     const std::function<void(const UpdateProgress&)>& on_progress,
                     const std::stop_token& stop, const BeforePublish& before_publish);

}  // namespace webrank
