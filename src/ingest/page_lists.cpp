// read_page_list() and read_label_file() (page_lists.hpp).
#include "ingest/page_lists.hpp"

#include "ingest/edge_list_reader.hpp"
#include "util/input_stream.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

// Calls line_fn(fields, count, where) for every line that is not blank or a comment.
template <typename LineFn>
std::uint64_t for_each_line(const std::string& path, int max_fields,
                            const std::function<void(std::uint64_t)>& on_bytes, LineFn line_fn) {
  auto in = open_input(path);
  LineReader reader(*in);
  std::string_view line;
  std::string_view f[3];
  std::uint64_t records = 0, next_report = 16 << 20;
  while (reader.next(line)) {
    check_text_line(line, reader.name(), reader.line_number());
    int empty = 0;
    const int n = split_fields(line, f, max_fields, &empty);
    if (n == 0) continue;
    const std::string where = cat(reader.name(), ":", reader.line_number());
    if (n < 0) fail(ErrorKind::kInvalidInput, where, ": field ", empty, " is empty");
    line_fn(f, n, where);
    ++records;
    if (on_bytes && reader.file_position() >= next_report) {
      on_bytes(reader.file_position());
      next_report = reader.file_position() + (16 << 20);
    }
  }
  if (on_bytes) on_bytes(reader.file_position());
  return records;
}

}  // namespace

std::uint64_t read_page_list(const std::string& path, RecordSink& sink,
                             const std::function<void(std::uint64_t)>& on_bytes) {
  return for_each_line(path, 3, on_bytes, [&](const std::string_view* f, int, const std::string&) {
    sink.page(f[0]);
  });
}

std::uint64_t read_label_file(const std::string& path, RecordSink& sink,
                              const std::function<void(std::uint64_t)>& on_bytes) {
  return for_each_line(
      path, 3, on_bytes, [&](const std::string_view* f, int n, const std::string& where) {
        if (n != 2) {
          fail(ErrorKind::kInvalidInput, where, ": ", n, " fields, expected ID<TAB>LABEL");
        }
        sink.relabel(f[0], f[1], where);
      });
}

}  // namespace webrank
