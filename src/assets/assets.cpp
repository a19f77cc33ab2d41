// Lookup over the table webrank_embed_assets() generates (webrank/assets/assets.hpp).
#include "webrank/assets/assets.hpp"

#include "webrank/util/error.hpp"

namespace webrank {

std::optional<Asset> find_asset(std::string_view name) {
  for (const Asset& a : embedded_assets()) {
    if (a.name == name) return a;
  }
  return std::nullopt;
}

std::string_view asset_bytes(std::string_view name) {
  const auto a = find_asset(name);
  if (!a) fail(ErrorKind::kInternal, "asset '", name, "' is not built into this binary");
  return a->bytes;
}

}  // namespace webrank
