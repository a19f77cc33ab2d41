// The query language (docs/search.md, "Queries"): words, "phrases", -excluded, OR, site:HOST,
// intitle:WORD, parsed here rather than by Xapian's QueryParser so that a malformed query is an
// error saying what is wrong and where (Xapian's parser silently reparses it as plain words), and
// so that query words become exactly the terms the indexer made (document.hpp).
//
// Grammar: a query is a sequence of groups, all required (AND; the word AND may be written);
// a group is one or more atoms joined by OR; an atom is a word, a "phrase", site:HOST,
// intitle:WORD or intitle:"phrase", optionally preceded by - (excluded). A word that the
// tokenizer splits (pg_dump.c, ALTER-TABLE) is a phrase of its parts. Stop words ("the", "how")
// do not have to match: they only add weight, unless the query has nothing but stop words.
#pragma once

#include <xapian.h>

#include <string>
#include <string_view>
#include <vector>

#include "webrank/search/search.hpp"

namespace webrank::search {

struct Atom {
  enum class Kind { kWords, kSite, kInTitle };
  Kind kind = Kind::kWords;
  std::string text;                // as written (without site:/intitle:)
  std::vector<std::string> terms;  // stemmed terms in order (kWords, kInTitle); several: a phrase
  std::vector<std::string> title_terms;  // the same under the title prefix
  std::string site;                      // kSite: the boolean term
  bool stop = false;                     // a stop word on its own
};

struct Group {
  bool excluded = false;
  std::vector<Atom> atoms;  // joined by OR
};

struct ParsedQuery {
  std::vector<Group> groups;
};

// Parses `query`. Throws Error (kInvalidArgument, field "query") naming what is wrong and the
// character (1-based) where: empty query, unclosed quote, empty phrase, OR without a term on a
// side, an excluded term inside OR, site: or intitle: without a value, only excluded terms,
// nothing searchable, more than kMaxQueryBytes bytes or kMaxQueryTerms terms.
ParsedQuery parse_query(std::string_view query);

// The Xapian query of `q` for `mode`, without PageRank (the searcher adds it): text and full
// modes match the weighted fields, title mode the title terms (as a boolean query).
Xapian::Query text_query(const ParsedQuery& q, SearchMode mode);

// Every positive word atom's terms (for unknown_words and snippets), with the text as written.
struct QueryWord {
  std::string text;
  std::vector<std::string> terms;        // unprefixed
  std::vector<std::string> title_terms;  // title-prefixed
};
std::vector<QueryWord> positive_words(const ParsedQuery& q);

// The name a query made of words and phrases only (site: and excluded terms aside) gives
// (document.hpp: name_key, without a prefix); "" for a query with OR or nothing that names.
std::string query_name(const ParsedQuery& q);

}  // namespace webrank::search
