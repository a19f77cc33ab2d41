#include "report_cache.hpp"

#include "webrank/json.hpp"
#include "webrank/store/rank_store.hpp"

namespace webrank::serve {

std::shared_ptr<const GatheredReport> ReportCache::get(const std::shared_ptr<const Database>& db,
                                                       const std::string& ranks) {
  std::lock_guard lock(mutex_);
  // Taken before gathering: a vector stored meanwhile makes the next call gather again.
  std::string fingerprint = ranks_fingerprint(*db);
  if (current_ && current_->db == db && ranks_ == ranks && fingerprint_ == fingerprint) {
    return current_;
  }
  auto fresh = std::make_shared<GatheredReport>();
  fresh->db = db;
  ReportOptions options;
  options.ranks = ranks;
  options.title = title_;
  fresh->data = gather_report(*db, options);
  fresh->json = fresh->data;
  current_ = std::move(fresh);
  ranks_ = ranks;
  fingerprint_ = std::move(fingerprint);
  return current_;
}

}  // namespace webrank::serve
