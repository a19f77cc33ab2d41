#include "util/atomic_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <mutex>
#include <string>
#include <system_error>

#include "util/error.hpp"
#include "webrank/util/process.hpp"

namespace webrank {
namespace {

// Registry of temporaries to delete if a signal stops the process. Fixed storage and raw system
// calls (unlink, getdents64, unlinkat, rmdir) keep the handler async-signal-safe. A temporary
// directory is flat (the builder writes only files into it), so one level of removal suffices.
constexpr int kMaxEntries = 256;
constexpr int kMaxPath = 4096;
struct Entry {
  char path[kMaxPath];
  volatile sig_atomic_t live;
};
Entry g_entries[kMaxEntries];
std::atomic<int> g_count{0};
std::mutex g_mutex;

void remove_flat_directory(const char* path) {
  int fd = ::open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  alignas(8) static char buf[8192];
  for (;;) {
    long got = ::syscall(SYS_getdents64, fd, buf, sizeof buf);
    if (got <= 0) break;
    for (long off = 0; off < got;) {
      auto* entry = reinterpret_cast<struct dirent64*>(buf + off);
      const char* name = entry->d_name;
      if (!(name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0)))) {
        ::unlinkat(fd, name, 0);
      }
      off += entry->d_reclen;
    }
  }
  ::close(fd);
  ::rmdir(path);
}

int register_temp(const std::filesystem::path& p) {
  std::lock_guard lock(g_mutex);
  const std::string s = p.string();
  int n = g_count.load();
  if (n >= kMaxEntries || s.size() >= kMaxPath) return -1;  // still removed by the destructor
  ::strncpy(g_entries[n].path, s.c_str(), kMaxPath - 1);
  g_entries[n].live = 1;
  g_count.store(n + 1);
  return n;
}

void unregister_temp(int slot) {
  if (slot < 0) return;
  std::lock_guard lock(g_mutex);
  g_entries[slot].live = 0;
  int n = g_count.load();
  while (n > 0 && !g_entries[n - 1].live) --n;
  g_count.store(n);
}

bool process_alive(long pid) {
  return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

// The digits at `p` and where they end; nullptr if there are none.
const char* digits(const char* p, long* value) {
  char* end = nullptr;
  *value = std::strtol(p, &end, 10);
  return end == p || *p < '0' || *p > '9' ? nullptr : end;
}

// Removes `.NAME.webrank-tmp.PID.SEQ` siblings (and `.PID`, as webrank wrote them before
// temporaries were numbered) left by processes that no longer exist. A directory moved aside
// (`.old`: the only copy of a database while a replacement without RENAME_EXCHANGE was cut
// short) is not a temporary and is left alone.
void remove_stale_temporaries(const std::filesystem::path& destination) {
  namespace fs = std::filesystem;
  const fs::path dir = destination.has_parent_path() ? destination.parent_path() : fs::path(".");
  const std::string prefix = "." + destination.filename().string() + ".webrank-tmp.";
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    long pid = 0, seq = 0;
    const char* rest = digits(name.c_str() + prefix.size(), &pid);
    if (rest && *rest == '.') rest = digits(rest + 1, &seq);
    if (!rest || *rest != '\0') continue;
    if (pid != static_cast<long>(::getpid()) && !process_alive(pid)) fs::remove_all(it->path(), ec);
  }
}

// Tells apart the temporaries of one process: threads writing at once (the server, the Python
// module) each get their own name. The process id tells processes apart, and dead ones' leftovers.
std::atomic<std::uint64_t> g_next_temporary{0};

// Why `destination` could not be created through its temporary: named as the user gave it (not
// the hidden temporary), saying when its directory is missing. errno is that of the failure.
[[noreturn]] void fail_create(const std::filesystem::path& destination) {
  const int err = errno;
  const std::filesystem::path parent =
      destination.has_parent_path() ? destination.parent_path() : std::filesystem::path(".");
  std::error_code ec;
  if (err == ENOENT && !std::filesystem::is_directory(parent, ec)) {
    fail(ErrorKind::kNotFound, destination.string(), ": cannot create: the directory ",
         parent.string(), " does not exist");
  }
  errno = err;
  fail_errno(destination.string(), "cannot create");
}

// Swaps the names of `a` and `b` in one step (renameat2 RENAME_EXCHANGE): whoever looks sees
// the one or the other under each name, never neither. False where the file system cannot.
// The one place webrank exchanges names (a file replaced, a database directory replaced).
bool exchange_names(const std::filesystem::path& a, const std::filesystem::path& b) {
  return ::renameat2(AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE) == 0;
}

