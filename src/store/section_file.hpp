// One section of a database directory (forward offsets, targets, labels, a rank vector...): a
// binary file that can be memory-mapped and used in place.
//
//   [0, 64)            header: magic "WRSECT01", format version, element size, section name,
//                      element count, block size, checksum of the block table, header checksum
//   [64, 64+P)         payload: count × elem_size bytes, little-endian, naturally aligned
//   pad to 8 bytes     zeros
//   block table        XXH3-64 of each 1 MiB block of the payload (u64 each)
//
// Opening checks the header and the exact file size (O(1)); verify() re-hashes the payload and
// names the byte range of any block that does not match. Per-block checksums let damage be
// located and let verification run in parallel.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include "util/mapped_file.hpp"

namespace webrank {

inline constexpr std::uint64_t kSectionHeaderBytes = 64;
inline constexpr std::uint64_t kSectionBlockBytes = 1 << 20;

struct SectionHeader {
  char magic[8];
  std::uint32_t version;
  std::uint32_t elem_size;
  char name[16];
  std::uint64_t count;
  std::uint64_t block_size;
  std::uint64_t checksum;         // XXH3-64 of the block table
  std::uint64_t header_checksum;  // XXH3-64 of the preceding 56 header bytes
};
static_assert(sizeof(SectionHeader) == kSectionHeaderBytes);

// Streams a section to a file (inside a TempPath: the writer itself is not atomic). Call
// finish() once everything is appended.
class SectionWriter {
 public:
  SectionWriter(const std::filesystem::path& file, std::string_view name, std::uint32_t elem_size);
  SectionWriter(const SectionWriter&) = delete;
  SectionWriter& operator=(const SectionWriter&) = delete;
  ~SectionWriter();

  void append_bytes(const void* data, std::size_t bytes);
  template <typename T>
  void append(std::span<const T> values) {
    append_bytes(values.data(), values.size_bytes());
  }
  // Pads, writes the block table and the header; returns the section checksum.
  std::uint64_t finish();

 private:
  void flush_block();

  std::filesystem::path file_;
  std::string name_;
  std::uint32_t elem_size_;
  std::FILE* out_ = nullptr;
  std::uint64_t payload_bytes_ = 0;
  std::uint64_t block_fill_ = 0;
  void* hash_state_ = nullptr;  // XXH3_state_t*
  std::string block_table_;     // u64 checksums appended as bytes
};

// A mapped, header-checked section.
class Section {
 public:
  Section() = default;
  // Throws Error naming `file` and what is wrong (missing, truncated, bad magic/version/name).
  static Section open(const std::filesystem::path& file, std::string_view name,
                      std::uint32_t elem_size);

  // Re-hashes every block; throws Error naming the file and the byte range of a damaged block.
  // Each block is unmapped from the process once hashed (MappedFile::release): verifying does
  // not leave the whole database in the process's resident memory.
  void verify() const;

  const SectionHeader& header() const { return header_; }
  std::uint64_t count() const { return header_.count; }
  std::uint64_t checksum() const { return header_.checksum; }
  const std::filesystem::path& path() const { return path_; }
  // The identity of the mapped file when it was mapped.
  const FileIdentity& identity() const { return file_.identity(); }

  template <typename T>
  std::span<const T> as() const {
    return {reinterpret_cast<const T*>(file_.bytes().data() + kSectionHeaderBytes),
            static_cast<std::size_t>(header_.count)};
  }

 private:
  MappedFile file_;
  std::filesystem::path path_;
  SectionHeader header_{};
};

// A section checksum as manifest.json and rank metadata record it: 16 lowercase hex digits.
std::string checksum_hex(std::uint64_t checksum);

// Total file size of a section with `payload` bytes (for error messages and checks).
std::uint64_t section_file_size(std::uint64_t payload_bytes, std::uint64_t block_size);

}  // namespace webrank
