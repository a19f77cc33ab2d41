// The strongly connected components stored with the links (docs/format.md, components.*): found
// once when a database is written, so that a rank by component (gauss-seidel, auto) reads them
// instead of searching at every run.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>

#include "webrank/util/graph.hpp"

namespace webrank {

// Finds the components of `links` (the web just written to `dir`) and writes their sections,
// listing them and their count ("components") in `manifest`.
void write_component_sections(const std::filesystem::path& dir, const GraphView& links,
                              nlohmann::json& manifest);

// The same, over the link sections already written to `dir` and listed in `manifest` (an
// external build, an update): they are mapped, read and released.
void write_component_sections(const std::filesystem::path& dir, nlohmann::json& manifest);

}  // namespace webrank
