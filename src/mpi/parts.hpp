// The parts directory of a partitioned web (webrank/mpi/distributed.hpp, docs/format.md "Parts"):
// its manifest and one part's sections, mapped and checked the way a database's are (the section
// format of store/section_file.hpp: header, block checksums; each section's element count and
// checksum recorded in the manifest).
//
// The directory is flat (files `part-NNNNN.SECTION`), so that the signal-time cleanup of a
// temporary directory, which removes one level, removes all of it.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "store/section_file.hpp"
#include "webrank/util/graph.hpp"

namespace webrank::parts {

inline constexpr const char* kManifest = "manifest.json";
inline constexpr const char* kFormatName = "webrank-parts";
inline constexpr int kVersion = 1;

// Section names (also the file name after "part-NNNNN.").
inline constexpr const char* kOffsets = "bwd.offsets";
inline constexpr const char* kSources = "bwd.sources";
inline constexpr const char* kWeights = "bwd.weights";
inline constexpr const char* kStrength = "out.strength";
inline constexpr const char* kRemote = "remote.pages";

// "part-00003.bwd.sources"
std::string file_name(int part, const char* section);

struct Manifest {
  int parts = 0;
  PageId pages = 0;
  std::uint64_t links = 0;
  bool weighted = false;
  std::vector<PageId> boundaries;  // parts + 1: part k holds pages [boundaries[k], boundaries[k+1])
  std::string database;            // absolute path of the database it was cut from
  nlohmann::json database_sections;  // that database's manifest "sections" (checksums)
  nlohmann::json json;               // the whole manifest
};

// Reads and checks DIR/manifest.json. Throws Error: kNotFound (no such directory or manifest),
// kCorrupt naming the file and what is wrong.
Manifest read_manifest(const std::filesystem::path& dir);

// One part's sections, mapped. Opening checks each section's header, size, element count and
// checksum against the manifest (O(1)); with `verify`, every block checksum too.
class Part {
 public:
  static Part open(const std::filesystem::path& dir, const Manifest& m, int part, bool verify);

  PageId first_page = 0, pages = 0;
  std::span<const std::uint64_t> offsets;  // pages + 1, from 0
  std::span<const PageId> sources;         // global ids
  std::span<const double> weights;         // empty when unweighted
  std::span<const double> strength;        // pages
  std::span<const PageId> remote;          // ascending

 private:
  std::vector<Section> sections_;
};

}  // namespace webrank::parts
