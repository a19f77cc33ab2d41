// Where a database's files are (docs/format.md), for code outside store/ that watches them for
// changes (a Searcher, an app::Session) or names them in messages. Reading and writing them goes
// through Database and the rank store; these only say where. Pure functions of their arguments:
// nothing is checked on disk.
#pragma once

#include <filesystem>
#include <string>

namespace webrank {

// The manifest of database directory `db`: replaced (renamed in) by every new version.
std::filesystem::path manifest_path(const std::filesystem::path& db);

// The files of stored rank vector `name`: its values, its record (VectorRecord's JSON), and the
// record of a replacement not yet in place (hidden: docs/format.md, "Writing").
struct RankVectorFiles {
  std::filesystem::path values, record, pending;
};
RankVectorFiles rank_vector_files(const std::filesystem::path& db, const std::string& name);

}  // namespace webrank
