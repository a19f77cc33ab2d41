// build_database(): each input read by its format's reader (input_formats.hpp) into the database
// builder (build/database_builder.hpp).
#include "build/database_builder.hpp"
#include "ingest/input_formats.hpp"
#include "util/input_stream.hpp"
#include "webrank/build.hpp"

namespace webrank {

BuildReport build_database(const BuildOptions& o) {
  return write_database(o, [&](RecordSink& sink, BuildProgress& progress) {
    for (const auto& in : o.inputs) progress.bytes_total += input_size(in);
    progress.stage = "reading";
    std::uint64_t lines = 0, done_before = 0;
    for (const auto& in : o.inputs) {
      const InputFormat& format = find_input_format(o.format, in);
      lines += format.read(in, o.weighted, sink, [&](std::uint64_t bytes) {
        progress.bytes_read = done_before + bytes;
        report_progress(o, progress);
      });
      done_before = progress.bytes_read;
    }
    return lines;
  });
}

}  // namespace webrank
