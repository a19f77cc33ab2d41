// Internal error helpers: system-call failures turned into webrank::Error with the path.
#pragma once

#include <string>

#include "webrank/error.hpp"

namespace webrank {

// Throws Error "PATH: WHAT: strerror(errno)", of kind kNotFound for ENOENT and ENOTDIR, else kIo.
[[noreturn]] void fail_errno(const std::string& path, const std::string& what);

}  // namespace webrank
