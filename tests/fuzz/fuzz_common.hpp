// Shared by the libFuzzer targets (tests/fuzz/README.md): inputs as files, and a record sink
// that holds claims to a small budget, as the database builder holds them to --memory-budget.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "webrank/util/error.hpp"
#include "writer/record_sink.hpp"

// What this target fuzzes ("mtx", "url", ...): defined by a one-line source that CMake writes
// for each target (tests/fuzz/CMakeLists.txt), so that one object serves several targets.
extern const char kFuzzTarget[];

namespace webrank::fuzz {

// A scratch directory of this process, under $TMPDIR, removed at exit.
inline const std::filesystem::path& scratch() {
  static const struct Dir {
    std::filesystem::path path;
    Dir() {
      path =
          std::filesystem::temp_directory_path() / ("webrank-fuzz-" + std::to_string(::getpid()));
      std::filesystem::create_directories(path);
    }
    ~Dir() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  } dir;
  return dir.path;
}

// Writes `bytes` to scratch()/name and returns the path.
inline std::string write_file(const std::string& name, std::string_view bytes) {
  const std::filesystem::path p = scratch() / name;
  std::ofstream(p, std::ios::binary | std::ios::trunc).write(bytes.data(), bytes.size());
  return p.string();
}

// Splits the input at its first NUL byte (two files of one input); the second part is empty
// when there is none.
inline std::pair<std::string_view, std::string_view> split(const std::uint8_t* data,
                                                           std::size_t size) {
  const std::string_view all(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = all.find('\0');
  if (nul == std::string_view::npos) return {all, {}};
  return {all.substr(0, nul), all.substr(nul + 1)};
}

// Counts what it is given; refuses a claim of more than kMaxPages pages as the builder refuses
// one past its memory budget.
struct CountingSink : RecordSink {
  static constexpr std::uint64_t kMaxPages = 1 << 16;
  std::uint64_t pages = 0, links = 0, bytes = 0;
  void expect_pages(std::uint64_t n, std::uint64_t, std::string_view where) override {
    if (n > kMaxPages) fail(ErrorKind::kInvalidInput, where, ": too many pages for the fuzzer");
  }
  void page(std::string_view label) override {
    ++pages;
    bytes += label.size();
  }
  void link(std::string_view s, std::string_view t, double) override {
    ++links;
    bytes += s.size() + t.size();
  }
};

}  // namespace webrank::fuzz
