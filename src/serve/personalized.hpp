// Personalized PageRank computed on demand for the server's two-view comparison (the paper's
// Table 2): the rank source E is one home page. The server never writes into the database, so
// the vectors are kept in memory, ready to show (PresentedRanks): at most `max_bytes` of them,
// least recently used out first, keyed by the database they were computed on (a rebuilt
// database gets new ones). One computation runs at a time: a flood of new home pages queues
// instead of taking every core from the searches.
//
// Threads: of() may be called from any number of threads at once.
#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <utility>

#include "webrank/rank/presentation.hpp"

namespace webrank::serve {

class PersonalizedViews {
 public:
  explicit PersonalizedViews(std::size_t max_bytes) : max_bytes_(max_bytes) {}

  // PageRank of `db` personalized on `home` (damping 0.85, tolerance 1e-10 in L1), named after
  // the home page's label. Throws Error as compute_rank() does.
  std::shared_ptr<const PresentedRanks> of(const std::shared_ptr<const Database>& db, PageId home);

 private:
  using Key = std::pair<const Database*, PageId>;
  std::shared_ptr<const PresentedRanks> find(const Key& key);

  std::size_t max_bytes_;
  std::mutex mutex_, compute_;
  // Most recent first. The database is held so that its address stays unique while cached.
  struct Entry {
    Key key;
    std::shared_ptr<const Database> db;
    std::shared_ptr<const PresentedRanks> ranks;
  };
  std::list<Entry> lru_;
};

}  // namespace webrank::serve