// Puts `temp` in place of the regular file `destination` by exchanging the two names, then
// removes the old file (now under the temporary name); false when `destination` is not a regular
// file or the file system cannot exchange names. Readers see the old file or the new one, as with
// rename(2). Why not rename(2): ext4 (auto_da_alloc) writes the new file's data out before a
// rename that replaces a file commits, a large part of a short `webrank rank` (measured in
// docs/performance.md, "Whole commands"). TempPath::commit()
// syncs the new file itself before the exchange and the directory after it.
bool exchange_with_file(const std::filesystem::path& temp,
                        const std::filesystem::path& destination) {
  struct stat st {};
  if (::lstat(destination.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  if (!exchange_names(temp, destination)) return false;
  ::unlink(temp.c_str());
  return true;
}

}  // namespace

void remove_temporaries() noexcept {
  const int saved_errno = errno;
  for (int i = g_count.load() - 1; i >= 0; --i) {
    if (!g_entries[i].live) continue;
    if (::unlink(g_entries[i].path) != 0 && errno == EISDIR)
      remove_flat_directory(g_entries[i].path);
  }
  errno = saved_errno;
}

TempPath::TempPath(std::filesystem::path destination) : destination_(std::move(destination)) {
  remove_stale_temporaries(destination_);
  const std::string name = "." + destination_.filename().string() + ".webrank-tmp." +
                           std::to_string(::getpid()) + "." +
                           std::to_string(g_next_temporary.fetch_add(1));
  temp_ = destination_.has_parent_path() ? destination_.parent_path() / name
                                         : std::filesystem::path(name);
  slot_ = register_temp(temp_);
}

TempPath::~TempPath() {
  if (!committed_) {
    std::error_code ec;
    std::filesystem::remove_all(temp_, ec);
  }
  unregister_temp(slot_);
}

void TempPath::make_directory() {
  std::error_code ec;
  std::filesystem::remove_all(temp_, ec);
  if (!std::filesystem::create_directory(temp_, ec) || ec) {
    errno = ec ? ec.value() : EEXIST;
    fail_create(destination_);
  }
}

void sync_path(const std::filesystem::path& path, bool recursive) {
  namespace fs = std::filesystem;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail_errno(path.string(), "cannot open to sync it to the disk");
  struct stat st {};
  const bool dir = ::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  // Some file systems cannot sync a directory (EINVAL): their renames are as durable as they get.
  if (rc != 0 && !(dir && err == EINVAL)) {
    errno = err;
    fail_errno(path.string(), "cannot sync to the disk");
  }
  if (!dir || !recursive) return;
  for (const auto& e : fs::directory_iterator(path)) {
    if (e.is_directory() || e.is_regular_file()) sync_path(e.path(), true);
  }
}

void sync_parent(const std::filesystem::path& path) {
  const std::filesystem::path parent =
      path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  sync_path(parent);
}

void TempPath::commit(bool replace_dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  sync_path(temp_, /*recursive=*/true);  // the new data is on the disk before it has the name
  if (replace_dir && fs::exists(destination_, ec) && exchange_names(temp_, destination_)) {
    // The two directories swapped names in one step: the destination is at every instant the
    // old complete directory or the new one. The old one, now under the temporary name, goes;
    // killed before that, it is a stale temporary, removed by the next write there.
    sync_parent(destination_);
    fs::remove_all(temp_, ec);
  } else if (replace_dir && fs::exists(destination_, ec)) {
    // A file system without RENAME_EXCHANGE: move the old directory aside, put the new one in
    // place, then drop the old one: at every instant one complete directory exists under one of
    // the two names.
    fs::path aside = temp_;
    aside += ".old";
    fs::rename(destination_, aside, ec);
    if (ec)
      fail(ErrorKind::kIo, destination_.string(),
           ": cannot move the existing database aside: ", ec.message());
    fs::rename(temp_, destination_, ec);
    if (ec) {
      std::error_code ignore;
      fs::rename(aside, destination_, ignore);
      fail(ErrorKind::kIo, destination_.string(),
           ": cannot rename the new database into place: ", ec.message());
    }
    fs::remove_all(aside, ec);
    sync_parent(destination_);
  } else if (!exchange_with_file(temp_, destination_)) {
    fs::rename(temp_, destination_, ec);
    if (ec)
      fail(ErrorKind::kIo, destination_.string(), ": cannot rename into place: ", ec.message());
    sync_parent(destination_);
  } else {
    sync_parent(destination_);
  }
  committed_ = true;
  unregister_temp(slot_);
  slot_ = -1;
}

AtomicFileWriter::AtomicFileWriter(const std::filesystem::path& destination)
    : name_(destination.string()) {
  if (destination == "-") {
    name_ = "<stdout>";
    file_ = stdout;
    return;
  }
  struct stat st {};
  const bool exists = ::stat(destination.c_str(), &st) == 0;
  if (exists && !S_ISREG(st.st_mode)) {
    // A device or FIFO (/dev/stdout, a pipe): it cannot be replaced, only written to. Renaming
    // onto it would replace the device node itself.
    file_ = std::fopen(destination.c_str(), "wb");
    if (!file_) fail_errno(name_, "cannot open for writing");
    owns_file_ = true;
    return;
  }
  // Through a symlink, replace the file it points to, not the link.
  temp_ =
      std::make_unique<TempPath>(exists ? std::filesystem::canonical(destination) : destination);
  file_ = std::fopen(temp_->path().c_str(), "wb");
  if (!file_) fail_create(destination);
  owns_file_ = true;
}

AtomicFileWriter::~AtomicFileWriter() {
  if (file_ && owns_file_) std::fclose(file_);
}

void AtomicFileWriter::write(const void* data, std::size_t n) {
  if (n && std::fwrite(data, 1, n, file_) != n) fail_errno(name_, "write failed");
}

void AtomicFileWriter::commit() {
  if (std::fflush(file_) != 0) fail_errno(name_, "write failed");
  if (!owns_file_) return;
  int rc = std::fclose(file_);
  file_ = nullptr;
  if (rc != 0) fail_errno(name_, "write failed");
  if (temp_) temp_->commit();
}

}  // namespace webrank
