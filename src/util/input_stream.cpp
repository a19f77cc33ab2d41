#include "util/input_stream.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string_view>
#include <vector>

#include "util/error.hpp"

namespace webrank {
namespace {

constexpr std::size_t kRawBuffer = 1 << 20;

bool is_gzip_magic(std::string_view head) {
  return head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
         static_cast<unsigned char>(head[1]) == 0x8b;
}

bool is_zstd_magic(std::string_view head) {
  return head.size() >= 4 && head.substr(0, 4) == std::string_view("\x28\xb5\x2f\xfd", 4);
}

// Reads a file descriptor, with a few bytes of look-ahead pushed back (for magic detection).
class RawSource {
 public:
  RawSource(int fd, std::string name, bool owns) : fd_(fd), name_(std::move(name)), owns_(owns) {}
  ~RawSource() {
    if (owns_) ::close(fd_);
  }
  std::size_t read(char* buf, std::size_t n) {
    if (pushed_pos_ < pushed_.size()) {
      std::size_t take = std::min(n, pushed_.size() - pushed_pos_);
      std::memcpy(buf, pushed_.data() + pushed_pos_, take);
      pushed_pos_ += take;
      return take;
    }
    for (;;) {
      ssize_t got = ::read(fd_, buf, n);
      if (got >= 0) {
        position_ += static_cast<std::uint64_t>(got);
        return static_cast<std::size_t>(got);
      }
      if (errno != EINTR) fail_errno(name_, cat("read failed at byte ", position_));
    }
  }
  // Peeks the first bytes of the stream without consuming them.
  std::string peek(std::size_t n) {
    std::string head(n, '\0');
    std::size_t have = 0;
    while (have < n) {
      std::size_t got = read(head.data() + have, n - have);
      if (got == 0) break;
      have += got;
    }
    head.resize(have);
    pushed_ = head;
    pushed_pos_ = 0;
    return head;
  }
  std::uint64_t position() const { return position_ - (pushed_.size() - pushed_pos_); }

 private:
  int fd_;
  std::string name_;
  bool owns_;
  std::uint64_t position_ = 0;
  std::string pushed_;
  std::size_t pushed_pos_ = 0;
};

class PlainInput : public InputStream {
 public:
  explicit PlainInput(std::unique_ptr<RawSource> src, std::string name) : src_(std::move(src)) {
    name_ = std::move(name);
  }
  std::size_t read(char* buf, std::size_t n) override { return src_->read(buf, n); }
  std::uint64_t raw_position() const override { return src_->position(); }

 private:
  std::unique_ptr<RawSource> src_;
};

class GzipInput : public InputStream {
 public:
  GzipInput(std::unique_ptr<RawSource> src, std::string name)
      : src_(std::move(src)), in_(kRawBuffer) {
    name_ = std::move(name);
    std::memset(&z_, 0, sizeof z_);
    if (inflateInit2(&z_, 15 + 16) != Z_OK)
      fail(ErrorKind::kInvalidInput, name_, ": cannot initialize zlib");
  }
  ~GzipInput() override { inflateEnd(&z_); }

  std::size_t read(char* buf, std::size_t n) override {
    const uInt want = static_cast<uInt>(std::min<std::size_t>(n, 1u << 30));
    z_.next_out = reinterpret_cast<Bytef*>(buf);
    z_.avail_out = want;
    while (z_.avail_out == want) {  // until some output is produced or the stream ends
      if (z_.avail_in == 0) {
        std::size_t got = src_->read(reinterpret_cast<char*>(in_.data()), in_.size());
        if (got == 0) {
          if (!at_member_end_) {
            fail(ErrorKind::kInvalidInput, name_, ": byte ", src_->position(),
                 ": unexpected end of gzip data (the file is truncated)");
          }
          return 0;
        }
        z_.next_in = in_.data();
        z_.avail_in = static_cast<uInt>(got);
      }
      if (at_member_end_) {
        // Another gzip member follows (concatenated .gz files are one stream).
        inflateReset(&z_);
        at_member_end_ = false;
      }
      int rc = inflate(&z_, Z_NO_FLUSH);
      if (rc == Z_STREAM_END) {
        at_member_end_ = true;
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        fail(ErrorKind::kInvalidInput, name_, ": near byte ", raw_position(),
             ": corrupt gzip data (", z_.msg ? z_.msg : "inflate failed", ")");
      }
    }
    return want - z_.avail_out;
  }
  std::uint64_t raw_position() const override { return src_->position() - z_.avail_in; }

