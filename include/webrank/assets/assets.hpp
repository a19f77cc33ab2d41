// Files built into the binary: the browser side of `webrank report` and of the server's page
// views (uPlot, the charting library, from npm; webrank's chart code and style sheet from
// web/src/). CMake embeds them (cmake/EmbedAssets.cmake, listed in src/assets/CMakeLists.txt), so a
// report or a served page needs nothing from the network or the disk.
//
// Names: "uPlot.iife.min.js", "uPlot.min.css" (uPlot), "charts.js" (webrank's charts: functions
// that draw the JSON the library produces, webrank/report/report.hpp), "charts.css" (their look),
// "report.css" (the report's page), "serve.css" and "serve.js" (the server's pages).
//
// Threads: everything here is immutable; any thread may call it. The views point into the
// binary's read-only data and live as long as the program.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace webrank {

struct Asset {
  std::string_view name;          // e.g. "charts.js"
  std::string_view content_type;  // e.g. "text/javascript; charset=utf-8"
  std::string_view bytes;
};

// Every embedded file, in the order CMake lists them.
std::span<const Asset> embedded_assets();

// The file named `name`, or nullopt.
std::optional<Asset> find_asset(std::string_view name);

// The file named `name`; throws Error(kInternal) when it is not built in (a build defect).
std::string_view asset_bytes(std::string_view name);

}  // namespace webrank
