// How a page becomes a document of the search index, and how query text becomes the same terms:
// one home for the fields, their weights, the term prefixes and the tokenizer settings, shared
// by the index builder and the searcher (docs/search.md, "The index").
//
// A page's document (docid = page id + 1) holds:
// - unprefixed terms, stemmed ("Z" + English stem), with positions: the title, the visible text,
//   the distinct anchor texts of the links to the page and the words of its URL, each field's
//   words counted FieldWeights times (the within-document frequency BM25 reads, so a title word
//   weighs as much as several text words: BM25F's weighted fields over one length);
// - the text a page's site repeats on many pages (chrome.hpp) counted FieldWeights::chrome times,
//   the rest of its text FieldWeights::text times (the spans of its own text, for snippets, are
//   in the index's OwnTextTable, kMetaOwnText, not in the document: the document has no data);
// - the title again under prefix "S" with positions and within-document frequency 0 (matched by
//   title mode and intitle:, weighs nothing, adds nothing to the length);
// - boolean terms "H" + host for site:, for the host, host:port and each parent domain.
// - name terms, for full mode's bonus to a page the query names (docs/search.md, "Topic pages
//   first"), no weight, no length: "N" + name_key() of its own names (its title and each part of
//   it between separators such as " - " or ": ", and, for a page that was fetched, the last
//   segment of its URL path that is not "index"), "XN" + name_key() of each anchor text of links
//   to it that at least kMinAnchorNameLinks links share; a title or anchor text with compounds
//   ("PL/pgSQL") is a name with them joined too, and an own name with words of the site's name
//   (SiteTitles) is a name without them too ("cmake-variables(7)" on the CMake site: variables).
// Fields are 100 positions apart so that a phrase never spans two of them.
#pragma once

#include <xapian.h>

#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "search/chrome.hpp"
#include "webrank/search/search.hpp"
#include "webrank/store/database.hpp"

