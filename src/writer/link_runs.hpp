// Sorted runs of links on disk, for builds whose links do not fit in the memory budget. Each run
// holds the links of one stretch of the input, sorted by (source, target): identical links are
// merged in unweighted runs and kept, in input order, in weighted ones (merging them across runs
// would add the weights in another order than the in-memory build, and change the last bits).
// The merger reads all runs back as one stream in (source, target, run) order: since runs follow
// the input, that is input order among identical links.
//
// A run file is a flat array of records: u32 source, u32 target, then an f64 weight if weighted;
// native byte order (a temporary, read back by the process that wrote it).
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <queue>
#include <vector>

#include "webrank/util/graph.hpp"

namespace webrank {

struct LinkRecord {
  PageId source = 0, target = 0;
  double weight = 1.0;
};

// Sorts the links (consumed; ids below `pages`) and writes them to `file` as one run. Returns the
// bytes written. Throws Error naming the file if it cannot be written (disk full...).
std::uint64_t write_link_run(const std::filesystem::path& file, PageId pages,
                             std::vector<PageId>&& sources, std::vector<PageId>&& targets,
                             std::vector<double>&& weights);

class LinkRunMerger {
 public:
  // Opens every run; each gets a read buffer of about `buffer_bytes`.
  LinkRunMerger(const std::vector<std::filesystem::path>& runs, bool weighted,
                std::size_t buffer_bytes);
  LinkRunMerger(const LinkRunMerger&) = delete;
  LinkRunMerger& operator=(const LinkRunMerger&) = delete;
  ~LinkRunMerger();

  // The next record of the merged stream; false once every run is exhausted.
  bool next(LinkRecord& record);
  std::uint64_t bytes_read() const { return bytes_read_; }

 private:
  struct Run {
    std::filesystem::path path;
    std::FILE* file = nullptr;
    std::vector<char> buffer;
    std::size_t at = 0, end = 0;
  };
  bool read_record(std::size_t run, LinkRecord& record);

  bool weighted_;
  std::size_t record_bytes_;
  std::vector<Run> runs_;
  std::vector<LinkRecord> heads_;  // the next record of each run still in the queue
  // (source << 32 | target, run): the smallest key comes first, the earliest run among equals.
  using Entry = std::pair<std::uint64_t, std::uint32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue_;
  std::uint64_t bytes_read_ = 0;
};

}  // namespace webrank
