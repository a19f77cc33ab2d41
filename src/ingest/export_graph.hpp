// GML and GraphML output of export_database() (webrank/ingest/export.hpp).
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "webrank/ingest/export.hpp"
#include "webrank/store/database.hpp"

namespace webrank {

// Writes the database as o.format (kGml or kGraphml) through `put`.
void write_graph_file(const Database& db, const ExportOptions& o,
                      const std::function<void(std::string_view)>& put);

// The GML keys of rank vectors' attributes: GML keys are letters, digits and '_', starting with a
// letter, so "from-b" is "from_b" and "2024" is "r_2024"; a key the node already has (id, label,
// title) or one taken by an earlier vector gets "_2", "_3", ...
std::vector<std::string> gml_keys(const std::vector<std::string>& names);

}  // namespace webrank
