// Warm starts (RankOptions::warm_start): the stored vector becomes the start vector.
#pragma once

#include <string>

#include "webrank/rank/rank.hpp"
#include "webrank/store/database.hpp"

namespace webrank {

struct WarmStart {
  std::string from;         // "" when the options ask for no warm start
  PageId pages = 0;         // pages whose start came from the vector
  int cold_iterations = 0;  // as RankResult::cold_iterations
};

// When o.warm_start is set: loads the vector (mapped by label from o.warm_start_db if set) into
// o.start. Throws Error (kNotFound for a missing vector or database, kInvalidArgument when
// combined with a start vector or when no page matches).
WarmStart prepare_warm_start(const Database& db, RankOptions& o);
void record_warm_start(const WarmStart& w, RankResult& r);

}  // namespace webrank
