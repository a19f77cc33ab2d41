#include "util/progress.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>

namespace webrank {

ProgressLine::ProgressLine(ProgressMode mode)
    : start_(std::chrono::steady_clock::now()), last_(start_ - std::chrono::seconds(1)) {
  tty_ = mode == ProgressMode::kAuto && ::isatty(STDERR_FILENO);
  json_ = mode == ProgressMode::kJson;
}

ProgressLine::~ProgressLine() {
  finish();
}

double ProgressLine::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void ProgressLine::update(const std::string& text, const std::string& json, bool force) {
  if (!active()) return;
  auto now = std::chrono::steady_clock::now();
  if (!force && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  if (tty_) {
    std::fprintf(stderr, "\r\033[K%s", text.c_str());
    drawn_ = true;
  } else {
    std::fprintf(stderr, "%s\n", json.c_str());
  }
  std::fflush(stderr);
}

void ProgressLine::finish() {
  if (tty_ && drawn_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    drawn_ = false;
  }
}

std::string human_bytes(double bytes) {
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

std::string human_duration(double seconds) {
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

}  // namespace webrank
