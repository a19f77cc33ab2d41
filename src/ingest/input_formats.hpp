// Input formats of `webrank build` / `webrank import`: each turns one input into page and link
// records for the builder. Adding a format is adding a reader here and a line to the registry
// in input_formats.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ingest/edge_list_reader.hpp"

namespace webrank {

// Reads `path` into `sink`; calls on_bytes now and then with the bytes consumed; returns the
// number of records (lines) read. Throws Error naming the file and line or byte offset.
using InputReader =
    std::function<std::uint64_t(const std::string& path, bool weighted, RecordSink& sink,
                                const std::function<void(std::uint64_t)>& on_bytes)>;

struct InputFormat {
  std::string name;         // e.g. "edges"
  std::string description;  // one line for --help
  InputReader read;
};

const std::vector<InputFormat>& input_formats();
// The reader for `name`; "auto" picks one from the path (falls back to "edges").
const InputFormat& find_input_format(const std::string& name, const std::string& path);
// The format recognised from the path alone (file names, companion files, directory layout:
// see each format's looks_like_* in src/ingest/formats/), or nullptr when the path does not say.
const InputFormat* detect_format(const std::string& path);

}  // namespace webrank
