#include "ingest/edge_list_reader.hpp"

#include <charconv>
#include <cmath>
#include <cstring>

#include "ingest/mapped_edge_list.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

constexpr std::size_t kChunk = 4 << 20;

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// '%' starts a comment (Matrix Market, KONECT) unless it begins a percent-encoded label such as
// "%C3%81ed%C3%A1n" (URL-encoded titles), i.e. unless two hex digits follow it.
bool is_percent_comment(std::string_view t) {
  return t.front() == '%' && !(t.size() >= 3 && is_hex(t[1]) && is_hex(t[2]));
}

}  // namespace

LineReader::LineReader(InputStream& in) : in_(in), buf_(kChunk) {}

void LineReader::line_too_long(std::uint64_t line_number) const {
  webrank::line_too_long(in_.name(), line_number);
}

bool LineReader::refill() {
  if (eof_) return false;
  if (begin_ > 0) {  // keep the partial line, move it to the front
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == buf_.size()) {  // a line longer than the buffer
    if (buf_.size() >= kMaxLineBytes) line_too_long(line_number_ + 1);
    buf_.resize(std::min(buf_.size() * 2, kMaxLineBytes));
  }
  std::size_t got = in_.read(buf_.data() + end_, buf_.size() - end_);
  if (got == 0) {
    eof_ = true;
    return false;
  }
  end_ += got;
  return true;
}

bool LineReader::next(std::string_view& line) {
  for (;;) {
    const char* start = buf_.data() + begin_;
    const char* nl =
        static_cast<const char*>(std::memchr(start + scanned_, '\n', end_ - begin_ - scanned_));
    if (nl || (eof_ && begin_ < end_)) {
      std::size_t len = nl ? static_cast<std::size_t>(nl - start) : end_ - begin_;
      line = std::string_view(start, len);
      begin_ += len + (nl ? 1 : 0);
      consumed_ += len + (nl ? 1 : 0);
      ++line_number_;
      scanned_ = 0;
      if (line_number_ == 1 && line.substr(0, 3) == "\xEF\xBB\xBF") line.remove_prefix(3);
      check_text_line(line, in_.name(), line_number_);
      return true;
    }
    // The unfinished line is checked for a NUL byte before more of it is read: binary input
    // fails at once, not after kMaxLineBytes.
    check_text_line(std::string_view(start + scanned_, end_ - begin_ - scanned_), in_.name(),
                    line_number_ + 1);
    scanned_ = end_ - begin_;
    if (!refill()) {
      if (begin_ < end_) continue;  // last line without '\n'
      return false;
    }
  }
}

int split_fields(std::string_view line, std::string_view* fields, int max_fields,
                 int* empty_field) {
  std::string_view t = trim(line);
  if (t.empty() || t.front() == '#' || is_percent_comment(t)) return 0;
  int n = 0;
  if (line.find('\t') != std::string_view::npos) {
    // Tab-separated: split the untrimmed line (minus '\r') so leading empty fields are seen.
    std::string_view rest = line;
    while (!rest.empty() && rest.back() == '\r') rest.remove_suffix(1);
    for (;;) {
      std::size_t tab = rest.find('\t');
      std::string_view field = trim(rest.substr(0, tab));
      if (field.empty()) {
        *empty_field = n + 1;
        return -1;
      }
      if (n < max_fields) fields[n] = field;
      ++n;
      if (tab == std::string_view::npos) break;
      rest.remove_prefix(tab + 1);
    }
    return n;
  }
  std::size_t i = 0;
  while (i < t.size()) {
    while (i < t.size() && is_blank(t[i])) ++i;
    std::size_t j = i;
    while (j < t.size() && !is_blank(t[j])) ++j;
    if (j > i) {
      if (n < max_fields) fields[n] = t.substr(i, j - i);
      ++n;
    }
    i = j;
  }
  return n;
}

