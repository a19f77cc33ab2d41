// Reading a field of a manifest (a database's, a parts directory's) with the error a damaged one
// deserves: the file and the field named.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>

#include "webrank/util/error.hpp"

namespace webrank {

// `json[key]` as a T. Throws Error (kCorrupt) naming `file` when the field is missing or of
// another type.
template <typename T>
T manifest_field(const nlohmann::json& json, const char* key, const std::filesystem::path& file) {
  if (!json.contains(key))
    fail(ErrorKind::kCorrupt, file.string(), ": damaged: field \"", key, "\" is missing");
  try {
    return json.at(key).get<T>();
  } catch (const nlohmann::json::exception&) {
    fail(ErrorKind::kCorrupt, file.string(), ": damaged: field \"", key, "\" has the wrong type");
  }
}

}  // namespace webrank
