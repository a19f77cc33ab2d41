// The Searcher: an immutable State (database, rank vector, index path, a pool of Xapian handles)
// shared by every call and swapped whole by reopen(). Xapian handles are not thread-safe, so each
// search borrows one from the pool (opening a new one when all are busy) and returns it.
#include <sys/stat.h>
#include <xapian.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <mutex>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

#include "search/chrome.hpp"
#include "search/document.hpp"
#include "search/query.hpp"
#include "search/rank_source.hpp"
#include "search/shards.hpp"
#include "search/snippet.hpp"
#include "search/spelling.hpp"
#include "webrank/search/search.hpp"
#include "webrank/store/paths.hpp"
#include "webrank/store/rank_store.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace fs = std::filesystem;

namespace {

// What a file is now, to tell whether it was replaced: a rename gives another inode.
struct FileStamp {
  dev_t dev = 0;
  ino_t ino = 0;
  off_t size = -1;
  std::int64_t mtime_ns = 0;
  bool operator==(const FileStamp&) const = default;
};

FileStamp stamp(const fs::path& p) {
  struct stat st {};
  FileStamp s;
  if (::stat(p.c_str(), &st) != 0) return s;
  s.dev = st.st_dev;
  s.ino = st.st_ino;
  s.size = st.st_size;
  s.mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  return s;
}

std::vector<FileStamp> stamps(const fs::path& db, const std::string& ranks,
                              const fs::path& shards) {
  const RankVectorFiles vector = rank_vector_files(db, ranks);
  std::vector<FileStamp> r{stamp(manifest_path(db)), stamp(db / search::kIndexFile),
                           stamp(vector.values), stamp(vector.record)};
  if (!shards.empty()) {
    // The list and its local shards (a remote shard's server is restarted to serve a new one).
    r.push_back(stamp(shards));
    try {
      for (const auto& e : search::read_shard_list(shards)) {
        if (!e.remote()) r.push_back(stamp(e.path));
      }
    } catch (const Error&) {
    }
  }
  return r;
}

// The stem of an indexed term: its "Z" and field prefix removed.
std::string stem_of(const std::string& term) {
  std::size_t i = 0;
  while (i < term.size() && term[i] >= 'A' && term[i] <= 'Z') ++i;
  return term.substr(i);
}

}  // namespace

struct SearcherState {
  std::shared_ptr<const Database> db;
  std::shared_ptr<const PresentedRanks> ranks;
  // A name term of the index (kNamePrefix, kAnchorNamePrefix): its number of pages, read at open,
  // and its pages (docids, ascending), read from the index by the first search that names them and
  // kept: a search then finds a name's pages by a hash lookup and one atomic load, without a lock
  // or a B-tree descent and posting-list reads (pread calls) in the index.
  struct NameTerm {
    explicit NameTerm(Xapian::doccount n) : pages(n) {}
    ~NameTerm() { delete docids.load(); }
    Xapian::doccount pages;
    mutable std::atomic<const std::vector<Xapian::docid>*> docids{nullptr};

    const std::vector<Xapian::docid>& pages_of(const std::string& term,
                                               const Xapian::Database& x) const {
      if (const auto* known = docids.load(std::memory_order_acquire)) return *known;
      auto read = std::make_unique<std::vector<Xapian::docid>>();
      read->reserve(pages);
      for (auto p = x.postlist_begin(term); p != x.postlist_end(term); ++p) read->push_back(*p);
      const std::vector<Xapian::docid>* expected = nullptr;
      if (docids.compare_exchange_strong(expected, read.get(), std::memory_order_acq_rel)) {
        return *read.release();
      }
      return *expected;  // another search read them first
    }
  };
  // Every name term, read once at open: a query looks up a name for each part of its words.
  std::unordered_map<std::string, NameTerm> names;
  search::OwnTextTable own_text;  // the index's kMetaOwnText
  std::string family_pages;       // the index's kMetaFamilyPages
  std::size_t fetched_sites = 0;  // the index's kMetaFetchedSites
  // A whole index's pages known only from links (kUnfetchedTerm's documents) as a page bitmap,
  // read once at open: the filter that leaves them out (search::PageSetSource).
  std::string unfetched_pages;
  Xapian::doccount unfetched = 0;
  fs::path index;                          // the index file, or the shard list of a sharded index
  std::vector<search::ShardEntry> shards;  // of a sharded index: its shards, in order
  std::vector<FileStamp> stamps;
  std::mutex pool_mutex;
  std::vector<std::unique_ptr<Xapian::Database>> pool;

