#include "response_cache.hpp"

namespace webrank::serve {

std::uint64_t ResponseCache::generation() const {
  std::lock_guard lock(mutex_);
  return generation_;
}

std::shared_ptr<const CachedAnswer> ResponseCache::find(const std::string& key) {
  if (max_bytes_ == 0) return nullptr;
  std::lock_guard lock(mutex_);
  const auto it = index_.find(key);
  if (it == index_.end()) return nullptr;
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->second;
}

void ResponseCache::insert(const std::string& key, CachedAnswer answer, std::uint64_t generation) {
  const std::size_t size = key.size() + answer.body.size() + answer.content_type.size();
  if (max_bytes_ == 0 || size > max_bytes_ / 16) return;
  auto value = std::make_shared<const CachedAnswer>(std::move(answer));
  std::lock_guard lock(mutex_);
  if (generation != generation_ || index_.count(key)) return;
  lru_.emplace_front(key, std::move(value));
  index_.emplace(key, lru_.begin());
  bytes_ += size;
  while (bytes_ > max_bytes_) {
    const Entry& last = lru_.back();
    bytes_ -= last.first.size() + last.second->body.size() + last.second->content_type.size();
    index_.erase(last.first);
    lru_.pop_back();
  }
}

void ResponseCache::clear() {
  std::lock_guard lock(mutex_);
  ++generation_;
  lru_.clear();
  index_.clear();
  bytes_ = 0;
}

}  // namespace webrank::serve