 private:
  std::unique_ptr<RawSource> src_;
  std::vector<Bytef> in_;
  z_stream z_;
  bool at_member_end_ = false;
};

class ZstdInput : public InputStream {
 public:
  ZstdInput(std::unique_ptr<RawSource> src, std::string name)
      : src_(std::move(src)), in_(ZSTD_DStreamInSize()) {
    name_ = std::move(name);
    ctx_ = ZSTD_createDCtx();
    if (!ctx_) fail(ErrorKind::kInvalidInput, name_, ": cannot initialize zstd");
  }
  ~ZstdInput() override { ZSTD_freeDCtx(ctx_); }

  std::size_t read(char* buf, std::size_t n) override {
    ZSTD_outBuffer out{buf, n, 0};
    while (out.pos == 0) {
      if (input_.pos == input_.size) {
        std::size_t got = src_->read(in_.data(), in_.size());
        if (got == 0) {
          if (frame_open_) {
            fail(ErrorKind::kInvalidInput, name_, ": byte ", src_->position(),
                 ": unexpected end of zstd data (the file is truncated)");
          }
          return 0;
        }
        input_ = ZSTD_inBuffer{in_.data(), got, 0};
      }
      std::size_t rc = ZSTD_decompressStream(ctx_, &out, &input_);
      if (ZSTD_isError(rc)) {
        fail(ErrorKind::kInvalidInput, name_, ": near byte ", raw_position(),
             ": corrupt zstd data (", ZSTD_getErrorName(rc), ")");
      }
      frame_open_ = rc != 0;
    }
    return out.pos;
  }
  std::uint64_t raw_position() const override {
    return src_->position() - (input_.size - input_.pos);
  }

 private:
  std::unique_ptr<RawSource> src_;
  std::vector<char> in_;
  ZSTD_inBuffer input_{nullptr, 0, 0};
  ZSTD_DCtx* ctx_ = nullptr;
  bool frame_open_ = false;
};

}  // namespace

std::unique_ptr<InputStream> open_input(const std::string& path) {
  std::unique_ptr<RawSource> src;
  std::string name = path;
  if (path == "-") {
    name = "<stdin>";
    src = std::make_unique<RawSource>(STDIN_FILENO, name, false);
  } else {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) fail_errno(path, "cannot open");
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
      ::close(fd);
      fail(ErrorKind::kInvalidInput, path, ": is a directory, expected an edge-list file");
    }
    src = std::make_unique<RawSource>(fd, name, true);
  }
  const std::string head = src->peek(4);
  if (is_gzip_magic(head)) return std::make_unique<GzipInput>(std::move(src), name);
  if (is_zstd_magic(head)) {
    return std::make_unique<ZstdInput>(std::move(src), name);
  }
  return std::make_unique<PlainInput>(std::move(src), name);
}

bool is_plain_file(const std::string& path) {
  if (path == "-") return false;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  char head[4];
  const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  const ssize_t got = regular ? ::pread(fd, head, sizeof head, 0) : -1;
  ::close(fd);
  if (got < 0) return false;
  const std::string_view h(head, static_cast<std::size_t>(got));
  return !is_gzip_magic(h) && !is_zstd_magic(h);
}

std::string read_file_prefix(const std::string& path, std::uint64_t max_bytes, bool* truncated) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail_errno(path, "cannot open");
  std::string s;
  std::size_t have = 0;
  for (;;) {
    if (have == s.size()) {
      if (s.size() > max_bytes) break;
      s.resize(
          std::min<std::uint64_t>(max_bytes + 1, std::max<std::size_t>(2 * s.size(), 1 << 16)));
    }
    const ssize_t got = ::read(fd, s.data() + have, s.size() - have);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      const int err = errno;
      ::close(fd);
      errno = err;
      fail_errno(path, "read failed");
    }
    if (got == 0) break;
    have += static_cast<std::size_t>(got);
  }
  ::close(fd);
  s.resize(have);
  *truncated = have > max_bytes;
  if (*truncated) s.resize(max_bytes);
  return s;
}

std::uint64_t input_size(const std::string& path) {
  if (path == "-") return 0;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return 0;
  return static_cast<std::uint64_t>(st.st_size);
}

}  // namespace webrank
