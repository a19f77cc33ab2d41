#include "writer/external_csr.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <optional>

#include "store/db_layout.hpp"
#include "store/manifest_section.hpp"
#include "store/section_file.hpp"
#include "util/error.hpp"
#include "webrank/util/error.hpp"
#include "writer/link_runs.hpp"

namespace webrank {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t kBlock = 1 << 20;  // elements per write or read block
constexpr std::uint64_t kMinSliceLinks = 1 << 16;
constexpr std::uint64_t kMaxSlices = 8;

// Appends elements to a section in blocks, then lists it in the manifest.
template <typename T>
class SectionStream {
 public:
  SectionStream(const fs::path& dir, const char* name)
      : name_(name), writer_(dir / name, name, sizeof(T)) {
    buffer_.reserve(kBlock);
  }
  void push(T value) {
    buffer_.push_back(value);
    if (buffer_.size() == kBlock) flush();
  }
  void append(const std::vector<T>& values) {
    flush();
    writer_.append(std::span<const T>(values));
    count_ += values.size();
  }
  void finish(nlohmann::json& manifest) {
    flush();
    list_section(manifest, name_, name_, count_, sizeof(T), writer_.finish());
  }

 private:
  void flush() {
    writer_.append(std::span<const T>(buffer_));
    count_ += buffer_.size();
    buffer_.clear();
  }
  const char* name_;
  SectionWriter writer_;
  std::vector<T> buffer_;
  std::uint64_t count_ = 0;
};

// Reads the payload of a section written in this build, block by block, from element `first`.
template <typename T>
class SectionScan {
 public:
  explicit SectionScan(const fs::path& file) : path_(file), file_(std::fopen(file.c_str(), "rb")) {
    if (!file_) fail_errno(file.string(), "cannot open");
    buffer_.resize(kBlock);
  }
  ~SectionScan() { std::fclose(file_); }
  void rewind() {
    if (std::fseek(file_, static_cast<long>(kSectionHeaderBytes), SEEK_SET) != 0)
      fail_errno(path_.string(), "seek failed");
  }
  // The next `n` (<= kBlock) elements.
  const T* read(std::size_t n) {
    if (std::fread(buffer_.data(), sizeof(T), n, file_) != n)
      fail_errno(path_.string(), "read failed");
    return buffer_.data();
  }

 private:
  fs::path path_;
  std::FILE* file_;
  std::vector<T> buffer_;
};

}  // namespace

