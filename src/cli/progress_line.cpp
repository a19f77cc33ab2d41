#include "progress_line.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>

namespace webrank::cli {

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

}  // namespace webrank::cli
