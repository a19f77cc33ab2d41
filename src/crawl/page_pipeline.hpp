// The crawl's work off the transfer thread: each fetched page becomes its journal record (WARC,
// one gzip member) and its page record (HTML parsed for links, title and text) on worker threads,
// side by side; the results are then committed one at a time, in the order the pages were handed
// over: the record is appended to the journal and flushed, the page record goes to the database
// builder, and the page's links go back to the crawler.
//
// Contract:
// - submit() hands over one page; pages are committed in submission order, whichever worker
//   finishes first. A page's links come back (take()) only once its record is in the journal:
//   whatever the crawl fetches next was discovered by a journaled page, so --resume, which
//   rebuilds the frontier from the journal, loses nothing (src/crawl/crawler.cpp).
// - The page record is made from the journal record by the `warc` input format's own reading
//   (ingest/warc_pages.hpp), so the database built as the crawl goes is the one an import of the
//   journal gives.
// - `on_commit` is called after commits, on a worker thread (the crawler wakes its transfer loop
//   with it when that waits for nothing else).
// - The first error of a worker (a journal write that fails, a response that does not parse)
//   stops all further commits; rethrow() throws it on the caller's thread.
// Threads: submit, take, pending, drain, wait_below and rethrow are called from one thread (the
// crawler's).
#pragma once

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "crawl/frontier.hpp"
#include "web/http_message.hpp"
#include "web/warc.hpp"
#include "writer/record_sink.hpp"

namespace webrank::crawl {

struct PageJob {
  FrontierItem item;
  web::WarcRecord record;
  bool journaled = false;  // read back from the journal (--resume): not written again
  std::string file;        // the journal file it is (or goes) in, for error messages
  // Bodies are decoded to at most this (--max-bytes): a journaled gzip bomb stays bounded.
  std::uint64_t max_body = web::kDefaultMaxBodyBytes;
  // URLs longer than this become no page label (--max-url-length): links, redirect targets.
  std::size_t max_url_length = static_cast<std::size_t>(-1);
};

struct CommittedPage {
  FrontierItem item;
  bool journaled = false;
  bool redirect = false;  // a 3xx: its one link is the next hop
  int status = 0;         // the page's HTTP status (200 for a file), 0 if not fetched
  std::uint64_t body_bytes = 0;
  std::vector<std::string> links;  // targets in document order (nofollow ones included)
};

class PagePipeline {
 public:
  // `sink` receives every page record; the journal (set_journal(), before the first job that is
  // not `journaled`) the new records; `threads` workers (at least one).
  PagePipeline(RecordSink& sink, int threads, std::function<void()> on_commit);
  ~PagePipeline();  // stops the workers; pages not yet committed are dropped
  PagePipeline(const PagePipeline&) = delete;
  PagePipeline& operator=(const PagePipeline&) = delete;

  void set_journal(web::WarcWriter* journal) { journal_ = journal; }
  void submit(PageJob job);
  // The pages committed since the last call, in commit order.
  std::vector<CommittedPage> take();
  // Whether take() would return pages now.
  bool has_committed() const;
  // Pages submitted and not yet committed.
  std::size_t pending() const;
  // Waits until every page submitted is committed (or a worker failed).
  void drain();
  // Waits until fewer than `n` pages are pending (or a worker failed).
  void wait_below(std::size_t n);
  // Throws the first error of a worker, if any.
  void rethrow() const;

 private:
  struct Done {
    std::uint64_t seq = 0;
    FrontierItem item;
    bool journaled = false;
    std::string encoded;             // the gzip member to append (not for journaled pages)
    std::optional<PageRecord> page;  // none for records the `warc` format skips
    std::uint64_t body_bytes = 0;
  };
  void work();
  void finish(Done d);
  void commit(Done& d);

  RecordSink& sink_;
  web::WarcWriter* journal_ = nullptr;
  std::function<void()> on_commit_;

  mutable std::mutex mu_;
  std::condition_variable work_cv_, done_cv_;
  std::deque<std::pair<std::uint64_t, PageJob>> queue_;
  std::map<std::uint64_t, Done> ready_;  // finished, waiting for their turn to commit
  std::vector<CommittedPage> committed_;
  std::uint64_t submitted_ = 0, next_commit_ = 0;
  bool committing_ = false, closing_ = false;
  std::exception_ptr error_;
  std::vector<std::thread> workers_;
};

}  // namespace webrank::crawl
