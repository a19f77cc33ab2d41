#include "util/compression.hpp"

#include <zstd.h>

#include "webrank/util/error.hpp"

namespace webrank {

std::string zstd_compress(std::string_view data, int level) {
  std::string out(ZSTD_compressBound(data.size()), '\0');
  const std::size_t n = ZSTD_compress(out.data(), out.size(), data.data(), data.size(), level);
  if (ZSTD_isError(n))
    fail(ErrorKind::kInternal, "zstd compression failed: ", ZSTD_getErrorName(n));
  out.resize(n);
  return out;
}

std::string zstd_decompress(std::string_view frame, std::size_t max_size, std::string_view what) {
  const unsigned long long size = ZSTD_getFrameContentSize(frame.data(), frame.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > max_size) {
    fail(ErrorKind::kCorrupt, what, ": damaged (not a zstd frame of at most ", max_size, " bytes)");
  }
  std::string out(size, '\0');
  const std::size_t n = ZSTD_decompress(out.data(), out.size(), frame.data(), frame.size());
  if (ZSTD_isError(n) || n != size) {
    fail(ErrorKind::kCorrupt, what, ": damaged (",
         ZSTD_isError(n) ? ZSTD_getErrorName(n) : "wrong size", ")");
  }
  return out;
}

}  // namespace webrank
