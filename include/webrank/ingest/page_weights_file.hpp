// Reading per-page weights given by label (`--source`, `--start`, `--dangling-weights`): lines
// `LABEL<TAB>WEIGHT` (blank-separated when there is no tab), `#`/`%` comments. Every label must
// exist in the database and every weight must be finite and >= 0, with at least one positive;
// violations throw Error naming the file and line.
#pragma once

#include <string>

#include "webrank/store/database.hpp"
#include "webrank/util/graph.hpp"

namespace webrank {

PageWeights read_page_weights(const Database& db, const std::string& path);

}  // namespace webrank
