// Harmonic centrality (webrank/algo/centrality.hpp) stored beside the rank vectors.
#pragma once

#include <string>

#include "webrank/algo/centrality.hpp"
#include "webrank/store/database.hpp"

namespace webrank {

// Stores H as the vector `name` of `db` (metadata "algorithm": "harmonic", "kind": "exact" or
// "hyperloglog"), so that top, page, compare-ranks, export and report read it like a rank
// vector. Throws Error: kInvalidArgument for a bad name or a result of another size, kIo.
void save_harmonic(const Database& db, const std::string& name, const HarmonicResult& result);

}  // namespace webrank
