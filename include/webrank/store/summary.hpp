// What `webrank info` shows about a database, as a struct (JSON form in webrank/json.hpp).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "webrank/store/database.hpp"
#include "webrank/store/vector_record.hpp"

namespace webrank {

struct DegreeStats {
  std::uint64_t min = 0, max = 0, median = 0;
  double mean = 0;
  std::uint64_t zero = 0;  // pages of degree 0
};

// Crawled webs only: how much was fetched and what came back.
struct CrawlStats {
  std::uint64_t fetched_pages = 0, not_fetched_pages = 0;
  std::map<std::string, std::uint64_t> status_classes;  // "2xx" -> pages, ...
  std::uint64_t pages_with_title = 0;
  std::uint64_t exact_duplicates = 0;  // fetched pages whose body an earlier page had
  std::uint64_t nofollow_links = 0;
};

// A stored rank vector as its record describes it; `error` says why it could not be read.
struct RankVectorSummary {
  std::string name;
  std::string error;  // empty when the vector is readable (`record` is then its record)
  bool found = true;  // false when there is no such vector (any more): `error` says so
  VectorRecord record;
  std::uint64_t bytes = 0;  // of its files
};

struct DatabaseSummary {
  std::string path;
  DatabaseStats stats;
  std::uint64_t isolated_pages = 0;  // neither out-links nor backlinks
  DegreeStats out_degree, in_degree;
  std::uint64_t bytes_on_disk = 0;
  std::optional<CrawlStats> crawl;
  std::vector<RankVectorSummary> ranks;
};

// Reads every page's degrees once (and its page data when there is some); each stored vector is
// loaded and checked (summarize_stored_ranks). Files that writers of the same database create or
// remove meanwhile do not fail it: `bytes_on_disk` counts those still there when reached. Throws
// Error only when the database's folder cannot be listed.
DatabaseSummary summarize(const Database& db);

// Every stored vector, summarized; a vector deleted between the listing of the names and its
// reading (by another thread or process) is left out.
std::vector<RankVectorSummary> summarize_stored_ranks(const Database& db);

// The stored vector `name` as its metadata describes it (loaded and checked; `error` says why it
// could not be). Never throws for a damaged or missing vector.
RankVectorSummary summarize_ranks(const Database& db, const std::string& name);

}  // namespace webrank
