// File-name helpers of the import formats (see path_names.hpp).
#include "ingest/formats/path_names.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace webrank {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string plain_name(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') + 1);
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (std::string_view z : {".gz", ".zst", ".gzip"}) {
    if (ends_with(name, z)) {
      name.resize(name.size() - z.size());
      break;
    }
  }
  return name;
}

std::vector<std::string> part_files(const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.front() == '.' || name.front() == '_') continue;
    if (entry.is_regular_file(ec)) files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string first_existing(const std::vector<std::string>& candidates) {
  std::error_code ec;
  for (const auto& c : candidates) {
    if (std::filesystem::is_regular_file(c, ec)) return c;
  }
  return "";
}

}  // namespace webrank
