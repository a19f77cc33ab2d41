#include "personalized.hpp"

#include "webrank/rank/rank.hpp"

namespace webrank::serve {

std::shared_ptr<const PresentedRanks> PersonalizedViews::find(const Key& key) {
  std::lock_guard lock(mutex_);
  for (auto it = lru_.begin(); it != lru_.end(); ++it) {
    if (it->key == key) {
      lru_.splice(lru_.begin(), lru_, it);
      return it->ranks;
    }
  }
  return nullptr;
}

std::shared_ptr<const PresentedRanks> PersonalizedViews::of(
    const std::shared_ptr<const Database>& db, PageId home) {
  const Key key{db.get(), home};
  if (auto hit = find(key)) return hit;
  std::lock_guard computing(compute_);
  if (auto hit = find(key)) return hit;  // computed while this call waited
  RankOptions o;
  o.source = {{home, 1.0}};
  RankResult r = compute_rank(db->graph(), o);
  auto ranks =
      std::make_shared<const PresentedRanks>(std::move(r.ranks), std::string(db->label(home)));
  std::lock_guard lock(mutex_);
  lru_.push_front({key, db, ranks});
  // A presented vector holds its values and a sorted copy: 16 bytes a page.
  const std::size_t each = 16 * std::max<std::size_t>(1, db->num_pages());
  while (lru_.size() > 2 && lru_.size() * each > max_bytes_) lru_.pop_back();
  return ranks;
}

}  // namespace webrank::serve
