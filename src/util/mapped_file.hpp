// A read-only memory mapping of a whole file. Empty files map to an empty span.
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>

namespace webrank {

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

 private:
  const std::byte* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace webrank
