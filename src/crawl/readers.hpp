// The crawl import formats, registered in src/graph/input_formats.cpp next to the graph formats
// of src/graph/formats/readers.hpp (same InputReader signature and error rules). Both hand one
// PageRecord per page to the sink (EdgeListSink::page_record), so the database gets page data.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "graph/edge_list_reader.hpp"

namespace webrank {

// warc_import.cpp: WARC/1.0 and 1.1 files, plain or gzip (per record or whole-file).
std::uint64_t read_warc(const std::string& path, bool weighted, EdgeListSink& sink,
                        const std::function<void(std::uint64_t)>& on_bytes);
bool looks_like_warc(const std::string& path);

// html_dir.cpp: a directory tree of .html/.htm files, labelled by their file:// URLs.
std::uint64_t read_html_dir(const std::string& path, bool weighted, EdgeListSink& sink,
                            const std::function<void(std::uint64_t)>& on_bytes);
bool looks_like_html_dir(const std::string& path);

}  // namespace webrank
