// Reading per-page weights given by label (`--source`, `--start`, `--dangling-weights`): lines
// `LABEL<TAB>WEIGHT` (blank-separated when there is no tab), `#`/`%` comments. Every label must
// exist in the database and every weight must be finite and >= 0, with at least one positive;
// violations throw Error naming the file and line.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "webrank/store/database.hpp"
#include "webrank/util/graph.hpp"

namespace webrank {

// Lines whose label is no page of the database, when the caller goes on without them.
struct UnknownLabels {
  std::uint64_t lines = 0;
  double weight = 0;  // their weights summed
  // Each label with its weights summed and the first line naming it, in the order first seen.
  struct Label {
    std::string label;
    double weight = 0;
    std::uint64_t line = 0;
  };
  std::vector<Label> labels;
};

// With `unknown`, a label that is no page is recorded there instead of being an error (its
// weight must still be a valid one); at least one line must name a page.
PageWeights read_page_weights(const Database& db, const std::string& path,
                              UnknownLabels* unknown = nullptr);

}  // namespace webrank
