// build_database(): the page list, each input read by its format's reader (input_formats.hpp)
// and the label file, into the database builder (build/database_builder.hpp).
#include "ingest/input_formats.hpp"
#include "ingest/page_lists.hpp"
#include "util/input_stream.hpp"
#include "webrank/ingest/build.hpp"
#include "writer/database_builder.hpp"

namespace webrank {

BuildReport build_database(const BuildOptions& o) {
  std::uint64_t listed = 0;
  BuildReport report = write_database(o, [&](RecordSink& sink, BuildProgress& progress) {
    std::vector<std::string> files;
    if (!o.pages_file.empty()) files.push_back(o.pages_file);
    files.insert(files.end(), o.inputs.begin(), o.inputs.end());
    if (!o.labels_file.empty()) files.push_back(o.labels_file);
    for (const auto& in : files) progress.bytes_total += input_size(in);
    progress.stage = "reading";
    std::uint64_t lines = 0, done_before = 0;
    const auto on_bytes = [&](std::uint64_t bytes) {
      progress.bytes_read = done_before + bytes;
      report_progress(o, progress);
    };
    if (!o.pages_file.empty()) {
      listed = read_page_list(o.pages_file, sink, on_bytes);
      done_before = progress.bytes_read;
    }
    for (const auto& in : o.inputs) {
      const InputFormat& format = find_input_format(o.format, in);
      lines += format.read(in, o.weighted, sink, on_bytes);
      done_before = progress.bytes_read;
    }
    if (!o.labels_file.empty()) read_label_file(o.labels_file, sink, on_bytes);
    return lines;
  });
  report.listed_pages = listed;
  return report;
}

}  // namespace webrank
