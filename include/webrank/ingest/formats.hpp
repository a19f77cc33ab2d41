// The input formats `build_database` reads (BuildOptions::format), as a list for front ends:
// their names for a `--format` flag, a line about each, and which one a path reveals.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace webrank {

struct InputFormatInfo {
  std::string name;         // e.g. "edges", "bv", "warc"
  std::string description;  // one line
};

// Every format, "edges" (the default for paths that reveal nothing) first.
std::vector<InputFormatInfo> list_input_formats();

// The format a path reveals by its name, its companion files or its directory layout (the rules
// of each format are in README.md), or nothing when the path does not say.
std::optional<std::string> detect_input_format(const std::string& path);

}  // namespace webrank