namespace webrank::search {

inline constexpr const char* kIndexFile = "search.xapian";
// 2: site chrome weighed apart and the page's own text spans kept as document data; name terms;
// spelling data. 3: names of joined compounds ("PL/pgSQL": plpgsql), the pages of families
// (kMetaFamilyPages). 4: own names also without the words of the site's name (SiteTitles).
// 5: own-text spans in one table (kMetaOwnText) instead of each document's data.
// 6: pages known only from links marked (kUnfetchedTerm, kMetaFetchedSites); error pages indexed
// as not fetched; trailing title boilerplate set aside; titles without their numbering, equal
// titles named once; a page's description weighed as its title.
inline constexpr int kIndexVersion = 6;
inline constexpr const char* kTitlePrefix = "S";
inline constexpr const char* kHostPrefix = "H";
inline constexpr const char* kNamePrefix = "N";         // names of its own: title, URL
inline constexpr const char* kAnchorNamePrefix = "XN";  // names other pages give it
// Names of its sections: the texts of its links to itself (its table of contents), which name the
// page only where no page has the name as its own (kNamePrefix): a one-page manual's contents
// repeat the names of the pages it copies.
inline constexpr const char* kSectionNamePrefix = "XS";
// The words of its description (page_description()), as name_key() folds them, each as
// "XD" + word + "/" + the number of the description's words (no weight, no positions).
inline constexpr const char* kDescriptionPrefix = "XD";
// Boolean term of a page known only from links to it: not fetched, or its fetch failed (an
// error status: what is indexed of it is the server's error page's title).
inline constexpr const char* kUnfetchedTerm = "XU";

// Keys of the index's metadata (Xapian user metadata).
inline constexpr const char* kMetaVersion = "webrank.version";
inline constexpr const char* kMetaDatabase = "webrank.database";  // database_identity()
inline constexpr const char* kMetaBuilt = "webrank.built";
inline constexpr const char* kMetaFields = "webrank.field_weights";
// The own-text spans of the pages that have chrome (OwnTextTable, chrome.hpp).
inline constexpr const char* kMetaOwnText = "webrank.own_text";

// "I/N": the index is shard I of N (IndexOptions::shard); absent in a whole index ("0/1").
inline constexpr const char* kMetaShard = "webrank.shard";

// One bit per page (bit u % 8 of byte u / 8), set when the page is one of a family of similarly
// named pages (SiteTitles::family_bits).
inline constexpr const char* kMetaFamilyPages = "webrank.family_pages";
// The number of sites (site_of) with a page that was fetched: Unfetched::kAuto leaves the pages
// known only from links out of the results when it is at most 1.
inline constexpr const char* kMetaFetchedSites = "webrank.fetched_sites";

// Whether page `u` was fetched, with a success or redirect status: its title and text are the
// page's. Pages of a database without page data (labels of an edge list) count as fetched.
bool fetched(const Database& db, PageId u);

// A page bitmap of the index's metadata (kMetaFamilyPages): bit u % 8 of byte
// u / 8 is page u's; a page past the end has its bit clear.
inline bool page_bit(const std::string& bits, std::size_t page) {
  return page / 8 < bits.size() && (bits[page / 8] >> (page % 8) & 1) != 0;
}
// Sets page u's bit of a bitmap of (pages + 7) / 8 bytes.
inline void set_page_bit(std::string& bits, std::size_t page) {
  bits[page / 8] = static_cast<char>(bits[page / 8] | (1 << (page % 8)));
}

// A distinct anchor text repeated by n links counts min(1 + floor(log2 n), kMaxAnchorRepeats)
// times: many links with one text say more than one, not n times more.
inline constexpr int kMaxAnchorRepeats = 4;

// An anchor text names the page it links to when this many links to it have it: one link's
// text often names a section of the page (its fragment), or something the page mentions.
inline constexpr int kMinAnchorNameLinks = 2;

// What identifies the database an index was built for: the XXH3-64 of its manifest (which holds
// the checksum of every section), as hex. Throws Error (kNotFound) when it cannot be read.
std::string database_identity(const Database& db);

// What the titles of a database's pages say of its sites, learned from the pages that were
// fetched (fetched(): an error page's title is the server's).
// - Boilerplate: a part of a title (between separators such as " - " or ": ") that more than
//   half of the titled pages of a site (of at least kMinFamilyPages) share ("Python 3.11
//   documentation", "Vim documentation"), or that at least kMinFamilyPages pages share and that
//   ends the titles that have it ("Node.js v18.20.4 Documentation", after " | "): the site's or
//   a section's name, not the page's. site_words: its words per site (site_of()), as name_key()
//   folds them. In a page's name they say nothing of which page it is: on the CMake site
//   "cmake-variables(7)" is named "variables".
// - Families of similarly named pages: a part of a title that at least kMinFamilyPages pages of
//   a site share, but at most half of the site's titled pages, and that is no boilerplate (it
//   heads the titles: "SQLite Syntax: returning-clause", "SQLite Syntax: expr"...): the pages of
//   a diagram, a property or a function each, which name their subject no more than the page
//   about it does. family_bits: one bit per page (bit u % 8 of byte u / 8), set for the pages of
//   a family.
// - Equal titles: pages of a site whose titles are the same once their numbering is left out
//   ("Chapter 8. Data Types", "37.2. Data Types"): the title names the one highest in the
//   numbering (the chapter: fewest numbers; title_numbering()), not the sections.
//   shadowed_bits: one bit per page whose title names another page so.
// - fetched_sites: the number of sites with a fetched page.
inline constexpr std::size_t kMinFamilyPages = 10;
struct SiteTitles {
  std::string family_bits;
  std::string shadowed_bits;
  std::unordered_map<std::string, std::vector<std::string>> site_words;
  std::size_t fetched_sites = 0;
  static SiteTitles learn(const Database& db);
  // The words of `site`'s boilerplate, or null.
  const std::vector<std::string>* words_of(std::string_view site) const;
};

// A title's leading numbering ("Chapter 8. ", "37.2. ", "F.49. ", "Part II. ", "Appendix B. "):
// its level (the number of its numbers; 0 for a part, 1 for a chapter or appendix) and the
// title without it; level -1 and the whole title when it has none.
struct TitleNumbering {
  int level = -1;
  std::string_view rest;
};
TitleNumbering title_numbering(std::string_view title);

// A page's one-line description: where the page's text starts (its first kDescriptionStartWords
// words) with one of `names` (name_key()s: the page's URL name, its title)
// followed by " - ", " — " or " – ", the words after it up to the end of the sentence,
// a heading written in capitals, or kDescriptionWords words: a manual page's NAME line
// ("git-clean - Remove untracked files from the working tree"), PostgreSQL's "CREATE TABLE —
// define a new table". Empty when there is none.
inline constexpr std::size_t kDescriptionStartWords = 32;
inline constexpr std::size_t kDescriptionWords = 16;
std::string_view page_description(std::string_view own_text, const std::vector<std::string>& names);

// Makes the documents of pages. Not thread-safe: one per thread.
class DocumentMaker {
 public:
  // `chrome`: the sites' repeated text, learned from the database (may be null: no chrome);
  // `titles`: what the titles say of the sites (may be null). Both must outlive the maker.
  DocumentMaker(const FieldWeights& weights, const SiteChrome* chrome,
                const SiteTitles* titles = nullptr);
  // The document of page `page`, or false if the page has nothing to index (a page of a crawl
  // that was neither fetched nor named by any anchor text).
  bool make(const Database& db, PageId page, Xapian::Document& doc);
  // The spans of the own text of the page make() last made, when some of its text is chrome;
  // empty when none is (or it has no text).
  const std::vector<TextSpan>& own_text() const { return own_; }
  // The words of titles, of the pages' own text and of anchor texts of the pages made so far,
  // each with the number of those pages that have it: the spelling data (Xapian's, for "did you
  // mean"), which the index builder adds once per word (Xapian's spelling table costs a B-tree
  // of word fragments per database a word is added to).
  struct WordPages {
    std::uint32_t pages = 0;  // the pages that have the word
    std::uint32_t last = 0;   // the last of them (make()'s count of calls)
  };
  const std::unordered_map<std::string, WordPages>& vocabulary() const { return vocabulary_; }

