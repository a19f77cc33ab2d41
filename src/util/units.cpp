#include "webrank/util/units.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <string_view>

namespace webrank {

std::optional<std::uint64_t> parse_memory_size(std::string_view text) {
  double value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || text.empty() || !std::isfinite(value) || value < 0) return {};
  std::string_view unit(ptr, static_cast<std::size_t>(end - ptr));
  if (!unit.empty() && (unit.back() == 'B' || unit.back() == 'b')) unit.remove_suffix(1);
  if (unit.size() == 2 && (unit[1] == 'i' || unit[1] == 'I')) unit.remove_suffix(1);  // GiB
  double scale = 1;
  if (!unit.empty()) {
    const std::size_t power = std::string_view("KMGT").find(
        static_cast<char>(unit[0] >= 'a' ? unit[0] - 'a' + 'A' : unit[0]));
    if (unit.size() != 1 || power == std::string_view::npos) return {};
    scale = std::pow(1024.0, static_cast<double>(power + 1));
  }
  const double bytes = value * scale;
  if (bytes < 1 || bytes > 1e19) return {};
  return static_cast<std::uint64_t>(bytes);
}

std::uint64_t default_memory_budget() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGESIZE);
  std::uint64_t memory = pages > 0 && page > 0
                             ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page)
                             : std::uint64_t{4} << 30;
  // A process confined by `ulimit -v` (RLIMIT_AS) cannot use more than that, whatever the
  // machine has: budgeting past it would end in "out of memory" instead of a clear error.
  struct rlimit limit {};
  if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    memory = std::min<std::uint64_t>(memory, limit.rlim_cur);
  }
  return memory / 4 * 3;
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KB", "MB", "GB", "TB"};
  int i = 0;
  while (bytes >= 1000 && i < 4) {
    bytes /= 1000;
    ++i;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, i == 0 ? "%.0f %s" : "%.1f %s", bytes, units[i]);
  return buf;
}

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  char buf[32];
  if (seconds < 60) {
    std::snprintf(buf, sizeof buf, "%.1fs", seconds);
  } else if (seconds < 3600) {
    std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(seconds) / 60,
                  static_cast<int>(seconds) % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%dh%02dm", static_cast<int>(seconds) / 3600,
                  static_cast<int>(seconds) / 60 % 60);
  }
  return buf;
}

std::string utc_timestamp() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string scientific(double x, int digits) {
  char text[48];
  std::snprintf(text, sizeof text, "%.*e", digits, x);
  return text;
}

}  // namespace webrank
