// Internal error helpers: system-call failures turned into webrank::Error with the path.
#pragma once

#include <string>
#include <string_view>

#include "webrank/util/error.hpp"

namespace webrank {

// Throws Error "PATH: WHAT: strerror(errno)", of kind kNotFound for ENOENT and ENOTDIR, else kIo.
[[noreturn]] void fail_errno(const std::string& path, const std::string& what);

// `text` quoted for a message: at most `max_bytes` of it between single quotes, with line ends,
// tabs, quotes and other bytes that are not printable ASCII written as \r, \n, \t, \' and \xNN,
// and "..." after the quote when it was cut. Binary input never breaks the message's line.
std::string quoted_excerpt(std::string_view text, std::size_t max_bytes = 40);

}  // namespace webrank
