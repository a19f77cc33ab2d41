// WARC files (ISO 28500; WARC/1.0 and WARC/1.1): a streaming record reader and a writer.
//
// Reader contract:
// - Input is plain or gzip (whole-file or one gzip member per record, as crawlers write it),
//   recognised by its magic bytes (graph/input_stream.hpp).
// - A record is the version line "WARC/1.x", named fields (continuation lines folded), an empty
//   line, Content-Length bytes of block, and the two CRLFs that end it (missing or extra line
//   ends between records are tolerated, as several real writers produce them).
// - Errors are Error "FILE: byte N: ..." with N the offset in the decompressed stream of the
//   record at fault: a version line that is not WARC/, a missing or malformed Content-Length, a
//   record cut short.
// - With `tolerate_truncated_tail`, a record cut short at the end of the input (or a gzip member
//   cut short) ends the stream instead: truncated() then says so and good_records() counts the
//   complete records before it (how a crawl journal interrupted mid-write is read back).
//
// Writer contract: WARC/1.1 records, each its own gzip member (so a reader can stop after any
// record) unless written plain, flushed to the kernel after every record: a crawl killed outright
// loses at most the record being written. Written to the disk (fdatasync) at most a second after
// a record and when the writer closes: a power loss loses at most the last second's records.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace webrank {
class InputStream;
}

namespace webrank::web {

struct WarcRecord {
  std::string version;  // "WARC/1.0", "WARC/1.1"
  std::vector<std::pair<std::string, std::string>> fields;
  std::string block;
  std::uint64_t offset = 0;  // of the version line, in the decompressed stream

  // The value of a field (case-insensitive name), "" if absent.
  std::string_view field(std::string_view name) const;
  std::string_view type() const { return field("WARC-Type"); }
  // WARC-Target-URI without the <...> that WARC/1.0 examples put around it.
  std::string target_uri() const;
};

class WarcReader {
 public:
  explicit WarcReader(const std::string& path, bool tolerate_truncated_tail = false);
  ~WarcReader();
  // The next record; false at the end of the input.
  bool next(WarcRecord& record);
  std::uint64_t offset() const { return offset_; }  // decompressed bytes consumed
  // Bytes of the file read so far (compressed bytes for a gzip file): progress, against its size.
  std::uint64_t file_position() const;
  bool truncated() const { return truncated_; }
  std::uint64_t good_records() const { return good_; }
  const std::string& name() const { return name_; }

 private:
  bool fill(std::size_t need);  // ensures `need` bytes are buffered; false at the end
  bool read_line(std::string& line);
  [[noreturn]] void fail_at(std::uint64_t offset, const std::string& what) const;

  std::string name_;
  std::unique_ptr<InputStream> in_;
  std::string buf_;
  std::size_t pos_ = 0;
  std::uint64_t offset_ = 0;
  bool eof_ = false, tolerate_ = false, truncated_ = false;
  std::uint64_t good_ = 0;
};

// A WARC/1.1 record as the writer writes it: WARC-Type `type`, WARC-Target-URI `uri` (omitted if
// empty), the extra `fields`, Content-Type (omitted if empty), and `block`. encode_warc_record()
// adds WARC-Record-ID, WARC-Date and Content-Length; a reader gets these fields back.
WarcRecord make_warc_record(std::string_view type, std::string_view uri,
                            std::string_view content_type, std::string block,
                            const std::vector<std::pair<std::string, std::string>>& fields = {});

// `r` as the writer writes it uncompressed: the header fields, a fresh WARC-Record-ID and the
// current time as WARC-Date after WARC-Type, Content-Length, the block. Thread-safe.
std::string serialize_warc_record(const WarcRecord& r);

// `r` as one gzip member at zlib `level` (1 = fastest), with a fresh WARC-Record-ID and the
// current time as WARC-Date. Thread-safe: records can be compressed side by side and written in
// order with WarcWriter::write_encoded().
std::string encode_warc_record(const WarcRecord& r, int level = 6);

class WarcWriter {
 public:
  // Creates (or truncates) `path`; `gzip` false writes the records uncompressed.
  explicit WarcWriter(const std::string& path, bool gzip = true);
  ~WarcWriter();
  WarcWriter(const WarcWriter&) = delete;
  WarcWriter& operator=(const WarcWriter&) = delete;

  // Writes one record (make_warc_record's arguments).
  void write(std::string_view type, std::string_view uri, std::string_view content_type,
             std::string_view block,
             const std::vector<std::pair<std::string, std::string>>& fields = {});
  // Appends a record encoded by encode_warc_record() (serialize_warc_record() if the writer
  // was made with `gzip` false) and flushes it to the kernel.
  void write_encoded(std::string_view member);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::FILE* out_ = nullptr;
  bool gzip_ = true;
  std::chrono::steady_clock::time_point synced_;  // the last fdatasync
};

}  // namespace webrank::web