  // A Xapian handle for one search, returned to the pool when the lease ends.
  class Lease {
   public:
    Lease(SearcherState& s) : s_(s) {
      {
        std::lock_guard lock(s.pool_mutex);
        if (!s.pool.empty()) {
          handle_ = std::move(s.pool.back());
          s.pool.pop_back();
        }
      }
      if (!handle_) {
        handle_ = s.shards.empty() ? std::make_unique<Xapian::Database>(s.index.string())
                                   : search::open_shards(s.index, s.shards);
      }
    }
    ~Lease() {
      std::lock_guard lock(s_.pool_mutex);
      s_.pool.push_back(std::move(handle_));
    }
    Xapian::Database& operator*() { return *handle_; }

   private:
    SearcherState& s_;
    std::unique_ptr<Xapian::Database> handle_;
  };
};

struct Searcher::Impl {
  SearcherOptions options;
  fs::path dir;
  mutable std::mutex mutex;  // guards `state` (the pointer, not what it points to)
  std::shared_ptr<SearcherState> state;

  std::shared_ptr<SearcherState> current() const {
    std::lock_guard lock(mutex);
    return state;
  }
};

namespace {

// Every name term of the index, with its number of pages.
void read_names(SearcherState& s) {
  const Xapian::Database& x = *s.pool.back();
  for (const std::string prefix :
       {search::kNamePrefix, search::kAnchorNamePrefix, search::kSectionNamePrefix}) {
    for (auto t = x.allterms_begin(prefix); t != x.allterms_end(prefix); ++t) {
      // "N" also lists no other prefix's terms: prefixes are capitals, name keys lower case.
      const std::string term = *t;
      if (prefix == search::kNamePrefix && term.size() > 1 && term[1] >= 'A' && term[1] <= 'Z') {
        continue;
      }
      s.names.emplace(term, t.get_termfreq());
    }
  }
}

std::shared_ptr<SearcherState> open_state(const fs::path& dir, const SearcherOptions& o) {
  auto s = std::make_shared<SearcherState>();
  // Stamps first: a change while opening makes the next reopen() open again.
  s->stamps = stamps(dir, o.ranks, o.shards);
  s->db = std::make_shared<const Database>(Database::open(dir));
  // A sharded index: the database and its vectors are this one's, the index the shards'.
  const std::optional<IndexInfo> info = o.shards.empty() ? search_index_info(*s->db) : std::nullopt;
  if (o.shards.empty() && !info && !o.index_optional) {
    fail(ErrorKind::kNotFound, dir.string(), ": no search index: run `webrank index ", dir.string(),
         "`");
  }
  const auto names = s->db->rank_names();
  if (o.ranks_named || std::find(names.begin(), names.end(), o.ranks) != names.end()) {
    s->ranks = std::make_shared<const PresentedRanks>(load_ranks(*s->db, o.ranks));
  }
  if (!o.shards.empty()) {
    search::ShardedIndex sharded = search::open_sharded_index(o.shards, *s->db);
    s->index = o.shards;
    s->shards = std::move(sharded.shards);
    s->own_text = std::move(sharded.own_text);
    s->family_pages = std::move(sharded.family_pages);
    s->fetched_sites = sharded.fetched_sites;
    s->pool.push_back(std::move(sharded.all));
    try {
      read_names(*s);
    } catch (const Xapian::Error& e) {
      fail(std::string(e.get_type()).starts_with("Network") ? ErrorKind::kIo : ErrorKind::kCorrupt,
           o.shards.string(), ": reading the shards' name terms failed (", e.get_type(), ": ",
           e.get_msg(), ")");
    }
    return s;
  }
  if (!info) return s;  // search off (index_optional): s->index stays empty
  s->index = info->path;
  try {
    s->pool.push_back(std::make_unique<Xapian::Database>(s->index.string()));
    const Xapian::Database& x = *s->pool.back();
    s->own_text = search::OwnTextTable(x.get_metadata(search::kMetaOwnText));
    s->family_pages = x.get_metadata(search::kMetaFamilyPages);
    const std::string sites = x.get_metadata(search::kMetaFetchedSites);
    s->fetched_sites = sites.empty() ? 0 : std::stoull(sites);
    s->unfetched = x.get_termfreq(search::kUnfetchedTerm);
    if (s->unfetched > 0) {
      s->unfetched_pages.assign((std::size_t{x.get_lastdocid()} + 7) / 8, '\0');
      for (auto p = x.postlist_begin(search::kUnfetchedTerm);
           p != x.postlist_end(search::kUnfetchedTerm); ++p) {
        search::set_page_bit(s->unfetched_pages, *p - 1);
      }
    }
    read_names(*s);
  } catch (const Xapian::Error& e) {
    fail(ErrorKind::kCorrupt, s->index.string(), ": damaged search index (", e.get_msg(),
         "): rebuild it with `index`");
  } catch (const std::invalid_argument& e) {
    fail(ErrorKind::kCorrupt, s->index.string(), ": damaged search index (", e.what(),
         "): rebuild it with `index`");
  }
  return s;
}

void check_options(const SearchOptions& o) {
  if (o.k == 0 || o.k > kMaxResults)
    fail_option("k", "must be in [1, ", kMaxResults, "], got ", o.k);
  if (o.offset > kMaxOffset)
    fail_option("offset", "must be at most ", kMaxOffset, ", got ", o.offset);
  if (!(o.rank_weight >= 0) || !std::isfinite(o.rank_weight)) {
    fail_option("rank_weight", "must be a finite number >= 0, got ", o.rank_weight);
  }
  if (!(o.name_weight >= 0) || !std::isfinite(o.name_weight)) {
    fail_option("name_weight", "must be a finite number >= 0, got ", o.name_weight);
  }
  if (!(o.anchor_name_weight >= 0) || !std::isfinite(o.anchor_name_weight)) {
    fail_option("anchor_name_weight", "must be a finite number >= 0, got ", o.anchor_name_weight);
  }
  if (!(o.family_name_weight >= 0 && o.family_name_weight <= 1)) {
    fail_option("family_name_weight", "must be in [0, 1], got ", o.family_name_weight);
  }
  if (o.snippet_bytes > 4096) fail_option("snippet_bytes", "must be at most 4096");
  if (!(o.bm25_k1 >= 0) || !std::isfinite(o.bm25_k1)) {
    fail_option("bm25_k1", "must be a finite number >= 0, got ", o.bm25_k1);
  }
  if (!(o.bm25_b >= 0 && o.bm25_b <= 1)) fail_option("bm25_b", "must be in [0, 1], got ", o.bm25_b);
}

// Results as the matcher orders them: (docid, score), best first, and the number of matches.
struct Ranked {
  std::vector<std::pair<Xapian::docid, double>> hits;
  std::uint64_t estimated = 0, lower = 0, upper = 0;
};

// Sorted best first, ties by docid (Xapian's order), then [offset, offset + k) of them.
void keep_slice(std::vector<std::pair<double, Xapian::docid>>& scored, std::size_t offset,
                std::size_t k, Ranked& r) {
  std::sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
  });
  for (std::size_t i = offset; i < scored.size() && i < offset + k; ++i) {
    r.hits.emplace_back(scored[i].second, scored[i].first);
  }
}

