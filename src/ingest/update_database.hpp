// Putting an edit of a database's web in place (webrank/update.hpp): `webrank update` reads its
// changes from edge lists; the crawler's --recrawl makes them from the pages it fetched again.
#pragma once

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <stop_token>

#include "build/database_update.hpp"
#include "webrank/database.hpp"
#include "webrank/update.hpp"

namespace webrank {

// Writes the new version of `old` (opened from `path`) with `edit` applied into a temporary
// sibling, carries every stored rank vector over (mapped onto the new pages, flagged stale), and
// renames it in place of the old one. `change` is recorded in the manifest's "updates" list.
// Fills the report's page and link counts and vectors_carried.
void commit_web_edit(const std::filesystem::path& path, const Database& old, const WebEdit& edit,
                     const nlohmann::json& change, UpdateReport& report,
                     const std::function<void(const UpdateProgress&)>& on_progress,
                     const std::stop_token& stop);

}  // namespace webrank
