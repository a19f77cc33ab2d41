// Reading edge-list text: lines from an InputStream and the field rule shared by every
// label-keyed text input (edge lists, `--source` files...).
//
// Field rule: a trailing '\r' is dropped; a line containing a tab is split on tabs (labels may
// contain spaces), otherwise on runs of spaces; fields are trimmed of blanks. A line whose first
// non-blank character is '#' or '%' is a comment, except that '%' followed by two hex digits
// opens a percent-encoded label (URL-encoded titles); blank lines are skipped.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "util/input_stream.hpp"
#include "writer/record_sink.hpp"

namespace webrank {

// The longest line any text input may have: every reader refuses a longer one as soon as it has
// read that much of it (an error naming the file and the line or byte offset), so that a file
// without line ends (binary data, a decompression bomb) cannot fill the memory.
inline constexpr std::size_t kMaxLineBytes = 64 << 20;

class LineReader {
 public:
  explicit LineReader(InputStream& in);
  // Next line without its '\n' (a last line without one is returned too). False at the end.
  // Throws Error on a NUL byte (binary input) and on a line longer than kMaxLineBytes; either
  // is found before more of the line is buffered.
  bool next(std::string_view& line);
  std::uint64_t line_number() const { return line_number_; }
  std::uint64_t bytes_consumed() const { return consumed_; }
  // Bytes of the underlying file read so far (compressed bytes for compressed input, a little
  // ahead of the lines returned): what progress is measured in, against the file's size.
  std::uint64_t file_position() const { return in_.raw_position(); }
  const std::string& name() const { return in_.name(); }

 private:
  bool refill();
  [[noreturn]] void line_too_long(std::uint64_t line_number) const;

  InputStream& in_;
  std::vector<char> buf_;
  std::size_t begin_ = 0, end_ = 0;
  std::size_t scanned_ = 0;  // bytes of the unfinished line at begin_ known to hold no '\n'
  bool eof_ = false;
  std::uint64_t line_number_ = 0;
  std::uint64_t consumed_ = 0;
};

// Splits `line` by the field rule into at most `max_fields` views and returns the number of
// fields found (which may exceed max_fields; 0 for blank and comment lines). Returns -1 if a
// tab-separated line has an empty field, with its 1-based index in *empty_field.
int split_fields(std::string_view line, std::string_view* fields, int max_fields, int* empty_field);

// Parses a link or page weight: finite and >= 0. Throws Error "WHERE: ..." otherwise.
double parse_weight(std::string_view text, const std::string& where);

// Throws Error "NAME:LINE: longer than ..." (a line over kMaxLineBytes).
[[noreturn]] void line_too_long(const std::string& name, std::uint64_t line_number);

// Throws Error "NAME:LINE: contains a NUL byte..." if `line` has one (binary input), or
// "NAME:LINE: longer than..." if it is longer than kMaxLineBytes.
void check_text_line(std::string_view line, const std::string& name, std::uint64_t line_number);

// One record of an edge list: nothing (blank or comment line), a page, or a link.
struct EdgeListRecord {
  enum Kind { kNone, kPage, kLink } kind = kNone;
  std::string_view source, target;  // a page's label is `source`
  double weight = 1.0;
};

// Parses one line of an edge list (NUL bytes already checked) by the field rule. Throws Error
// "NAME:LINE: ..." for a bad line (an empty tab field, a stray or bad weight, too many fields).
EdgeListRecord parse_edge_list_line(std::string_view line, bool weighted, const std::string& name,
                                    std::uint64_t line_number);

// Reads one edge-list input ("-" = stdin) into `sink`. `on_bytes` is called now and then with
// the number of decompressed bytes consumed so far. Throws Error "FILE:LINE: ..." on bad lines.
// Returns the number of lines read. Parsed on all threads (mapped_edge_list.hpp): a plain
// (uncompressed) regular file is memory-mapped, anything else decompressed by one thread.
std::uint64_t read_edge_list(const std::string& path, bool weighted, RecordSink& sink,
                             const std::function<void(std::uint64_t)>& on_bytes);
// The sequential reader: one thread, any input (gzip, zstd, standard input, pipes); the
// reference the parallel readers are tested against.
std::uint64_t read_edge_list_stream(const std::string& path, bool weighted, RecordSink& sink,
                                    const std::function<void(std::uint64_t)>& on_bytes);

}  // namespace webrank