// Title mode over a sharded index: every page matching `text`, ordered by rank (what the
// RankSource of a whole index gives the matcher, here at the front end: a remote shard runs no
// webrank code).
Ranked order_by_rank(Xapian::Enquire& enquire, const Xapian::Query& text,
                     const PresentedRanks& ranks, Xapian::doccount documents, std::size_t offset,
                     std::size_t k) {
  enquire.set_weighting_scheme(Xapian::BoolWeight());
  enquire.set_query(text);
  const Xapian::MSet all = enquire.get_mset(0, std::max<Xapian::doccount>(documents, 1));
  std::vector<std::pair<double, Xapian::docid>> scored;
  scored.reserve(all.size());
  for (auto it = all.begin(); it != all.end(); ++it) {
    const std::size_t page = *it - 1;
    scored.emplace_back(page < ranks.values().size() ? std::max(ranks.values()[page], 0.0) : 0.0,
                        *it);
  }
  Ranked r;
  r.estimated = r.lower = r.upper = all.size();
  keep_slice(scored, offset, k, r);
  return r;
}

// Full mode's merge over a sharded index, at the front end: score = scale · BM25 + w ·
// percentile / 100 + bonus, the sum the matcher of a whole index ranks by. The pages with a bonus
// are scored from their BM25 (one query filtered to the queries that name them); the others are
// read in BM25 order, in growing batches, until the (offset + k)-th best score beats what any page
// not yet read could reach (its BM25 at most the last one read, its percentile at most 100): the
// threshold algorithm, exact, reading a few times offset + k pages on most queries and every
// match when BM25 says nothing (a query of site: alone).
Ranked merge_at_front(Xapian::Enquire& enquire, const Xapian::Query& text, double scale,
                      const PresentedRanks* ranks, double rank_weight,
                      const std::vector<std::pair<Xapian::docid, double>>& bonus,
                      const std::vector<Xapian::Query>& named_by, Xapian::doccount documents,
                      std::size_t offset, std::size_t k) {
  const std::size_t need = offset + k;
  const auto bonus_of = [&](Xapian::docid did) {
    const auto it = std::lower_bound(bonus.begin(), bonus.end(), did,
                                     [](const auto& e, Xapian::docid d) { return e.first < d; });
    return it != bonus.end() && it->first == did ? it->second : 0.0;
  };
  const auto has_bonus = [&](Xapian::docid did) { return bonus_of(did) > 0; };
  const auto score_of = [&](Xapian::docid did, double bm25) {
    double score = bm25 * scale;
    if (ranks) score += rank_weight * (ranks->percentile(static_cast<PageId>(did - 1)) / 100);
    return score + bonus_of(did);
  };
  std::vector<std::pair<double, Xapian::docid>> scored;
  if (!bonus.empty()) {
    enquire.set_query(
        Xapian::Query(Xapian::Query::OP_FILTER, text,
                      Xapian::Query(Xapian::Query::OP_OR, named_by.begin(), named_by.end())));
    // Every match: a name can also be had by pages it gives no bonus (a family's at weight 0).
    const Xapian::MSet named = enquire.get_mset(0, std::max<Xapian::doccount>(documents, 1));
    for (auto it = named.begin(); it != named.end(); ++it) {
      if (has_bonus(*it)) scored.emplace_back(score_of(*it, it.get_weight()), *it);
    }
  }
  Ranked r;
  enquire.set_query(text);
  const double best_rank = ranks ? rank_weight : 0;
  std::size_t read = 0, batch = std::max<std::size_t>(2 * need, 32);
  for (bool first = true;; first = false) {
    const Xapian::MSet m =
        enquire.get_mset(static_cast<Xapian::doccount>(read), static_cast<Xapian::doccount>(batch),
                         static_cast<Xapian::doccount>(need));
    if (first) {
      r.estimated = m.get_matches_estimated();
      r.lower = m.get_matches_lower_bound();
      r.upper = m.get_matches_upper_bound();
    }
    double last = 0;
    for (auto it = m.begin(); it != m.end(); ++it) {
      last = it.get_weight();
      if (!has_bonus(*it)) scored.emplace_back(score_of(*it, last), *it);
    }
    read += m.size();
    if (m.size() < batch) break;  // every match read
    if (scored.size() >= need) {
      std::nth_element(scored.begin(), scored.begin() + static_cast<std::ptrdiff_t>(need - 1),
                       scored.end(),
                       [](const auto& a, const auto& b) { return a.first > b.first; });
      if (scored[need - 1].first > last * scale + best_rank) break;
    }
    batch *= 2;
  }
  keep_slice(scored, offset, k, r);
  return r;
}

}  // namespace

