#include "writer/link_runs.hpp"

#include <cstring>

#include "util/error.hpp"
#include "webrank/util/error.hpp"
#include "writer/csr_builder.hpp"

namespace webrank {
namespace {

constexpr std::size_t kWriteBuffer = 1 << 20;

std::uint64_t key_of(const LinkRecord& r) {
  return std::uint64_t{r.source} << 32 | r.target;
}

}  // namespace

std::uint64_t write_link_run(const std::filesystem::path& file, PageId pages,
                             std::vector<PageId>&& sources, std::vector<PageId>&& targets,
                             std::vector<double>&& weights) {
  const bool weighted = !weights.empty();
  const LinkLists lists = sorted_out_lists(pages, std::move(sources), std::move(targets),
                                           std::move(weights), /*merge=*/!weighted);
  std::FILE* out = std::fopen(file.c_str(), "wb");
  if (!out) fail_errno(file.string(), "cannot create");
  std::vector<char> buffer;
  buffer.reserve(kWriteBuffer + 16);
  std::uint64_t written = 0;
  auto flush = [&] {
    if (!buffer.empty() && std::fwrite(buffer.data(), 1, buffer.size(), out) != buffer.size()) {
      std::fclose(out);
      fail_errno(file.string(), "write failed");
    }
    written += buffer.size();
    buffer.clear();
  };
  auto put = [&buffer](const auto& value) {
    const char* p = reinterpret_cast<const char*>(&value);
    buffer.insert(buffer.end(), p, p + sizeof value);
  };
  for (PageId u = 0; u < pages; ++u) {
    for (std::uint64_t i = lists.offsets[u]; i < lists.offsets[u + 1]; ++i) {
      put(u);
      put(lists.ids[i]);
      if (weighted) put(lists.weights[i]);
      if (buffer.size() >= kWriteBuffer) flush();
    }
  }
  flush();
  if (std::fclose(out) != 0) fail_errno(file.string(), "write failed");
  return written;
}

LinkRunMerger::LinkRunMerger(const std::vector<std::filesystem::path>& runs, bool weighted,
                             std::size_t buffer_bytes)
    : weighted_(weighted),
      record_bytes_(weighted ? 16 : 8),
      runs_(runs.size()),
      heads_(runs.size()) {
  const std::size_t records = std::max<std::size_t>(1, buffer_bytes / record_bytes_);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    Run& r = runs_[i];
    r.path = runs[i];
    r.file = std::fopen(r.path.c_str(), "rb");
    if (!r.file) fail_errno(r.path.string(), "cannot open");
    r.buffer.resize(records * record_bytes_);
    if (read_record(i, heads_[i])) queue_.emplace(key_of(heads_[i]), static_cast<std::uint32_t>(i));
  }
}

LinkRunMerger::~LinkRunMerger() {
  for (Run& r : runs_) {
    if (r.file) std::fclose(r.file);
  }
}

bool LinkRunMerger::read_record(std::size_t run, LinkRecord& record) {
  Run& r = runs_[run];
  if (r.at == r.end) {
    r.at = 0;
    r.end = std::fread(r.buffer.data(), 1, r.buffer.size(), r.file);
    if (r.end == 0) {
      if (std::ferror(r.file)) fail_errno(r.path.string(), "read failed");
      return false;
    }
    if (r.end % record_bytes_ != 0)
      fail(ErrorKind::kInvalidInput, r.path.string(), ": truncated run of links");
    bytes_read_ += r.end;
  }
  const char* p = r.buffer.data() + r.at;
  std::memcpy(&record.source, p, 4);
  std::memcpy(&record.target, p + 4, 4);
  if (weighted_) std::memcpy(&record.weight, p + 8, 8);
  r.at += record_bytes_;
  return true;
}

bool LinkRunMerger::next(LinkRecord& record) {
  if (queue_.empty()) return false;
  const std::uint32_t run = queue_.top().second;
  queue_.pop();
  record = heads_[run];
  if (read_record(run, heads_[run])) queue_.emplace(key_of(heads_[run]), run);
  return true;
}

}  // namespace webrank
