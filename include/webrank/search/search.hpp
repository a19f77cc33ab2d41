// Full-text search over a link database, ordered by text relevance, PageRank or both (the paper's
// §5: title search ordered by PageRank, full-text search with rank merging). docs/search.md has
// the index's fields and weights, the query syntax and how the merge was tuned.
//
// The index is a Xapian database in one file inside the database directory (DB/search.xapian),
// built from the page data of a crawl: each page's title, visible text, the anchor texts of the
// links pointing to it and the words of its URL, each field with its own weight, English stemming
// and word positions for phrases. Pages without page data (a database built from an edge list)
// are indexed by the words of their labels.
//
// The index holds no ranks: the matcher reads the stored rank vector it is given through a
// Xapian PostingSource, so any vector (`--ranks NAME`, a personalized one, a per-query mix) ranks
// the same index, and storing a new vector with `rank` needs no rebuild (an open Searcher sees it
// after reopen()).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "webrank/ingest/rank_sources.hpp"  // find_page: how a URL names a page
#include "webrank/rank/presentation.hpp"
#include "webrank/store/database.hpp"
#include "webrank/util/named.hpp"

namespace webrank {

// ---- Building the index ----------------------------------------------------------------------

struct IndexProgress {
  std::string stage;  // "indexing" (pages_done counts up to pages), then "merging"
  std::uint64_t pages_done = 0, pages = 0;
  double seconds = 0;
};

// How much a word of each field counts: the within-document frequency it adds, which BM25 reads
// (BM25F: weighted fields summed before saturation, over one document length). `chrome` is the
// text of a page that its site repeats on many pages (navigation, headers, footers: see
// docs/search.md, "The page's own words"); `text` the rest of its visible text. The defaults
// were tuned on bench/search/ (docs/search.md).
struct FieldWeights {
  int title = 6, text = 1, anchor = 10, url = 8, chrome = 0;  // each in [0, 100]
};
// "TITLE,TEXT,ANCHOR,URL,CHROME", as --field-weights takes them and the index records them.
std::string to_string(const FieldWeights& f);
// The weights written so, or as four (TITLE,TEXT,ANCHOR,URL: the chrome's weight 0); nullopt for
// anything else. Their range is checked where they are used (build_search_index).
std::optional<FieldWeights> parse_field_weights(const std::string& text);

struct IndexOptions {
  FieldWeights field_weights;
  int threads = 0;  // 0 = all cores; each thread indexes a share of the pages into its own shard
  std::stop_token
      stop;  // a stop request abandons the build (Error kCancelled); the old index stays
  // Called now and then from one indexing thread at a time (never concurrently); may be empty.
  std::function<void(const IndexProgress&)> on_progress;
  // A shard of a sharded index (docs/search.md, "A sharded index"): with shards = n > 1, only the
  // pages u with u % n == shard are indexed, page u as document u / n + 1, so that Xapian's
  // multi-database over shards 0..n-1 (in that order) numbers it u + 1 as a whole index does.
  int shard = 0, shards = 1;
  // Where to write the index; empty: DB/search.xapian.
  std::filesystem::path output;
};

struct IndexReport {
  std::uint64_t pages = 0;      // pages of the database
  std::uint64_t documents = 0;  // pages indexed: those with a title, text, anchor text or label
  std::uint64_t bytes = 0;      // size of DB/search.xapian
  double seconds = 0;           // in all
  double merge_seconds = 0;     // of which merging the segments into the one file
  int threads = 1;
  std::filesystem::path path;  // the index written
  int shard = 0, shards = 1;
};

// Builds (or rebuilds) the search index of `db` as DB/search.xapian. The new index is written to
// a hidden temporary and renamed over the old one when complete: a failed, stopped or killed
// build leaves the old index (or none) as it was, and readers that have the old one open keep
// reading it. Throws Error: kCancelled on a stop request, kIo when the directory is not
// writable. Other engines' errors are reported as kInternal naming the index.
IndexReport build_search_index(const Database& db, const IndexOptions& options = {});

// What is known about the index of a database (kept inside the index file).
struct IndexInfo {
  std::filesystem::path path;  // DB/search.xapian
  std::uint64_t documents = 0, bytes = 0;
  int version = 0;
  std::string built;  // UTC time, ISO 8601
  FieldWeights field_weights;
};

// The index's description, or nullopt if the database has none. Throws Error (kCorrupt) if the
// file is there and damaged, or belongs to another database (it was built before the database
// was rebuilt or copied in).
std::optional<IndexInfo> search_index_info(const Database& db);

// ---- Searching -------------------------------------------------------------------------------

enum class SearchMode {
  kTitle,  // pages whose titles contain every query word, ordered by PageRank (§5.1)
  kText,   // BM25 over the weighted fields, no PageRank
  kFull,   // BM25 merged with PageRank (docs/search.md)
};
std::span<const Named<SearchMode>> names(SearchMode);  // webrank/util/named.hpp
const char* to_string(SearchMode mode);                // "title", "text", "full"

// The merge of `full`: score = BM25 / BM25max + rank_weight · percentile / 100 (+ the name bonus
// below), where BM25max is the best BM25 score of the query, so the best text match scores 1,
// and the percentile of the page's rank (webrank/rank/presentation.hpp) is in (0, 100]. The
// default was tuned on the query sets of bench/search/ (docs/search.md).
inline constexpr double kDefaultRankWeight = 0.25;

// Full mode's bonus to a page the query names (docs/search.md, "Topic pages first"): a page one
// of whose own names (its title or a part of it, the last segment of its URL path) is the query,
// word for word (lower-cased, plurals folded, stop words and numbers aside; an own name also
// without the words of the site's name), scores name_weight / n more, where n pages have that
// name; anchor_name_weight / n for an anchor text of links to it. Tuned on the query sets of
// bench/search/.
inline constexpr double kDefaultNameWeight = 0.3;
inline constexpr double kDefaultAnchorNameWeight = 0.1;
// A page of a family of similarly named pages (a diagram, a property, a function each: "SQLite
// Syntax: returning-clause") keeps family_name_weight of its name bonus, own names and anchor
// names alike (in [0, 1]).
inline constexpr double kDefaultFamilyNameWeight = 0;

// Which pages results may show (docs/search.md, "Pages known only from links"): a page that was
// not fetched (or whose fetch failed) is known by the anchor texts of links to it, as the
// paper's web search found pages it had never crawled. kAuto leaves them out of a crawl of one
// site (a site search: a link out is not part of the site) and keeps them otherwise.
enum class Unfetched { kAuto, kInclude, kExclude };
std::span<const Named<Unfetched>> names(Unfetched);  // "auto", "include", "exclude"
const char* to_string(Unfetched u);

// Bounds a server can rely on: longer queries, more terms, larger k or offsets are refused
// (Error kInvalidArgument).
inline constexpr std::size_t kMaxQueryBytes = 2048;
inline constexpr std::size_t kMaxQueryTerms = 64;
inline constexpr std::size_t kMaxResults = 1000;   // k
inline constexpr std::size_t kMaxOffset = 100000;  // offset

struct SearchOptions {
  SearchMode mode = SearchMode::kFull;
  std::size_t k = 10;                       // results wanted, at most kMaxResults
  std::size_t offset = 0;                   // results skipped (pagination), at most kMaxOffset
  double rank_weight = kDefaultRankWeight;  // full mode's merge weight (>= 0)
  // Full mode's bonus to a page the query names (>= 0), by its own names and by anchor texts.
  double name_weight = kDefaultNameWeight, anchor_name_weight = kDefaultAnchorNameWeight;
  double family_name_weight = kDefaultFamilyNameWeight;  // in [0, 1]
  // BM25's parameters (Robertson's k1 >= 0 and b in [0, 1]); a low b because documentation
  // pages are long for good reasons (docs/search.md).
  double bm25_k1 = 2, bm25_b = 0.2;
  // Pages known only from links to them: left out (kExclude), kept (kInclude), or left out when
  // the pages that were fetched are all of one site (kAuto).
  Unfetched unfetched = Unfetched::kAuto;
  bool snippets = true;
  std::size_t snippet_bytes = 240;  // target length of a snippet
  // Rank the results by this vector instead of the Searcher's (a personalized view, a mix of
  // topic vectors made for this query). Must have one value per page.
  std::shared_ptr<const PresentedRanks> ranks;
};

// A byte range [begin, end) of a snippet's text.
struct TextSpan {
  std::size_t begin = 0, end = 0;
};

// A passage of the page's text around the query words, as plain text (not escaped, not marked):
// a front end escapes it and marks the `matches` its own way. `cut_before` / `cut_after` say
// that the text continues before / after the passage (show an ellipsis).
struct Snippet {
  std::string text;
  std::vector<TextSpan> matches;  // the query words found in it, ascending, not overlapping
  bool cut_before = false, cut_after = false;
};

struct SearchHit {
  std::size_t position = 0;  // 1-based, in the whole result list (offset + index + 1)
  double score = 0;          // what the results are ordered by (title mode: the rank itself)
  RankedPage page;           // URL (label), title, rank, percentile, bar, toolbar
  Snippet snippet;
};

struct SearchResults {
  std::string query;
  SearchMode mode = SearchMode::kFull;
  std::string ranks;  // name of the vector used ("" if none: no stored vector)
  std::size_t offset = 0, k = 0;
  // Pages matching the query: exact when lower == upper, else an estimate between them.
  std::uint64_t matches_estimated = 0, matches_lower = 0, matches_upper = 0;
  std::vector<SearchHit> hits;
  // Query words that no indexed page contains (in the fields the mode searches): why a query
  // matches nothing.
  std::vector<std::string> unknown_words;
  // "Did you mean": when nothing matches, the query with the words no page has replaced by the
  // nearest words of the index's vocabulary, if that finds pages; "" otherwise.
  std::string suggestion;
  double seconds = 0;
};

struct SearcherOptions {
  // The stored rank vector results are ranked by. When it is the default and the database has
  // no vector of that name, search works without ranks (results say ranks == ""): `title`
  // orders by page id and `full` equals `text`. A vector named explicitly must exist.
  std::string ranks = "pagerank";
  bool ranks_named = false;  // true: `ranks` was asked for by name (missing is an error)
  // true: a database without a search index opens with search off (has_index() false; search()
  // throws kNotFound saying so), for a server that shows everything else; false: open() throws.
  bool index_optional = false;
  // Search a sharded index (docs/search.md, "A sharded index") instead of DB/search.xapian: a
  // shard list, a Xapian stub file naming shards 0..N-1 in order (local files or xapian-tcpsrv
  // servers). The database, its rank vectors and the texts snippets are cut from are this
  // database's; every shard must have been built from it.
  std::filesystem::path shards = {};
};

// Throws what Searcher::search throws for a malformed `query` (kInvalidArgument, field
// "query"), without opening anything: front ends check the query before the index, so that an
// empty query is reported as such on a database whose index is missing or must be rebuilt.
void check_query(std::string_view query);

// Searches one database. Open once, then call search() from any number of threads at once:
// every const method is thread-safe (each call borrows its own handle on the index; the
// database, the ranks and the handles are shared read-only). reopen() may run concurrently with
// searches: calls in flight finish on what they started with.
//
// Lifetimes: a Searcher owns what it opened; results are values that own their strings.
class Searcher {
 public:
  // Opens DB, its index and the rank vector. Throws Error: kNotFound when the database, its
  // index ("run webrank index DB", unless index_optional) or a named vector is missing; kCorrupt
  // for a damaged index or one built for another database. With `shards`, errors name the shard:
  // kIo for an unreachable one, kNotFound for a missing one, kCorrupt for one of another index
  // version, another database or other field weights, kInvalidInput for a list out of order.
  static Searcher open(const std::filesystem::path& db, SearcherOptions options = {});
  Searcher(Searcher&&) noexcept;
  Searcher& operator=(Searcher&&) noexcept;
  ~Searcher();

  // Runs `query` (syntax in docs/search.md: words, "phrases", -excluded, OR, site:HOST,
  // intitle:WORD). Throws Error kInvalidArgument (field "query") for a malformed query, naming
  // what is wrong and the character where; k, offset and rank_weight out of bounds are
  // kInvalidArgument about their option. A query that matches nothing is not an error: the
  // results are empty and unknown_words says which words no page has.
  SearchResults search(std::string_view query, const SearchOptions& options = {}) const;

  // Picks up a rebuilt index, database or rank vector: returns true if anything changed (later
  // calls use the new state). Throws as open() does; on error the old state stays in use.
  bool reopen();

  // The database searched (valid until the next reopen() that returns true; hold a
  // shared_ptr to keep it longer).
  std::shared_ptr<const Database> database() const;
  // The rank vector results are ranked by; null when there is none.
  std::shared_ptr<const PresentedRanks> ranks() const;
  // Whether the database has a search index (false only with SearcherOptions::index_optional).
  bool has_index() const;

 private:
  struct Impl;
  explicit Searcher(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace webrank
