// Byte streams for inputs: plain files, gzip (single or multi-member) and zstd, chosen by the
// stream's magic bytes rather than its name, and "-" for standard input. Decompression errors
// throw Error naming the input and the compressed byte offset.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace webrank {

class InputStream {
 public:
  virtual ~InputStream() = default;
  // Reads up to n decompressed bytes; returns 0 at the end of the stream.
  virtual std::size_t read(char* buf, std::size_t n) = 0;
  // Bytes consumed from the underlying file so far (compressed bytes for compressed input).
  virtual std::uint64_t raw_position() const = 0;
  const std::string& name() const { return name_; }

 protected:
  std::string name_;
};

// `path` "-" is standard input (named "<stdin>" in messages).
std::unique_ptr<InputStream> open_input(const std::string& path);

// True if `path` is a regular file that is not gzip or zstd (by its magic bytes): it can be
// memory-mapped and read as text in place. False for "-", pipes, devices and unreadable paths
// (the streaming reader then reports what is wrong).
bool is_plain_file(const std::string& path);

// At most the first max_bytes of the file `path` (read as is, not decompressed); *truncated is
// set when the file holds more. Reads at most max_bytes + 1 bytes, whatever the file's size, so
// a huge file costs no more memory than a small one. Throws Error (kInvalidInput) naming the
// path if it cannot be opened or read.
std::string read_file_prefix(const std::string& path, std::uint64_t max_bytes, bool* truncated);

// Size of the file in bytes, or 0 if unknown (standard input, pipes).
std::uint64_t input_size(const std::string& path);

}  // namespace webrank
