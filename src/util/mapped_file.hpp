// A read-only memory mapping of a whole file. Empty files map to an empty span.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>

#include "util/file_identity.hpp"

namespace webrank {

// Unmaps from this process the whole pages inside [data, data + bytes) of a file mapping: they
// stay in the page cache, and the next read maps them again. For a pass that reads a database
// once (the checksum pass), so that it does not leave the whole file in the process's resident
// memory.
void release_pages(const void* data, std::size_t bytes);

// Asks the kernel to read [data, data + bytes) of a file mapping into the page cache ahead of
// use (madvise WILLNEED): the read overlaps with work on other data, and nothing is mapped into
// the process until it is touched.
void prefetch_pages(const void* data, std::size_t bytes);

// The resident memory of this process now (VmRSS: anonymous and mapped file pages), or 0 if it
// cannot be read.
std::uint64_t resident_bytes();

class MappedFile {
 public:
  MappedFile() = default;
  // Throws Error naming the path if it cannot be opened or mapped.
  explicit MappedFile(const std::filesystem::path& path);
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  std::span<const std::byte> bytes() const { return {data_, size_}; }
  std::size_t size() const { return size_; }
  // The identity of the file that was mapped, as it was when mapped.
  const FileIdentity& identity() const { return identity_; }

  // release_pages() for [offset, offset + length) of the file.
  void release(std::size_t offset, std::size_t length) const {
    if (data_) release_pages(data_ + offset, length);
  }

 private:
  const std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  FileIdentity identity_;
};

}  // namespace webrank
