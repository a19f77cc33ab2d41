// Storing and reading the named rank vectors of a database: `ranks/NAME.ranks` (a checksummed
// section of float or double, one value per page id) and `ranks/NAME.json` (metadata written by
// the caller, plus the name and the vector's checksum). The public functions (load_ranks,
// check_rank_name, write_rank_tsv) are declared in webrank/store/rank_store.hpp.
#pragma once

#include <nlohmann/json.hpp>
#include <span>
#include <string>

#include "webrank/store/rank_store.hpp"

namespace webrank {

// Replaces the vector and its metadata as one: a reader sees the old pair or the new one, also
// after a kill at any moment (the metadata goes in first under a pending name that load_ranks
// recognises by the vector's checksum). Throws Error.
void write_rank_vector(const Database& db, const std::string& name, std::span<const double> values,
                       Precision precision, nlohmann::json metadata);

}  // namespace webrank
