// The files the server's pages load (/assets/NAME), built into the binary.
#pragma once

#include <optional>
#include <string_view>

namespace webrank::serve {

struct Asset {
  std::string_view bytes;
  const char* type;  // Content-Type
};

// The asset called `name` (a file name, no directory), or nullopt.
std::optional<Asset> find_asset(std::string_view name);

}  // namespace webrank::serve
