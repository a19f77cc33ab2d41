// `webrank crawl`: fetch a web from seed URLs and build its link database (SPEC §4).
//
// Contract:
// - Everything fetched is journaled as WARC records in DB.crawl/ (journal-NNNNN.warc.gz, one
//   gzip member per record, flushed per record): `response` records for HTTP (the response as
//   received, without chunking), `resource` records for file:// pages, `metadata` records for
//   URLs that could not be fetched (after the retries). Each carries X-Webrank-Depth. The
//   database is then built from the journal by the `warc` importer (warc_import.cpp), so a
//   crawl, a file:// crawl and the import of the journal give the same web by construction.
// - A stop request (request_stop(), from SIGINT/SIGTERM) ends fetching: transfers in flight
//   are dropped (not journaled), and the database is built from what was journaled.
// - `resume`: the journal is read back (a record cut short at the end of a file, from a crawl
//   killed outright, is dropped and the file rewritten without it), every journaled URL is
//   seen, the links of the journaled pages rebuild the frontier, and the crawl continues into a
//   new journal file. Without `resume` an existing DB.crawl/ is refused (or removed with
//   `force`). The seeds and scope of the first run are kept in DB.crawl/crawl.json and used
//   when none are given.
// - Politeness, robots.txt, scope, limits and traps: frontier.hpp, robots.hpp. Redirects are
//   journaled hop by hop and followed up to max_redirects hops (a redirect is a link from the
//   old URL to the new one). Transport failures, 429 and 5xx are retried `retries` times with
//   exponential back-off (backoff × 2^attempt seconds).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "crawl/fetcher.hpp"
#include "crawl/frontier.hpp"
#include "webrank/build.hpp"

namespace webrank::crawl {

struct CrawlOptions {
  std::vector<std::string> seeds;
  std::filesystem::path output;  // the database; the journal is output + ".crawl"
  FrontierOptions frontier;      // prefixes/hosts empty: the seeds' hosts (file: their dirs)
  FetcherOptions fetcher;
  std::uint64_t max_pages = 10000;
  int retries = 2;
  double backoff = 0.5;
  int max_redirects = 5;
  bool robots = true;
  bool resume = false;
  bool force = false;
};

struct CrawlProgress {
  std::uint64_t pages = 0;  // journaled (resumed ones included)
  std::uint64_t queued = 0, in_flight = 0, errors = 0, bytes = 0;
  double seconds = 0;
};

struct CrawlReport {
  std::uint64_t pages = 0;        // journaled in total
  std::uint64_t fetched_now = 0;  // journaled by this run
  std::uint64_t resumed = 0;      // read back from the journal
  std::uint64_t errors = 0;       // URLs given up after retries
  std::uint64_t retries = 0;      // retry attempts made
  std::uint64_t robots_blocked = 0, trapped = 0, too_deep = 0, out_of_scope = 0;
  std::uint64_t bytes = 0;
  bool interrupted = false, page_limit = false;
  double crawl_seconds = 0;
  BuildReport build;
};

// Async-signal-safe: asks a running crawl to stop fetching and build what it has.
void request_stop();

CrawlReport crawl(const CrawlOptions& options,
                  const std::function<void(const CrawlProgress&)>& on_progress,
                  const std::function<void(const BuildProgress&)>& on_build_progress);

}  // namespace webrank::crawl
