#include "util/regular_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "webrank/util/error.hpp"

namespace webrank {
namespace {

const char* file_type(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

int open_regular_file(const std::filesystem::path& path, struct stat* st) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return -1;
  if (::fstat(fd, st) != 0) {
    const int err = errno;
    ::close(fd);
    errno = err;
    return -1;
  }
  if (!S_ISREG(st->st_mode)) {
    ::close(fd);
    fail(ErrorKind::kIo, path.string(), ": is ", file_type(st->st_mode),
         ", not a regular file: refused (a database's files are regular files)");
  }
  // Reads of a regular file never wait anyway; the flag is dropped so that none is surprised.
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

std::optional<std::string> read_regular_file(const std::filesystem::path& path,
                                             FileIdentity* identity) {
  struct stat st {};
  const int fd = open_regular_file(path, &st);
  if (fd < 0) return std::nullopt;
  if (identity) *identity = identity_of(st);
  std::optional<std::string> text(std::in_place);
  text->reserve(static_cast<std::size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      const int err = errno;
      text.reset();
      errno = err;
      break;
    }
    if (got == 0) break;
    text->append(buf, static_cast<std::size_t>(got));
  }
  ::close(fd);
  return text;
}

}  // namespace webrank
