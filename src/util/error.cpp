#include "util/error.hpp"

#include <cerrno>
#include <cstring>

namespace webrank {

void fail_errno(const std::string& path, const std::string& what) {
  int err = errno;
  fail(path, ": ", what, ": ", std::strerror(err));
}

}  // namespace webrank
