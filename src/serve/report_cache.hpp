// The report's data for the server's charts (/report, /api/v1/report, the page views:
// docs/serve.md): gathering it reads every stored vector and finds the components (O(links)), so it
// is done once and kept while it still shows the database: the same Database object (a rebuilt
// database is a new one after Searcher::reopen()) and the same stored vectors (ranks_fingerprint():
// a vector stored by `webrank rank` while the server runs is shown at the next request).
//
// Threads: get() may be called from any number of threads at once. One gathering runs at a time;
// callers that find the data stale meanwhile wait for it rather than gather it again.
#pragma once

#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "webrank/report/report.hpp"

namespace webrank::serve {

struct GatheredReport {
  std::shared_ptr<const Database> db;  // what it was gathered from
  ReportData data;
  nlohmann::json json;  // data's JSON form, what /api/v1/report answers
};

class ReportCache {
 public:
  // `title`: the report's title (the database's name).
  explicit ReportCache(std::string title) : title_(std::move(title)) {}

  // The report of `db` with the distribution of `ranks` ("" = pagerank, else the first vector;
  // the server's vector when it has one). Throws Error as gather_report() does.
  std::shared_ptr<const GatheredReport> get(const std::shared_ptr<const Database>& db,
                                            const std::string& ranks);

 private:
  std::string title_;
  std::mutex mutex_;
  std::shared_ptr<const GatheredReport> current_;
  std::string ranks_, fingerprint_;
};

}  // namespace webrank::serve
