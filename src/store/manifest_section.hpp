// Writing one section of a database directory and listing it in manifest.json (element count,
// element size, XXH3 checksum, and the in-header name when it differs from the file name), the
// record Database::open() checks each mapped file against.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <span>
#include <string_view>
#include <vector>

#include "store/db_layout.hpp"
#include "store/section_file.hpp"

namespace webrank {

// Lists a section in the manifest (for sections streamed with a SectionWriter).
inline void list_section(nlohmann::json& manifest, const char* file, const char* name,
                         std::uint64_t count, std::size_t elem_size, std::uint64_t checksum) {
  nlohmann::json entry = {
      {"count", count}, {"elem_size", elem_size}, {"xxh3", checksum_hex(checksum)}};
  if (std::string_view(file) != name) entry["name"] = name;
  manifest["sections"][file] = entry;
}

template <typename T>
void write_section(const std::filesystem::path& dir, const char* file, const char* name,
                   std::span<const T> data, nlohmann::json& manifest) {
  SectionWriter w(dir / file, name, sizeof(T));
  w.append(data);
  list_section(manifest, file, name, data.size(), sizeof(T), w.finish());
}

// A section whose file name and in-header name differ (see layout::SectionName).
template <typename T>
void write_section(const std::filesystem::path& dir, layout::SectionName s, std::span<const T> data,
                   nlohmann::json& manifest) {
  write_section(dir, s.file, s.name, data, manifest);
}

// The common case: the file is named after its section.
template <typename T>
void write_section(const std::filesystem::path& dir, const char* name, const std::vector<T>& data,
                   nlohmann::json& manifest) {
  write_section(dir, name, name, std::span<const T>(data), manifest);
}

}  // namespace webrank