double parse_weight(std::string_view text, const std::string& where) {
  double w = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, w);
  if (ec == std::errc::result_out_of_range) {
    fail(ErrorKind::kInvalidInput, where, ": weight '", text, "' is out of range");
  }
  if (ec != std::errc() || ptr != end) {
    fail(ErrorKind::kInvalidInput, where, ": weight '", text, "' is not a number");
  }
  if (!std::isfinite(w))
    fail(ErrorKind::kInvalidInput, where, ": weight '", text, "' is not finite");
  if (w < 0)
    fail(ErrorKind::kInvalidInput, where, ": weight '", text,
         "' is negative; weights must be >= 0");
  return w;
}

void line_too_long(const std::string& name, std::uint64_t line_number) {
  fail(ErrorKind::kInvalidInput, name, ":", line_number, ": longer than ", kMaxLineBytes >> 20,
       " MiB (the longest line webrank reads): expected text lines (is this a binary file?)");
}

void check_text_line(std::string_view line, const std::string& name, std::uint64_t line_number) {
  if (std::memchr(line.data(), '\0', line.size())) {
    fail(ErrorKind::kInvalidInput, name, ":", line_number,
         ": contains a NUL byte: expected text (is this a binary or unsupported compressed "
         "file?)");
  }
  if (line.size() > kMaxLineBytes) line_too_long(name, line_number);
}

EdgeListRecord parse_edge_list_line(std::string_view line, bool weighted, const std::string& name,
                                    std::uint64_t line_number) {
  EdgeListRecord r;
  std::string_view f[3];
  int empty = 0;
  const int n = split_fields(line, f, 3, &empty);
  if (n == 0) return r;
  if (n < 0) {
    fail(ErrorKind::kInvalidInput, name, ":", line_number, ": field ", empty,
         " is empty: expected SOURCE<TAB>TARGET", weighted ? "[<TAB>WEIGHT]" : "");
  }
  if (n == 3 && !weighted) {
    fail(ErrorKind::kInvalidInput, name, ":", line_number,
         ": 3 fields, expected SOURCE TARGET (pass --weighted to read the third field as a "
         "link weight)");
  }
  if (n > 3) {
    fail(ErrorKind::kInvalidInput, name, ":", line_number, ": ", n,
         " fields, expected SOURCE TARGET", weighted ? " WEIGHT" : "",
         " (fields are split on tabs when the line has one, otherwise on spaces)");
  }
  r.kind = n == 1 ? EdgeListRecord::kPage : EdgeListRecord::kLink;
  r.source = f[0];
  if (n >= 2) r.target = f[1];
  if (n == 3) r.weight = parse_weight(f[2], cat(name, ":", line_number));
  return r;
}

std::uint64_t read_edge_list_stream(const std::string& path, bool weighted, RecordSink& sink,
                                    const std::function<void(std::uint64_t)>& on_bytes) {
  auto in = open_input(path);
  LineReader reader(*in);
  std::string_view line;
  std::uint64_t next_report = 16 << 20;
  while (reader.next(line)) {
    const EdgeListRecord r =
        parse_edge_list_line(line, weighted, reader.name(), reader.line_number());
    if (r.kind == EdgeListRecord::kPage) {
      sink.page(r.source);
    } else if (r.kind == EdgeListRecord::kLink) {
      sink.link(r.source, r.target, r.weight);
    }
    if (on_bytes && reader.bytes_consumed() >= next_report) {
      on_bytes(reader.file_position());
      next_report = reader.bytes_consumed() + (16 << 20);
    }
  }
  if (on_bytes) on_bytes(reader.file_position());
  return reader.line_number();
}

std::uint64_t read_edge_list(const std::string& path, bool weighted, RecordSink& sink,
                             const std::function<void(std::uint64_t)>& on_bytes) {
  if (is_plain_file(path)) return read_mapped_edge_list(path, weighted, sink, on_bytes);
  return read_streamed_edge_list(path, weighted, sink, on_bytes);
}

}  // namespace webrank
