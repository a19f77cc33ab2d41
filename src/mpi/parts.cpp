#include "mpi/parts.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "store/manifest_field.hpp"
#include "webrank/util/error.hpp"

namespace webrank::parts {
namespace fs = std::filesystem;

std::string file_name(int part, const char* section) {
  char name[64];
  std::snprintf(name, sizeof name, "part-%05d.%s", part, section);
  return name;
}

Manifest read_manifest(const fs::path& dir) {
  const fs::path file = dir / kManifest;
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    fail(ErrorKind::kNotFound, dir.string(), ": no such parts directory (make one with `webrank ",
         "partition DB -n P -o ", dir.string(), "`)");
  std::ifstream in(file, std::ios::binary);
  if (!in)
    fail(ErrorKind::kNotFound, file.string(),
         ": missing or unreadable: not a parts directory of `webrank partition`");
  std::stringstream text;
  text << in.rdbuf();
  Manifest m;
  try {
    m.json = nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::parse_error& e) {
    fail(ErrorKind::kCorrupt, file.string(), ": byte ", e.byte, ": damaged (not valid JSON)");
  }
  if (!m.json.is_object() || m.json.value("format", "") != kFormatName)
    fail(ErrorKind::kCorrupt, file.string(), ": not a parts manifest (no \"format\": \"",
         kFormatName, "\")");
  if (manifest_field<int>(m.json, "version", file) != kVersion)
    fail(ErrorKind::kCorrupt, file.string(), ": version ", m.json["version"].dump(),
         ", this webrank reads version ", kVersion);
  m.parts = manifest_field<int>(m.json, "parts", file);
  m.pages = manifest_field<PageId>(m.json, "pages", file);
  m.links = manifest_field<std::uint64_t>(m.json, "links", file);
  m.weighted = manifest_field<bool>(m.json, "weighted", file);
  m.boundaries = manifest_field<std::vector<PageId>>(m.json, "boundaries", file);
  m.database = manifest_field<std::string>(m.json, "database", file);
  m.database_sections = m.json.value("database_sections", nlohmann::json::object());
  bool ok = m.parts >= 1 && m.boundaries.size() == static_cast<std::size_t>(m.parts) + 1 &&
            m.boundaries.front() == 0 && m.boundaries.back() == m.pages &&
            m.json.contains("part_list") && m.json["part_list"].is_array() &&
            m.json["part_list"].size() == static_cast<std::size_t>(m.parts);
  for (int k = 0; ok && k < m.parts; ++k) ok = m.boundaries[k] <= m.boundaries[k + 1];
  if (!ok)
    fail(ErrorKind::kCorrupt, file.string(),
         ": damaged: the page ranges do not cover the web part after part");
  return m;
}

Part Part::open(const fs::path& dir, const Manifest& m, int part, bool verify) {
  Part p;
  p.first_page = m.boundaries[part];
  p.pages = m.boundaries[part + 1] - m.boundaries[part];
  const nlohmann::json& info = m.json["part_list"][part];
  const fs::path mfile = dir / kManifest;
  const std::uint64_t links = manifest_field<std::uint64_t>(info, "links", mfile);
  const std::uint64_t remote = manifest_field<std::uint64_t>(info, "remote_pages", mfile);
  p.sections_.reserve(5);
  auto open = [&](const char* name, std::uint32_t elem, std::uint64_t count) -> const Section& {
    const fs::path file = dir / file_name(part, name);
    Section s = Section::open(file, name, elem);
    if (s.count() != count)
      fail(ErrorKind::kCorrupt, file.string(), ": byte 24: holds ", s.count(),
           " elements, the parts manifest says ", count);
    const auto& sections = info.value("sections", nlohmann::json::object());
    if (!sections.contains(name) || sections[name].value("xxh3", "") != checksum_hex(s.checksum()))
      fail(ErrorKind::kCorrupt, file.string(),
           ": bytes 40-47: checksum differs from manifest.json (a file from another "
           "partition, or a damaged one)");
    if (verify) s.verify();
    p.sections_.push_back(std::move(s));
    return p.sections_.back();
  };
  p.offsets = open(kOffsets, 8, std::uint64_t{p.pages} + 1).as<std::uint64_t>();
  p.sources = open(kSources, 4, links).as<PageId>();
  if (m.weighted) p.weights = open(kWeights, 8, links).as<double>();
  p.strength = open(kStrength, 8, p.pages).as<double>();
  p.remote = open(kRemote, 4, remote).as<PageId>();
  if (p.offsets.front() != 0 || p.offsets.back() != links)
    fail(ErrorKind::kCorrupt, (dir / file_name(part, kOffsets)).string(),
         ": offsets do not span the part's links (damaged)");
  return p;
}

}  // namespace webrank::parts