ExternalLinkStats write_links_from_runs(const fs::path& dir, PageId pages,
                                        const std::vector<fs::path>& runs, bool weighted,
                                        std::uint64_t memory_budget, nlohmann::json& manifest,
                                        const ExternalProgress& progress) {
  ExternalLinkStats stats;
  std::uint64_t run_bytes = 0;
  for (const auto& r : runs) run_bytes += fs::file_size(r);

  // 1. Forward links: merge the runs, merging identical links (weights added in input order).
  std::vector<std::uint64_t> out_offsets(static_cast<std::size_t>(pages) + 1, 0);
  std::vector<std::uint64_t> in_offsets(static_cast<std::size_t>(pages) + 1, 0);
  {
    const std::size_t buffer = static_cast<std::size_t>(
        std::clamp<std::uint64_t>(memory_budget / 4 / std::max<std::size_t>(runs.size(), 1),
                                  std::uint64_t{64} << 10, std::uint64_t{16} << 20));
    LinkRunMerger merger(runs, weighted, buffer);
    SectionStream<PageId> targets(dir, layout::kFwdTargets);
    std::optional<SectionStream<double>> weights;
    if (weighted) weights.emplace(dir, layout::kFwdWeights);
    PageId page = kNoPage;  // the source whose out-weight is being summed
    double strength = 0;
    PageId pages_with_strength = 0;
    auto emit = [&](const LinkRecord& l) {
      ++out_offsets[l.source + 1];
      ++in_offsets[l.target + 1];
      if (l.source == l.target) ++stats.self_links;
      targets.push(l.target);
      if (weighted) weights->push(l.weight);
      if (l.source != page) {
        if (page != kNoPage && strength != 0) ++pages_with_strength;
        page = l.source;
        strength = 0;
      }
      strength += weighted ? l.weight : 1.0;
    };
    LinkRecord r, current;
    bool have = false;
    std::uint64_t next_report = 0;
    while (merger.next(r)) {
      if (have && r.source == current.source && r.target == current.target) {
        current.weight += r.weight;
        continue;
      }
      if (have) emit(current);
      current = r;
      have = true;
      if (progress && merger.bytes_read() >= next_report) {
        progress("merging", merger.bytes_read(), run_bytes);
        next_report = merger.bytes_read() + (64 << 20);
      }
    }
    if (have) emit(current);
    if (page != kNoPage && strength != 0) ++pages_with_strength;
    stats.dangling_pages = pages - pages_with_strength;
    targets.finish(manifest);
    if (weighted) weights->finish(manifest);
  }
  std::error_code ec;
  for (const auto& r : runs) fs::remove(r, ec);  // merged: give the disk space back now
  std::partial_sum(out_offsets.begin(), out_offsets.end(), out_offsets.begin());
  std::partial_sum(in_offsets.begin(), in_offsets.end(), in_offsets.begin());
  stats.links = out_offsets.back();
  write_section(dir, layout::kFwdOffsets, out_offsets, manifest);
  write_section(dir, layout::kBwdOffsets, in_offsets, manifest);

  // 2. Backlinks, a slice of targets at a time: 3/4 of what is left of the budget after the
  // per-page arrays and the scan buffers holds the slice's sources (and weights), the rest is
  // slack for the allocator and the stream buffers (without it the peak passed the budget;
  // docs/performance.md). Every scan meets the sources in order. Each
  // slice costs a scan of the forward links, hence floors on its size: there are never more
  // than kMaxSlices (the budget is exceeded instead, when the pages leave it too little room).
  const std::uint64_t link_bytes = weighted ? 12 : 4;
  const std::uint64_t fixed = 3 * 8 * (std::uint64_t{pages} + 1) + 3 * kBlock * link_bytes;
  const std::uint64_t slice_links = std::max<std::uint64_t>(
      {kMinSliceLinks, out_offsets.back() / kMaxSlices,
       memory_budget > fixed ? (memory_budget - fixed) / 4 * 3 / link_bytes : 0});
  SectionStream<PageId> sources(dir, layout::kBwdSources);
  std::optional<SectionStream<double>> in_weights;
  if (weighted) in_weights.emplace(dir, layout::kBwdWeights);
  SectionScan<PageId> scan_targets(dir / layout::kFwdTargets);
  std::optional<SectionScan<double>> scan_weights;
  if (weighted) scan_weights.emplace(dir / layout::kFwdWeights);
  std::vector<PageId> slice_ends;  // slice i is the targets [slice_ends[i-1], slice_ends[i])
  for (PageId first = 0; first < pages;) {
    PageId last = first + 1;  // at least one target per slice, however many backlinks it has
    while (last < pages && in_offsets[last + 1] - in_offsets[first] <= slice_links) ++last;
    slice_ends.push_back(last);
    first = last;
  }
  const std::uint64_t m = stats.links;
  std::uint64_t scanned = 0;
  std::vector<PageId> slice;
  std::vector<double> slice_weights;
  std::vector<std::uint64_t> cursor;
  PageId first = 0;
  for (const PageId last : slice_ends) {
    const std::uint64_t base = in_offsets[first];
    slice.assign(in_offsets[last] - base, 0);
    if (weighted) slice_weights.assign(slice.size(), 0);
    cursor.assign(in_offsets.begin() + first, in_offsets.begin() + last);
    scan_targets.rewind();
    if (weighted) scan_weights->rewind();
    PageId u = 0;
    for (std::uint64_t at = 0; at < m && !slice.empty(); at += kBlock) {
      const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(kBlock, m - at));
      const PageId* t = scan_targets.read(n);
      const double* w = weighted ? scan_weights->read(n) : nullptr;
      for (std::size_t j = 0; j < n; ++j) {
        while (out_offsets[u + 1] <= at + j) ++u;
        if (t[j] >= first && t[j] < last) {
          const std::uint64_t to = cursor[t[j] - first]++ - base;
          slice[to] = u;
          if (weighted) slice_weights[to] = w[j];
        }
      }
      scanned += n;
      if (progress) progress("backlinks", scanned, m * slice_ends.size());
    }
    sources.append(slice);
    if (weighted) in_weights->append(slice_weights);
    first = last;
  }
  sources.finish(manifest);
  if (weighted) in_weights->finish(manifest);
  return stats;
}

}  // namespace webrank
