// Thresholds for OpenMP loops. Loops over fewer items than these run on one thread: below them,
// OpenMP's fork and barrier cost more than the work (milliseconds per loop on a loaded machine).
#pragma once

#include <cstdint>

namespace webrank {

inline constexpr std::int64_t kMinParallelPages = 1 << 14;
inline constexpr std::int64_t kMinParallelLinks = 1 << 17;

}  // namespace webrank
