// The readers of the import formats, one per file in src/ingest/formats/ (each file opens with
// its contract), registered in src/ingest/input_formats.cpp. Every reader has the InputReader
// signature (input_formats.hpp): it reads `path` into `sink` and returns the records read;
// errors are webrank::Error naming the file and the line or byte offset.
//
// The looks_like_* functions recognise an input from its path alone (for --format auto); each
// is true only when the path is unambiguous.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "ingest/edge_list_reader.hpp"

namespace webrank {

using OnBytes = std::function<void(std::uint64_t)>;

// bvgraph.cpp: WebGraph BVGraph, BASENAME[.graph|.properties|.offsets].
std::uint64_t read_bvgraph(const std::string& path, bool weighted, RecordSink& sink,
                           const OnBytes& on_bytes);
bool looks_like_bv(const std::string& path);

// matrix_market.cpp: Matrix Market coordinate matrices (.mtx).
std::uint64_t read_matrix_market(const std::string& path, bool weighted, RecordSink& sink,
                                 const OnBytes& on_bytes);
bool looks_like_matrix_market(const std::string& path);

// pajek.cpp: Pajek networks (.net).
std::uint64_t read_pajek(const std::string& path, bool weighted, RecordSink& sink,
                         const OnBytes& on_bytes);
bool looks_like_pajek(const std::string& path);

// cc_hosts.cpp: Common Crawl host (or domain) graphs, a vertices file and an edges file.
std::uint64_t read_cc_hosts(const std::string& path, bool weighted, RecordSink& sink,
                            const OnBytes& on_bytes);
bool looks_like_cc_hosts(const std::string& path);

// wdc.cpp: Web Data Commons hyperlink graphs, an index file and an arc file.
std::uint64_t read_wdc(const std::string& path, bool weighted, RecordSink& sink,
                       const OnBytes& on_bytes);
bool looks_like_wdc(const std::string& path);

// warc.cpp: WARC/1.0 and 1.1 files, plain or gzip (per record or whole-file). Hands one
// PageRecord per page to the sink (RecordSink::page_record), so the database gets page data.
std::uint64_t read_warc(const std::string& path, bool weighted, RecordSink& sink,
                        const OnBytes& on_bytes);
bool looks_like_warc(const std::string& path);

// gml.cpp: the Graph Modelling Language (.gml).
std::uint64_t read_gml(const std::string& path, bool weighted, RecordSink& sink,
                       const OnBytes& on_bytes);
bool looks_like_gml(const std::string& path);

// graphml.cpp: GraphML (.graphml), read with expat.
std::uint64_t read_graphml(const std::string& path, bool weighted, RecordSink& sink,
                           const OnBytes& on_bytes);
bool looks_like_graphml(const std::string& path);

// html_dir.cpp: a directory tree of .html/.htm files, labelled by their file:// URLs, with page
// data as for WARC.
std::uint64_t read_html_dir(const std::string& path, bool weighted, RecordSink& sink,
                            const OnBytes& on_bytes);
bool looks_like_html_dir(const std::string& path);

}  // namespace webrank
