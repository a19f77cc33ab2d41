// Answers the server has already computed, by request target (path and query string): a search
// engine's popular queries repeat, and a repeated search costs a lookup instead of a Xapian match
// and its snippets. Bounded in bytes, least recently used first out; cleared when the searcher
// picks up a new index, database or rank vector (a generation number, so that an answer computed
// on the old state is never stored after the clear).
//
// Threads: every method may be called from any number of threads at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace webrank::serve {

struct CachedAnswer {
  std::string body, content_type;
};

class ResponseCache {
 public:
  // `max_bytes` 0 disables the cache; an answer larger than max_bytes / 16 is not kept.
  explicit ResponseCache(std::size_t max_bytes) : max_bytes_(max_bytes) {}

  // The generation answers computed now belong to (read it before computing).
  std::uint64_t generation() const;
  std::shared_ptr<const CachedAnswer> find(const std::string& key);
  // Keeps the answer unless the cache was cleared since `generation`.
  void insert(const std::string& key, CachedAnswer answer, std::uint64_t generation);
  // Forgets everything (the state the answers were computed on changed).
  void clear();

 private:
  using Entry = std::pair<std::string, std::shared_ptr<const CachedAnswer>>;
  std::size_t max_bytes_, bytes_ = 0;
  std::uint64_t generation_ = 0;
  mutable std::mutex mutex_;
  std::list<Entry> lru_;  // most recent first
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;
};

}  // namespace webrank::serve
