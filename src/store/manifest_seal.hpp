// The manifest's own checksum: manifest.json carries every section's checksum, and
// "manifest_xxh3" is the checksum of the manifest itself, so that a hand edit of a count or a
// flag (dangling_pages, weighted, page_data...) is caught at every open instead of giving
// silently wrong answers. O(1) in the size of the web: only the manifest is hashed.
//
// The checksum is XXH3-64 of the manifest without its "manifest_xxh3" member, dumped compactly
// by nlohmann-json (members sorted by name, no whitespace), as 16 lowercase hex digits. Any
// rewriting of manifest.json that keeps the same JSON value (indentation, member order) keeps
// it valid; any change of a value does not.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace webrank {

inline constexpr const char* kManifestChecksumKey = "manifest_xxh3";

// Sets m["manifest_xxh3"] to the checksum of the rest of m. Call last, after every other member.
void seal_manifest(nlohmann::json& m);

// Throws Error (kCorrupt) naming `file` if m has no "manifest_xxh3" or it differs from the
// checksum of the rest of m.
void check_manifest_seal(const nlohmann::json& m, const std::string& file);

}  // namespace webrank