std::span<const Named<SearchMode>> names(SearchMode) {
  static constexpr Named<SearchMode> kNames[] = {
      {SearchMode::kTitle, "title"}, {SearchMode::kText, "text"}, {SearchMode::kFull, "full"}};
  return kNames;
}

const char* to_string(SearchMode mode) {
  return name_in(names(mode), mode);
}

std::span<const Named<Unfetched>> names(Unfetched) {
  static constexpr Named<Unfetched> kNames[] = {{Unfetched::kAuto, "auto"},
                                                {Unfetched::kInclude, "include"},
                                                {Unfetched::kExclude, "exclude"}};
  return kNames;
}

const char* to_string(Unfetched u) {
  return name_in(names(u), u);
}

Searcher::Searcher(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Searcher::Searcher(Searcher&&) noexcept = default;
Searcher& Searcher::operator=(Searcher&&) noexcept = default;
Searcher::~Searcher() = default;

Searcher Searcher::open(const fs::path& db, SearcherOptions options) {
  check_rank_name(options.ranks);
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  impl->dir = db;
  impl->state = open_state(db, options);
  return Searcher(std::move(impl));
}

bool Searcher::reopen() {
  const auto now = stamps(impl_->dir, impl_->options.ranks, impl_->options.shards);
  if (now == impl_->current()->stamps) return false;
  auto fresh = open_state(impl_->dir, impl_->options);
  std::lock_guard lock(impl_->mutex);
  impl_->state = std::move(fresh);
  return true;
}

std::shared_ptr<const Database> Searcher::database() const {
  return impl_->current()->db;
}

std::shared_ptr<const PresentedRanks> Searcher::ranks() const {
  return impl_->current()->ranks;
}

bool Searcher::has_index() const {
  return !impl_->current()->index.empty();
}

SearchResults Searcher::search(std::string_view query, const SearchOptions& o) const {
  const auto start = std::chrono::steady_clock::now();
  check_options(o);
  const search::ParsedQuery parsed = search::parse_query(query);
  const std::shared_ptr<SearcherState> state = impl_->current();
  const Database& db = *state->db;
  if (state->index.empty()) {
    fail(ErrorKind::kNotFound, impl_->dir.string(),
         ": no search index, so search is off (every other view works); build it with `webrank "
         "index ",
         impl_->dir.string(), "`");
  }
  std::shared_ptr<const PresentedRanks> ranks = o.ranks ? o.ranks : state->ranks;
  if (ranks && ranks->values().size() != db.num_pages()) {
    fail_option("ranks", "has ", ranks->values().size(), " values, the database ", db.num_pages(),
                " pages");
  }

  SearchResults r;
  r.query = std::string(query);
  r.mode = o.mode;
  r.ranks = ranks ? ranks->name() : "";
  r.offset = o.offset;
  r.k = o.k;

  using search::RankSource;
  using Xapian::Query;
  // Pages known only from links left out: of a crawl of one site by default.
  const bool fetched_only =
      o.unfetched == Unfetched::kExclude ||
      (o.unfetched == Unfetched::kAuto && db.has_page_data() && state->fetched_sites <= 1);
  // A whole index filters by its bitmap of those pages; a sharded one, whose remote shards run
  // no webrank code, by the term that marks them.
  const auto fetched = [&](Query q) {
    if (!state->shards.empty())
      return Query(Query::OP_AND_NOT, std::move(q), Query(search::kUnfetchedTerm));
    if (state->unfetched == 0) return q;
    return Query(
        Query::OP_FILTER, std::move(q),
        Query((new search::PageSetSource(state->unfetched_pages, state->unfetched))->release()));
  };
  const Query text = fetched_only ? fetched(search::text_query(parsed, o.mode))
                                  : search::text_query(parsed, o.mode);
  const bool merge = ranks && o.mode == SearchMode::kFull && o.rank_weight > 0;
  const std::string name = o.mode == SearchMode::kFull ? search::query_name(parsed) : "";

  const std::vector<search::QueryWord> words = search::positive_words(parsed);
  std::vector<std::string> stems;
  for (const auto& w : words) {
    for (const auto& t : w.terms) {
      const std::string s = stem_of(t);
      if (std::find(stems.begin(), stems.end(), s) == stems.end()) stems.push_back(s);
    }
  }
  const search::SnippetWords snippet_words(std::move(stems));  // once for every hit's snippet

  try {
    SearcherState::Lease handle(*state);
    Xapian::Enquire enquire(*handle);
    if (o.mode == SearchMode::kTitle && !ranks) {
      enquire.set_weighting_scheme(Xapian::BoolWeight());
    } else {
      // Xapian's k2, k3 and min_normlen at their defaults.
      enquire.set_weighting_scheme(Xapian::BM25Weight(o.bm25_k1, 0, 1, o.bm25_b, 0.5));
    }
    Query q = text;
    // The bonus of the pages the query names, (docid, bonus) in any order: the query's words, and
    // for a short query each part of them (a page named "string" is half named by "string
    // operations"), of pages' own names and of anchor texts, each bonus shared among the pages
    // that have the name; a page of a family keeps a part of its bonus.
    std::vector<std::pair<Xapian::docid, double>> bonus;
    // Queries that together match the pages in `bonus` (a sharded index's merge reads their BM25).
    std::vector<Query> named_by;
    const auto family_share = [&](Xapian::docid did) {
      return search::page_bit(state->family_pages, did - 1) ? o.family_name_weight : 1.0;
    };
    if (!name.empty()) {
      const std::vector<std::string> words = search::name_words(name);
      const std::size_t n = words.size();
      const std::uint32_t all = (1u << n) - 1;
      for (std::uint32_t subset = all; subset > 0;
           subset = n <= search::kMaxNamePartWords ? subset - 1 : 0) {
        std::vector<std::string> part;
        for (std::size_t k = 0; k < n; ++k) {
          if (subset & (1u << k)) part.push_back(words[k]);
        }
        const double share = static_cast<double>(part.size()) / static_cast<double>(n);
        const std::string key = search::name_key(std::move(part));
        // Own names; then anchor names and section names as one name: a section's name (of a
        // page's links to itself) names its page unless it is some page's own name.
        const auto own = state->names.find(search::kNamePrefix + key);
        if (o.name_weight > 0 && own != state->names.end()) {
          named_by.emplace_back(own->first);
          const double each = o.name_weight * share / own->second.pages;
          for (const Xapian::docid did : own->second.pages_of(own->first, *handle)) {
            bonus.emplace_back(did, each * family_share(did));
          }
        }
        if (o.anchor_name_weight > 0) {
          const auto anchor = state->names.find(search::kAnchorNamePrefix + key);
          const auto section = own == state->names.end()
                                   ? state->names.find(search::kSectionNamePrefix + key)
                                   : state->names.end();
          const Xapian::doccount pages =
              (anchor == state->names.end() ? 0 : anchor->second.pages) +
              (section == state->names.end() ? 0 : section->second.pages);
          for (const auto it : {anchor, section}) {
            if (it == state->names.end()) continue;
            named_by.emplace_back(it->first);
            const double each = o.anchor_name_weight * share / pages;
            for (const Xapian::docid did : it->second.pages_of(it->first, *handle)) {
              bonus.emplace_back(did, each * family_share(did));
            }
          }
        }
      }
      // A description that has every word of a short query names its page in part: the share of
      // its words the query's are, shared among the pages whose descriptions have them all.
      if (o.name_weight > 0 && n <= search::kMaxNamePartWords) {
        std::vector<std::pair<Xapian::docid, std::size_t>> described;  // (page, its words)
        std::vector<Query> every_word;  // matches the pages whose descriptions have every word
        for (std::size_t k = 0; k < n; ++k) {
          const std::string prefix = search::kDescriptionPrefix + words[k] + "/";
          std::vector<std::pair<Xapian::docid, std::size_t>> with;
          std::vector<Query> word;
          for (auto t = (*handle).allterms_begin(prefix); t != (*handle).allterms_end(prefix);
               ++t) {
            word.emplace_back(*t);
            const std::size_t count = std::stoul((*t).substr(prefix.size()));
            for (auto p = (*handle).postlist_begin(*t); p != (*handle).postlist_end(*t); ++p) {
              with.emplace_back(*p, count);
            }
          }
          std::sort(with.begin(), with.end());
          every_word.emplace_back(Query::OP_OR, word.begin(), word.end());
          if (k == 0) {
            described = std::move(with);
          } else {
            std::erase_if(described, [&](const auto& d) {
              return !std::binary_search(with.begin(), with.end(), d);
            });
          }
          if (described.empty()) break;
        }
        if (!described.empty())
          named_by.emplace_back(Query::OP_AND, every_word.begin(), every_word.end());
        for (const auto& [did, count] : described) {
          const double share = static_cast<double>(n) / static_cast<double>(std::max(count, n));
          bonus.emplace_back(did, o.name_weight * share / static_cast<double>(described.size()) *
                                      family_share(did));
        }
      }
      // One entry per page, the bonuses of its names summed.
      std::sort(bonus.begin(), bonus.end());
      std::size_t out = 0;
      for (std::size_t i = 0; i < bonus.size(); ++i) {
        if (out > 0 && bonus[out - 1].first == bonus[i].first) {
          bonus[out - 1].second += bonus[i].second;
        } else {
          bonus[out++] = bonus[i];
        }
      }
      bonus.resize(out);
      std::erase_if(bonus, [](const auto& e) { return !(e.second > 0); });
    }
    // A sharded index orders by rank at the front end (order_by_rank, merge_at_front): its
    // remote shards cannot run webrank's posting sources.
    const bool sharded = !state->shards.empty();
    std::optional<Ranked> ranked;
    if (ranks && o.mode == SearchMode::kTitle) {
      if (sharded) {
        ranked = order_by_rank(enquire, text, *ranks, (*handle).get_doccount(), o.offset, o.k);
      } else {
        q = Query(Query::OP_FILTER,
                  Query((new RankSource(*ranks, RankSource::Weight::kRank))->release()), text);
      }
    } else if (merge || !bonus.empty()) {
      // The best BM25 score of the query first: the merge adds rank to BM25 relative to it.
      enquire.set_query(text);
      const Xapian::MSet best = enquire.get_mset(0, 1);
      // A query of site: alone weighs nothing: ordered by rank alone.
      const double top = best.empty() ? 0 : best.begin().get_weight();
      if (sharded) {
        ranked =
            merge_at_front(enquire, text, top > 0 ? 1 / top : 1, merge ? ranks.get() : nullptr,
                           o.rank_weight, bonus, named_by, (*handle).get_doccount(), o.offset, o.k);
      } else {
        std::vector<Query> parts{Query(Query::OP_SCALE_WEIGHT, text, top > 0 ? 1 / top : 1)};
        if (merge) {
          parts.emplace_back(
              Query::OP_SCALE_WEIGHT,
              Query((new RankSource(*ranks, RankSource::Weight::kPercentile))->release()),
              o.rank_weight);
        }
        if (!bonus.empty()) {
          parts.emplace_back((new search::BonusSource(std::move(bonus)))->release());
        }
        q = Query(Query::OP_AND_MAYBE, parts.begin(), parts.end());
      }
    }
    if (!ranked) {
      enquire.set_query(q);
      const Xapian::MSet mset = enquire.get_mset(static_cast<Xapian::doccount>(o.offset),
                                                 static_cast<Xapian::doccount>(o.k),
                                                 static_cast<Xapian::doccount>(o.offset + o.k));
      ranked.emplace();
      ranked->estimated = mset.get_matches_estimated();
      ranked->lower = mset.get_matches_lower_bound();
      ranked->upper = mset.get_matches_upper_bound();
      for (auto it = mset.begin(); it != mset.end(); ++it) {
        ranked->hits.emplace_back(*it, it.get_weight());
      }
    }
    r.matches_estimated = ranked->estimated;
    r.matches_lower = ranked->lower;
    r.matches_upper = ranked->upper;
    std::size_t position = o.offset;
    for (const auto& [did, score] : ranked->hits) {
      const PageId page = did - 1;
      SearchHit h;
      h.position = ++position;
      h.score = score;
      if (ranks) {
        h.page = ranks->page(db, page);
      } else {
        h.page.page = page;
        h.page.label = db.label(page);
        if (const auto t = db.title(page)) h.page.title = std::string(*t);
      }
      if (o.snippets) {
        const std::optional<std::string_view> text = db.text(page);
        if (text && !text->empty()) {
          h.snippet = search::make_snippet(*text, snippet_words, o.snippet_bytes,
                                           state->own_text.spans(page));
        } else if (const auto anchors = db.anchor_text(page)) {
          std::string flat(*anchors);  // '\n'-joined
          std::replace(flat.begin(), flat.end(), '\n', ' ');
          h.snippet = search::make_snippet(flat, snippet_words, o.snippet_bytes);
        }
      }
      r.hits.push_back(std::move(h));
    }
    if (r.hits.empty()) {
      for (const auto& w : words) {
        const auto& terms = o.mode == SearchMode::kTitle ? w.title_terms : w.terms;
        for (const auto& t : terms) {
          if ((*handle).get_termfreq(t) == 0) {
            r.unknown_words.push_back(w.text);
            break;
          }
        }
      }
      r.suggestion = search::suggest_query(*handle, query, o.mode);
    }
  } catch (const Xapian::NetworkError& e) {
    // A remote shard stopped answering: name the first one that does not open now.
    std::string which = state->index.string();
    for (std::size_t i = 0; i < state->shards.size(); ++i) {
      if (!state->shards[i].remote()) continue;
      try {
        search::open_shards(state->index, {state->shards[i]});
      } catch (const Error&) {
        which = search::shard_name(state->index, i, state->shards[i]);
        break;
      }
    }
    fail(ErrorKind::kIo, which, ": unreachable during the search (", e.get_msg(),
         "): is its xapian-tcpsrv running?");
  } catch (const Xapian::Error& e) {
    fail(ErrorKind::kCorrupt, state->index.string(), ": search failed (", e.get_type(), ": ",
         e.get_msg(), "): rebuild the index with `index`");
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace webrank