 private:
  // `compounds`: also under its compounds joined (join_compounds), for titles and anchor texts,
  // where "PL/pgSQL" is written for the word plpgsql (URL segments join every word with '-').
  // `site_words`: also under its key without the words of the site's name (may be null).
  void add_name(Xapian::Document& doc, std::string_view text, const char* prefix,
                bool compounds = false, const std::vector<std::string>* site_words = nullptr);
  void add_key(Xapian::Document& doc, const std::string& key, const char* prefix,
               const std::vector<std::string>* site_words);

  // Adds the words of `text` to the page's words for the spelling data.
  void page_words(std::string_view text);
  // The names a description starts after (page_description()): the page's URL names, its title
  // and its title's first part, numbering aside.
  std::vector<std::string> description_names(const Database& db, PageId page) const;

  FieldWeights weights_;
  const SiteChrome* chrome_;
  const SiteTitles* titles_;
  std::unordered_map<std::string, WordPages> vocabulary_;
  std::uint32_t serial_ = 0;  // make()'s calls
  Xapian::TermGenerator terms_;
  std::vector<std::string_view> anchors_;
  std::unordered_map<std::string_view, int> count_;  // links of each distinct anchor text
  std::vector<std::string_view> own_sections_;       // texts of the page's links to itself
  std::unordered_map<std::string_view, int> own_count_;
  std::string scratch_;
  std::vector<TextSpan> own_;
};

// The key of a name (a title, a part of one, an anchor text, URL words) or of a query: its
// words, lower-cased, plurals folded (not stemmed), sorted and space-separated, without stop
// words and numbers; "" when nothing is left or it has more than kMaxNameWords words.
// Thread-safe.
inline constexpr std::size_t kMaxNameWords = 8;
std::string name_key(std::string_view text);
// The key of words already folded, and the words of a key.
std::string name_key(std::vector<std::string> words);
std::vector<std::string> name_words(std::string_view key);
// Queries of at most this many name words earn a share of the bonus of a page named by some of
// them (2^n - 1 lookups).
inline constexpr std::size_t kMaxNamePartWords = 4;

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
