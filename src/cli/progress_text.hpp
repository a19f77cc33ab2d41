// Progress of any operation (webrank/app/operation.hpp's Progress) as one status line for a
// terminal.
#pragma once

#include <string>

#include "webrank/app/operation.hpp"

namespace webrank::cli {

struct ProgressText {
  std::string text;
  bool always = false;  // shown even within the redraw throttle (a new stage, a last line)
};

// Stateful: it remembers the stage it saw last, so that each new stage is always shown.
class ProgressPrinter {
 public:
  explicit ProgressPrinter(std::string operation) : operation_(std::move(operation)) {}
  ProgressText operator()(const app::Progress& p);

 private:
  std::string operation_;
  std::string stage_;
  double build_start_ = -1;
};

}  // namespace webrank::cli
