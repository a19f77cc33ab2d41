// HTTP(S) fetching with libcurl's multi interface: many transfers in flight on one thread.
//
// Contract:
// - start() begins a GET of a URL, with extra request fields if given (a recrawl's
//   If-None-Match and If-Modified-Since); poll() waits up to `wait_ms` for activity (or a wakeup())
//   and returns the transfers that ended. Redirects are not followed (the crawler journals each hop
//   and decides), nothing is decompressed (no Accept-Encoding is sent), cookies are not kept.
// - A result has the HTTP status and the raw header block of the final response (status line
//   and fields, without Transfer-Encoding: curl has undone the chunking), the body, and
//   `error` (empty on success) for transport failures: DNS, refused or dropped connections,
//   the connect timeout and the whole-transfer timeout.
// - Bodies longer than max_bytes are cut there: the transfer is stopped, `truncated` is set
//   and the result is otherwise a success.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "webrank/crawl/crawl.hpp"

namespace webrank::crawl {

struct FetchResult {
  std::uint64_t tag = 0;
  std::string url;
  int status = 0;
  std::string header_block;  // "HTTP/1.1 200 OK\r\nField: value\r\n...\r\n"
  std::string content_type, location;
  std::string body;
  bool truncated = false;
  std::string error;  // transport failure; empty on success
  double seconds = 0;
};

class Fetcher {
 public:
  explicit Fetcher(FetcherOptions o);
  ~Fetcher();
  Fetcher(const Fetcher&) = delete;
  Fetcher& operator=(const Fetcher&) = delete;

  // `fields`: extra request header lines ("Name: value"). `keep`: whether the connection is
  // worth keeping open after the transfer (more fetches of its host are coming).
  void start(const std::string& url, std::uint64_t tag, const std::vector<std::string>& fields = {},
             bool keep = true);
  std::vector<FetchResult> poll(int wait_ms);
  // Ends a poll() that is waiting, from any thread.
  void wakeup();
  std::size_t active() const;
  // Stops every transfer in flight (their results are dropped).
  void abort_all();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace webrank::crawl
