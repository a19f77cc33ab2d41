// libFuzzer targets: one import format each (kFuzzTarget, a name of ingest/input_formats.hpp:
// edges, mtx, pajek, gml, graphml, warc, html-dir...; cc-hosts and
// wdc read two files, the input split at its first NUL). Any input must end in records or in
// webrank::Error: never a crash, a leak, undefined behaviour or unbounded memory.
#include "fuzz_common.hpp"
#include "ingest/edge_list_reader.hpp"
#include "ingest/input_formats.hpp"

namespace {

using namespace webrank;

std::string input_path(const std::string& format, const std::uint8_t* data, std::size_t size) {
  const std::string_view all(reinterpret_cast<const char*>(data), size);
  if (format == "cc-hosts" || format == "wdc") {
    const auto [a, b] = fuzz::split(data, size);
    const bool cc = format == "cc-hosts";
    fuzz::write_file(cc ? "g-edges.txt" : "g-arc", b);
    return fuzz::write_file(cc ? "g-vertices.txt" : "g-index", a);
  }
  if (format == "bv") {
    const auto [props, graph] = fuzz::split(data, size);
    fuzz::write_file("g.graph", graph);
    fuzz::write_file("g.properties", props);
    return (fuzz::scratch() / "g").string();
  }
  if (format == "html-dir") {
    std::filesystem::create_directories(fuzz::scratch() / "site");
    fuzz::write_file("site/index.html", all);
    return (fuzz::scratch() / "site").string();
  }
  return fuzz::write_file("input", all);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string format = kFuzzTarget;
  const std::string path = input_path(format, data, size);
  fuzz::CountingSink sink;
  try {
    find_input_format(format, path).read(path, /*weighted=*/size % 2 == 1, sink, nullptr);
  } catch (const Error&) {
  }
  if (format == "edges") {  // the sequential reader too (gzip, zstd and standard input)
    fuzz::CountingSink stream;
    try {
      read_edge_list_stream(path, size % 2 == 1, stream, nullptr);
    } catch (const Error&) {
    }
  }
  return 0;
}
