// Crawling a web from seed URLs and building its link database with page data (`webrank
// crawl`; the paper's §3).
// Contract:
// - Everything fetched is journaled as WARC records in DB.crawl/ (journal-NNNNN.warc.gz, one
//   gzip member per record, flushed per record): `response` records for HTTP (the response as
//   received, without chunking), `resource` records for file:// pages, `metadata` records for
//   URLs that could not be fetched (after the retries). Each carries X-Webrank-Depth (and
//   X-Webrank-Redirects, X-Webrank-Shape-Depth: what --resume needs to queue its links). Each
//   record is turned into a page by the `warc` importer's own reading (src/ingest/warc_pages.hpp)
//   and handed to the database builder in journal order as the crawl goes (the links are sorted
//   and the database written once fetching ends), so a crawl, a file:// crawl and the import of
//   the journal give the same web, page ids included, by construction. A page's links are
//   followed only once its record is in the journal.
// - A stop request (CrawlOptions::stop) ends fetching: transfers in flight are dropped (not
//   journaled), pages already fetched are journaled, and the database is built from what was
//   journaled (the build itself is not stopped by it).
// - `resume`: the journal is read back (a record cut short at the end of a file, from a crawl
//   killed outright, is dropped and the file rewritten without it), every journaled URL is
//   seen, the links of the journaled pages rebuild the frontier, and the crawl continues into a
//   new journal file. Without `resume` an existing DB.crawl/ is refused (or removed with
//   `force`). The seeds and scope of the first run are kept in DB.crawl/crawl.json and used
//   when none are given.
// - Politeness, robots.txt, scope, limits and traps: src/crawl/frontier.hpp, robots.hpp. Redirects
// are
//   journaled hop by hop and followed up to max_redirects hops (a redirect is a link from the
//   old URL to the new one). Transport failures, 429 and 5xx are retried `retries` times with
//   exponential back-off (backoff × 2^attempt seconds).
//
// Threads: crawl_web() runs the transfers on the calling thread (multiplexed by libcurl), parses
// and journals the fetched pages on `threads` more (src/crawl/page_pipeline.hpp), then builds
// with the build's threads; several crawls may run at once into different databases.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

#include "webrank/ingest/build.hpp"
#include "webrank/ingest/update.hpp"

namespace webrank {

// What is fetched, and how politely (src/crawl/frontier.hpp has the trap rules).
struct FrontierOptions {
  std::vector<std::string> prefixes;  // URL prefixes in scope
  std::vector<std::string> hosts;     // hosts (host[:port]) in scope
  int max_depth = 50;
  std::size_t max_url_length = 1024;
  int max_segment_repeats = 3;
  int max_path_segments = 30;
  int max_query_variants = 100;
  int max_shape_variants = 1000;
  double delay = 0.25;  // seconds between fetches of one host
  int per_host = 2;     // fetches of one host in flight
  // Bytes of queued URLs kept in memory; the rest wait in DB.crawl/frontier.spill.
  std::uint64_t memory = 128ull << 20;
};

// How pages are fetched (src/crawl/fetcher.hpp).
struct FetcherOptions {
  double timeout = 30;          // seconds for the whole transfer
  double connect_timeout = 10;  // seconds
  std::uint64_t max_bytes = 10 << 20;
  std::string user_agent = "webrank/0.1 (+https://github.com/webrank)";
  int max_connections = 16;
};

struct CrawlProgress {
  std::uint64_t pages = 0;  // journaled (resumed ones included)
  std::uint64_t queued = 0, in_flight = 0, errors = 0, bytes = 0;
  std::uint64_t spilled = 0;  // of the queued URLs, those waiting on disk (FrontierOptions::memory)
  double seconds = 0;
};

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
  // Threads that parse and journal fetched pages beside the transfers, and build the database
  // (0 = one per core).
  int threads = 0;
  // Ends fetching when requested; the database is then built from what was fetched.
  std::stop_token stop;
  // Called now and then while fetching, then while building (both may be empty).
  std::function<void(const CrawlProgress&)> on_progress;
  std::function<void(const BuildProgress&)> on_build_progress;
};

