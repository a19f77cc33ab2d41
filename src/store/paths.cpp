#include "webrank/store/paths.hpp"

#include "store/db_layout.hpp"

namespace webrank {

std::filesystem::path manifest_path(const std::filesystem::path& db) {
  return db / layout::kManifest;
}

RankVectorFiles rank_vector_files(const std::filesystem::path& db, const std::string& name) {
  const std::filesystem::path dir = db / layout::kRanksDir;
  return {dir / (name + layout::kRankValuesSuffix), dir / (name + layout::kRankRecordSuffix),
          dir / ("." + name + layout::kRankRecordSuffix + ".pending")};
}

}  // namespace webrank
