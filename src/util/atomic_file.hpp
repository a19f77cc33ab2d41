// Writing outputs so that nothing half-written is ever left where the user looks, and nothing
// the user had is lost by a failed or interrupted run.
//
// TempPath reserves a hidden sibling of the destination (`.NAME.webrank-tmp.PID.SEQ`: SEQ counts
// the process's temporaries, so that threads writing the same destination never share one),
// registers it for removal by remove_temporaries() (webrank/util/process.hpp: a front end's signal
// handler calls it), and removes it in its destructor unless commit() renamed it onto the
// destination. Works for files and directories. Stale temporaries of dead processes are removed the
// next time the same destination is written.
//
// Durability (docs/format.md, "What survives a power loss"): commit() writes the temporary's data
// to the disk (fsync of the file, or of every file and directory of a temporary directory) before
// it takes the destination's name, and the name change itself (fsync of the parent directory)
// before it returns: once commit() returned, the new output survives a power loss; before, the
// old one does.
#pragma once

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

namespace webrank {

class TempPath {
 public:
  explicit TempPath(std::filesystem::path destination);
  TempPath(const TempPath&) = delete;
  TempPath& operator=(const TempPath&) = delete;
  ~TempPath();

  const std::filesystem::path& path() const { return temp_; }
  // Creates the temporary as a directory (its files are removed with it on a signal).
  void make_directory();
  // Puts the temporary in place of the destination, durably (above). With replace_dir, an
  // existing destination directory is exchanged with the temporary in one step
  // (renameat2 RENAME_EXCHANGE: the destination's name always names a complete directory, even
  // if the process is killed) and the old one, now under the temporary name, removed after.
  void commit(bool replace_dir = false);

 private:
  std::filesystem::path destination_;
  std::filesystem::path temp_;
  bool committed_ = false;
  int slot_ = -1;
};

// fsync of the file or directory `path`; of every file and directory under it with `recursive`.
// Throws Error (kIo) naming the path.
void sync_path(const std::filesystem::path& path, bool recursive = false);
// fsync of the directory holding `path` (after a rename into it).
void sync_parent(const std::filesystem::path& path);

// A buffered output file written through a TempPath: write, then commit(). A regular file (or
// a new one) is replaced atomically; through a symlink, the file it points to is replaced and the
// link kept. "-" is standard output, and an existing device or FIFO (/dev/stdout, a pipe) is
// written in place, since neither can be replaced.
class AtomicFileWriter {
 public:
  explicit AtomicFileWriter(const std::filesystem::path& destination);
  ~AtomicFileWriter();
  std::FILE* stream() { return file_; }
  void write(const void* data, std::size_t n);
  void write(const std::string& s) { write(s.data(), s.size()); }
  void commit();  // flush, close, rename (in-place outputs: flush only)

 private:
  std::string name_;                // for messages
  std::unique_ptr<TempPath> temp_;  // null when writing in place
  std::FILE* file_ = nullptr;
  bool owns_file_ = false;
};

}  // namespace webrank