// A seed (or a redirect hop of one) that gave no page, and why.
struct SeedFailure {
  std::string url;
  std::string reason;  // "HTTP 404", "Couldn't connect to server (after 2 retries)", ...
};

struct CrawlReport {
  std::uint64_t pages = 0;        // journaled in total
  std::uint64_t fetched_now = 0;  // journaled by this run
  std::uint64_t resumed = 0;      // read back from the journal
  std::uint64_t errors = 0;       // URLs given up after retries
  std::uint64_t retries = 0;      // retry attempts made
  std::uint64_t robots_blocked = 0, trapped = 0, too_deep = 0, out_of_scope = 0;
  std::uint64_t bytes = 0;
  // Pages that came back (2xx, or read from disk), this run and resumed: a crawl with none
  // fetched no page at all, whatever else it learned.
  std::uint64_t ok_pages = 0;
  std::vector<SeedFailure> seed_failures;
  bool interrupted = false, page_limit = false;
  double crawl_seconds = 0;
  BuildReport build;
};

// Crawls, journals and builds (contract above). Throws Error: kInvalidArgument for a bad seed or
// options, kExists for an existing journal or database without resume/force, kNotFound for
// resume without a journal; the journal is kept whatever happens.
CrawlReport crawl_web(const CrawlOptions& options);

// Recrawling a crawled database (`webrank crawl --recrawl DB`; docs/crawling.md has the
// decisions). Every page of the database is requested again, the ones it fetched before with a
// conditional request (If-None-Match from its stored ETag, If-Modified-Since from its stored
// Last-Modified; databases written before these were stored get unconditional requests), and the
// links of the changed pages lead on to new pages as in a crawl. The fetches are journaled in
// DB.crawl/recrawl-NNNNN.warc.gz. Then, per page fetched:
// - 304, or the same status and content hash as stored: unchanged (links and data kept; a 200
//   refreshes the validators);
// - 404 or 410: gone: its links go (replaced by those of its error page, as a crawl records
//   them); the page stays, with that status;
// - any other answer: changed: its links become the new ones, its data the new record's;
// - a transport failure, a 5xx after the retries, robots.txt now disallowing it: kept as it was
//   (counted as failed);
// - a page the database did not have, or had without fetching it: new.
// The changes are one edit folded in by `update`'s merge (webrank/ingest/update.hpp): a new version
// of the database put in place atomically, every stored vector carried over as a warm start (stale
// if the links changed). A stop request ends fetching; what was fetched is folded in.
struct RecrawlOptions {
  std::filesystem::path database;
  // The crawl's options that apply to fetching: frontier (empty scope: the seeds and scope kept
  // in DB.crawl/crawl.json, else the hosts and directories of the database's fetched pages),
  // fetcher, retries, backoff, max_redirects, robots, threads, stop, on_progress. `max_pages`
  // bounds the pages fetched that the database had not fetched (new ones); `seeds`, `output`,
  // `resume` and `force` are not used.
  CrawlOptions crawl;
  bool verify = true;  // check the database's checksums first
  std::function<void(const UpdateProgress&)> on_update_progress;  // the fold (may be empty)
  BeforePublish before_publish;  // writes into the new version before it is published (index)
};

struct RecrawlReport {
  std::uint64_t known = 0;         // pages of the database offered to the frontier
  std::uint64_t conditional = 0;   // of them with validators: conditional requests
  std::uint64_t unchanged = 0;     // 304s and identical bodies
  std::uint64_t not_modified = 0;  // of them answered 304
  std::uint64_t changed = 0, gone = 0, failed = 0;
  std::uint64_t new_pages = 0;    // fetched for the first time
  std::uint64_t bytes_saved = 0;  // the stored body sizes of the pages answered 304
  std::string journal;            // the recrawl's journal file
  // Whether a new version was written: not when every answer was a 304 or a failure (the
  // database is then left as it was, its search index too).
  bool updated = false;
  CrawlReport crawl;    // the fetching (its `build` is empty)
  UpdateReport update;  // the fold
};

// Throws Error: kNotFound/kCorrupt for the database, kInvalidArgument for a database without page
// data (not crawled), kIo. On any failure the database is left as it was.
RecrawlReport recrawl_web(const RecrawlOptions& options);

}  // namespace webrank
