#include "crawl/page_pipeline.hpp"

#include "ingest/warc_pages.hpp"
#include "web/page_record.hpp"

namespace webrank::crawl {
namespace {

// zlib's fastest level: a slightly larger journal for much less compression time (measured in
// docs/performance.md, "Numbers behind choices in the code").
constexpr int kJournalCompression = 1;

}  // namespace

PagePipeline::PagePipeline(RecordSink& sink, int threads, std::function<void()> on_commit)
    : sink_(sink), on_commit_(std::move(on_commit)) {
  for (int i = 0; i < std::max(1, threads); ++i) workers_.emplace_back([this] { work(); });
}

PagePipeline::~PagePipeline() {
  {
    std::lock_guard lock(mu_);
    closing_ = true;
    queue_.clear();
  }
  work_cv_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void PagePipeline::submit(PageJob job) {
  {
    std::lock_guard lock(mu_);
    queue_.emplace_back(submitted_++, std::move(job));
  }
  work_cv_.notify_one();
}

std::vector<CommittedPage> PagePipeline::take() {
  std::lock_guard lock(mu_);
  return std::exchange(committed_, {});
}

bool PagePipeline::has_committed() const {
  std::lock_guard lock(mu_);
  return !committed_.empty();
}

std::size_t PagePipeline::pending() const {
  std::lock_guard lock(mu_);
  return submitted_ - next_commit_;
}

void PagePipeline::drain() {
  std::unique_lock lock(mu_);
  done_cv_.wait(lock, [&] { return next_commit_ == submitted_ || error_; });
}

void PagePipeline::wait_below(std::size_t n) {
  std::unique_lock lock(mu_);
  done_cv_.wait(lock, [&] { return submitted_ - next_commit_ < n || error_; });
}

void PagePipeline::rethrow() const {
  std::lock_guard lock(mu_);
  if (error_) std::rethrow_exception(error_);
}

void PagePipeline::work() {
  for (;;) {
    std::pair<std::uint64_t, PageJob> job;
    {
      std::unique_lock lock(mu_);
      work_cv_.wait(lock, [&] { return closing_ || !queue_.empty(); });
      if (closing_) return;
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    Done d;
    d.seq = job.first;
    d.item = std::move(job.second.item);
    d.journaled = job.second.journaled;
    try {
      const web::WarcRecord& rec = job.second.record;
      const WarcCapture c = read_warc_capture(rec, job.second.file, job.second.max_body);
      if (c.kind == WarcCapture::Kind::kCapture || c.kind == WarcCapture::Kind::kUnfetched) {
        d.page = capture_page(c);
        web::drop_long_urls(*d.page, job.second.max_url_length);
      }
      d.body_bytes = c.body.size();
      if (!d.journaled) d.encoded = web::encode_warc_record(rec, kJournalCompression);
    } catch (...) {
      std::lock_guard lock(mu_);
      if (!error_) error_ = std::current_exception();
      done_cv_.notify_all();
      continue;
    }
    finish(std::move(d));
  }
}

// Whoever finishes the next page in order commits it and every page ready after it; the others
// leave theirs for that thread. One thread commits at a time, so the journal and the sink are
// written in order.
void PagePipeline::finish(Done d) {
  std::unique_lock lock(mu_);
  ready_.emplace(d.seq, std::move(d));
  if (committing_) return;
  committing_ = true;
  while (!error_ && !ready_.empty() && ready_.begin()->first == next_commit_) {
    Done next = std::move(ready_.begin()->second);
    ready_.erase(ready_.begin());
    lock.unlock();
    try {
      commit(next);
    } catch (...) {
      lock.lock();
      if (!error_) error_ = std::current_exception();
      break;
    }
    lock.lock();
    ++next_commit_;
  }
  committing_ = false;
  done_cv_.notify_all();
  lock.unlock();
  if (on_commit_) on_commit_();
}

void PagePipeline::commit(Done& d) {
  if (!d.journaled) journal_->write_encoded(d.encoded);
  CommittedPage c;
  c.item = std::move(d.item);
  c.journaled = d.journaled;
  c.body_bytes = d.body_bytes;
  if (d.page) {
    sink_.page_record(*d.page);
    c.status = d.page->status;
    c.redirect = d.page->status >= 300 && d.page->status < 400;
    c.links.reserve(d.page->links.size());
    for (PageLink& l : d.page->links) c.links.push_back(std::move(l.target));
  }
  std::lock_guard lock(mu_);
  committed_.push_back(std::move(c));
}

}  // namespace webrank::crawl
