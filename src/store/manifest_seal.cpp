// The manifest's checksum (contract in manifest_seal.hpp).
#include "store/manifest_seal.hpp"

#include <xxhash.h>

#include "store/section_file.hpp"
#include "util/error.hpp"

namespace webrank {
namespace {

std::string manifest_checksum(nlohmann::json m) {
  m.erase(kManifestChecksumKey);
  const std::string text = m.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return checksum_hex(XXH3_64bits(text.data(), text.size()));
}

}  // namespace

void seal_manifest(nlohmann::json& m) {
  m[kManifestChecksumKey] = manifest_checksum(m);
}

void check_manifest_seal(const nlohmann::json& m, const std::string& file) {
  const auto it = m.find(kManifestChecksumKey);
  if (it == m.end() || !it->is_string()) {
    fail(ErrorKind::kCorrupt, file, ": damaged: no \"", kManifestChecksumKey,
         "\" (the manifest's own checksum): the manifest was edited, or the database was "
         "written by a webrank without manifest checksums (rebuild it)");
  }
  const std::string want = manifest_checksum(m);
  if (it->get<std::string>() != want) {
    fail(ErrorKind::kCorrupt, file, ": damaged: the manifest's checksum (\"", kManifestChecksumKey,
         "\": \"", it->get<std::string>(), "\") does not match its contents (", want,
         "): the manifest was edited or damaged; its counts and flags cannot be trusted");
  }
}

}  // namespace webrank
