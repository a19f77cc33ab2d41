// Page records made on every core and handed to a sink in input order: parsing HTML (title,
// text, links) and compressing the stored copy are most of an import of crawls, and each page's
// are independent of the others'. The readers (warc.cpp, html_dir.cpp) add one job per page;
// a full batch is made in parallel, then passed to the sink one record at a time, in the order
// added, so the database is the one a single thread builds. A job's error is rethrown when its
// turn comes, after the records before it were passed on.
#pragma once

#include <omp.h>

#include <exception>
#include <functional>
#include <vector>

#include "util/compression.hpp"
#include "writer/record_sink.hpp"

namespace webrank {

class PageBatch {
 public:
  explicit PageBatch(RecordSink& sink) : sink_(sink) {}
  PageBatch(const PageBatch&) = delete;
  PageBatch& operator=(const PageBatch&) = delete;

  // Adds the making of one page record; `bytes` (its input's size) bounds the batch's memory.
  void add(std::function<PageRecord()> make, std::size_t bytes) {
    jobs_.push_back(std::move(make));
    bytes_ += bytes;
    if (jobs_.size() >= kMaxPages || bytes_ >= kMaxBytes) flush();
  }

  // Makes the pending records and passes them on. Must be called after the last add().
  void flush() {
    const auto n = static_cast<std::int64_t>(jobs_.size());
    records_.resize(jobs_.size());
    failed_.assign(jobs_.size(), nullptr);
#pragma omp parallel for schedule(dynamic, 1) if (n > 1 && omp_get_max_threads() > 1)
    for (std::int64_t i = 0; i < n; ++i) {
      try {
        PageRecord r = jobs_[i]();
        // The stored copy compressed here, on this core, not by the sink.
        if (!r.html.empty()) r.html_zstd = zstd_compress(r.html);
        records_[i] = std::move(r);
      } catch (...) {
        failed_[i] = std::current_exception();
      }
    }
    for (std::size_t i = 0; i < jobs_.size(); ++i) {
      if (failed_[i]) {
        jobs_.clear();
        records_.clear();
        bytes_ = 0;
        std::rethrow_exception(failed_[i]);
      }
      sink_.page_record(records_[i]);
    }
    jobs_.clear();
    records_.clear();
    bytes_ = 0;
  }

 private:
  static constexpr std::size_t kMaxPages = 256;
  static constexpr std::size_t kMaxBytes = 64 << 20;
  RecordSink& sink_;
  std::vector<std::function<PageRecord()>> jobs_;
  std::vector<PageRecord> records_;
  std::vector<std::exception_ptr> failed_;
  std::size_t bytes_ = 0;
};

}  // namespace webrank
