// Progress for long work. On a terminal (stderr is a tty) a single status line is redrawn at most
// ~10 times a second; otherwise nothing is printed unless JSON lines were asked for, so logs and
// pipes stay clean or machine-readable.
#pragma once

#include <chrono>
#include <string>

namespace webrank::cli {

enum class ProgressMode { kAuto, kNever, kJson };

class ProgressLine {
 public:
  explicit ProgressLine(ProgressMode mode);
  ~ProgressLine();

  bool active() const { return tty_ || json_; }
  // Shows `text` (tty) or, in JSON mode, emits `json` as one line. Throttled unless `force`.
  void update(const std::string& text, const std::string& json, bool force = false);
  // Clears the status line (tty) so normal output can follow.
  void finish();
  double elapsed() const;

 private:
  bool tty_ = false;
  bool json_ = false;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace webrank::cli
