// How a page becomes a document of the search index, and how query text becomes the same terms:
// one home for the fields, their weights, the term prefixes and the tokenizer settings, shared
// by the index builder and the searcher (docs/search.md, "The index").
//
// A page's document (docid = page id + 1) holds:
// - unprefixed terms, stemmed ("Z" + English stem), with positions: the title, the visible text,
//   the distinct anchor texts of the links to the page and the words of its URL, each field's
//   words counted FieldWeights times (the within-document frequency BM25 reads, so a title word
//   weighs as much as several text words: BM25F's weighted fields over one length);
// - the title again under prefix "S" with positions and within-document frequency 0 (matched by
//   title mode and intitle:, weighs nothing, adds nothing to the length);
// - boolean terms "H" + host for site:, for the host, host:port and each parent domain.
// Fields are 100 positions apart so that a phrase never spans two of them.
#pragma once

#include <xapian.h>

#include <string>
#include <string_view>
#include <vector>

#include "webrank/search/search.hpp"
#include "webrank/store/database.hpp"

namespace webrank::search {

inline constexpr const char* kIndexFile = "search.xapian";
inline constexpr int kIndexVersion = 1;
inline constexpr const char* kTitlePrefix = "S";
inline constexpr const char* kHostPrefix = "H";

// Keys of the index's metadata (Xapian user metadata).
inline constexpr const char* kMetaVersion = "webrank.version";
inline constexpr const char* kMetaDatabase = "webrank.database";  // database_identity()
inline constexpr const char* kMetaBuilt = "webrank.built";
inline constexpr const char* kMetaFields = "webrank.field_weights";  // "title,text,anchor,url"

// A distinct anchor text repeated by n links counts min(1 + floor(log2 n), kMaxAnchorRepeats)
// times: many links with one text say more than one, not n times more.
inline constexpr int kMaxAnchorRepeats = 4;

// What identifies the database an index was built for: the XXH3-64 of its manifest (which holds
// the checksum of every section), as hex. Throws Error (kNotFound) when it cannot be read.
std::string database_identity(const Database& db);

// Makes the documents of pages. Not thread-safe: one per thread.
class DocumentMaker {
 public:
  explicit DocumentMaker(const FieldWeights& weights);
  // The document of page `page`, or false if the page has nothing to index (a page of a crawl
  // that was neither fetched nor named by any anchor text).
  bool make(const Database& db, PageId page, Xapian::Document& doc);

 private:
  FieldWeights weights_;
  Xapian::TermGenerator terms_;
  std::vector<std::string_view> anchors_;
  std::string scratch_;
};

// The terms the indexer makes of `text` under `prefix` ("" or kTitlePrefix), in word order:
// what a query word or phrase must match. Thread-safe.
std::vector<std::string> text_terms(std::string_view text, std::string_view prefix = "");

// The stem of a lower-cased word as text_terms() stems it (without prefixes).
std::string stem_word(const std::string& lower_word);

// The boolean terms of a URL's host (host, host:port, parent domains), and the term site:HOST
// matches (HOST as typed: a host, host:port, or a URL whose host is taken); "" if HOST has no
// usable host.
std::vector<std::string> host_terms(std::string_view url);
std::string site_term(std::string_view host);

// Whether `word` (lower case) is an English stop word ("the", "of", "how"...): dropped from
// queries unless the query has nothing else.
bool is_stop_word(std::string_view word);

}  // namespace webrank::search
