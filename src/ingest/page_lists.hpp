// The files that go beside a graph's inputs (`build --pages FILE --labels FILE`): a page list,
// whose first fields declare pages (so pages that no link mentions are kept, in the list's
// order), and a label file of `ID<TAB>LABEL` lines, which renames pages (URLs for the ids of a
// numeric graph). Both follow the edge-list field rule (edge_list_reader.hpp) and may be gzip or
// zstd; errors name FILE:LINE.
#pragma once

#include <cstdint>
#include <string>

#include "ingest/input_formats.hpp"
#include "writer/record_sink.hpp"

namespace webrank {

// Declares the first field of every line as a page. Returns the lines that declared one.
std::uint64_t read_page_list(const std::string& path, RecordSink& sink,
                             const std::function<void(std::uint64_t)>& on_bytes);

// Hands every `ID<TAB>LABEL` line to sink.relabel(). Returns the number of such lines.
std::uint64_t read_label_file(const std::string& path, RecordSink& sink,
                              const std::function<void(std::uint64_t)>& on_bytes);

}  // namespace webrank
