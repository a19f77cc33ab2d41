// One open database and what operations keep open on it (webrank/app/operation.hpp).
#include "util/file_identity.hpp"
#include "webrank/app/operation.hpp"
#include "webrank/store/database.hpp"
#include "webrank/store/paths.hpp"
#include "webrank/util/error.hpp"

namespace webrank::app {
namespace {

std::shared_ptr<const Database> open_database(const std::filesystem::path& path,
                                              const Session::Options& o) {
  return std::make_shared<const Database>(Database::open(
      path, {.verify = o.verify, .verification_records = default_verification_records()}));
}

// The manifest's device and inode: a new version of the database, renamed in, has another.
std::pair<std::uint64_t, std::uint64_t> manifest_of(const std::filesystem::path& dir) {
  const auto id = identify(manifest_path(dir));
  return id ? std::pair{id->device, id->inode} : std::pair<std::uint64_t, std::uint64_t>{0, 0};
}

}  // namespace

Session::Session(std::filesystem::path path, Options options)
    : path_(std::move(path)),
      options_(options),
      manifest_(manifest_of(path_)),
      db_(open_database(path_, options_)) {}

Session::~Session() = default;

std::shared_ptr<const Database> Session::database() const {
  std::lock_guard lock(mutex_);
  return db_;
}

Searcher& Session::searcher(const std::string& ranks, bool named, bool index_optional,
                            const std::filesystem::path& shards_given) const {
  std::lock_guard lock(mutex_);
  const std::filesystem::path& shards = shards_given.empty() ? options_.shards : shards_given;
  const bool optional = (index_optional || options_.search_optional) && shards.empty();
  const std::string key =
      ranks + (named ? "!" : "") + (optional ? "?" : "") + "\n" + shards.string();
  if (const auto it = searchers_.find(key); it != searchers_.end()) {
    if (options_.reopen_on_use) it->second->reopen();
    return *it->second;
  }
  // Only a searcher that opened is kept: a vector asked for that is not stored leaves nothing.
  auto opened = std::make_unique<Searcher>(Searcher::open(
      path_, {.ranks = ranks, .ranks_named = named, .index_optional = optional, .shards = shards}));
  return *searchers_.emplace(key, std::move(opened)).first->second;
}

bool Session::refresh() {
  // Stamp first: a version put in place while this one opens is picked up by the next refresh.
  const auto now = manifest_of(path_);
  bool changed = false;
  {
    std::lock_guard lock(mutex_);
    changed = now != manifest_;
  }
  if (changed) {
    auto fresh = open_database(path_, options_);
    std::lock_guard lock(mutex_);
    db_ = std::move(fresh);
    manifest_ = now;
    kept_.clear();
  }
  // Searchers are never removed from the map: the pointers stay valid outside the lock, and each
  // reopens on its own (calls in flight finish on what they started with).
  std::vector<Searcher*> searchers;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [key, s] : searchers_) searchers.push_back(s.get());
  }
  for (Searcher* s : searchers) changed = s->reopen() || changed;
  return changed;
}

}  // namespace webrank::app
