#include "search/query.hpp"

#include <algorithm>

#include "search/document.hpp"
#include "webrank/search/search.hpp"
#include "webrank/util/error.hpp"

namespace webrank::search {
namespace {

bool blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

class Parser {
 public:
  explicit Parser(std::string_view q) : q_(q) {}

  ParsedQuery parse() {
    if (q_.size() > kMaxQueryBytes) {
      fail_query(cat("is ", q_.size(), " bytes long; at most ", kMaxQueryBytes, " are allowed"));
    }
    ParsedQuery out;
    bool join_next = false;  // the previous token was OR
    std::size_t or_at = 0;
    bool any_token = false;
    while (true) {
      while (pos_ < q_.size() && blank(q_[pos_])) ++pos_;
      if (pos_ >= q_.size()) break;
      const std::size_t start = pos_;
      any_token = true;
      // OR and AND as whole tokens are operators.
      const std::string_view word = bare_token_at(pos_);
      if (word == "OR") {
        if (out.groups.empty() || join_next) {
          fail_at(start, join_next ? "OR follows another OR: put a term between them"
                                   : "OR has no term before it");
        }
        if (out.groups.back().excluded) {
          fail_at(start, "an excluded term cannot be a side of OR: write -a -b, or a OR b");
        }
        pos_ += word.size();
        join_next = true;
        or_at = start;
        continue;
      }
      if (word == "AND") {
        if (join_next) fail_at(start, "AND follows OR: put a term between them");
        pos_ += word.size();
        continue;
      }
      bool excluded = false;
      if (q_[pos_] == '-') {
        if (pos_ + 1 >= q_.size() || blank(q_[pos_ + 1])) {  // a lone dash is punctuation
          ++pos_;
          continue;
        }
        excluded = true;
        ++pos_;
      }
      std::optional<Atom> atom = parse_atom(start);
      if (!atom) {
        // Punctuation only: no term. An OR before it still needs its right side.
        continue;
      }
      if (join_next) {
        if (excluded) {
          fail_at(start, "an excluded term cannot be a side of OR: write -a -b, or a OR b");
        }
        out.groups.back().atoms.push_back(std::move(*atom));
        join_next = false;
      } else {
        out.groups.push_back({excluded, {std::move(*atom)}});
      }
    }
    if (!any_token) fail_query("is empty: nothing to search for");
    if (join_next) fail_at(or_at, "OR has no term after it");
    std::size_t terms = 0, positive = 0;
    for (const Group& g : out.groups) {
      for (const Atom& a : g.atoms) terms += std::max<std::size_t>(1, a.terms.size());
      if (!g.excluded) ++positive;
    }
    if (out.groups.empty()) fail_query("has no searchable words (only punctuation)");
    if (positive == 0) {
      fail_query("only excludes pages (-word): add a word, phrase or site: to search for");
    }
    if (terms > kMaxQueryTerms) {
      fail_query(cat("has ", terms, " terms; at most ", kMaxQueryTerms, " are allowed"));
    }
    // Stop words are optional only beside words that are not.
    bool all_stop = true;
    for (const Group& g : out.groups) {
      if (g.excluded) continue;
      for (const Atom& a : g.atoms) all_stop = all_stop && a.stop;
    }
    if (all_stop) {
      for (Group& g : out.groups) {
        for (Atom& a : g.atoms) a.stop = false;
      }
    }
    return out;
  }

  static bool stop_group(const Group& g) {
    return std::all_of(g.atoms.begin(), g.atoms.end(), [](const Atom& a) { return a.stop; });
  }

 private:
  // The token at `at`: up to a blank or a quote.
  std::string_view bare_token_at(std::size_t at) const {
    std::size_t end = at;
    while (end < q_.size() && !blank(q_[end]) && q_[end] != '"') ++end;
    return q_.substr(at, end - at);
  }

  // A quoted phrase starting at pos_ (on the quote); returns its text.
  std::string_view phrase() {
    const std::size_t open = pos_;
    const std::size_t close = q_.find('"', open + 1);
    if (close == std::string_view::npos) {
      fail_at(open, "the phrase opened here has no closing quote (\")");
    }
    pos_ = close + 1;
    return q_.substr(open + 1, close - open - 1);
  }

  std::optional<Atom> parse_atom(std::size_t start) {
    Atom a;
    if (q_[pos_] == '"') {
      const std::size_t open = pos_;
      a.text = phrase();
      a.terms = text_terms(a.text);
      if (a.terms.empty()) fail_at(open, "the phrase has no words");
      a.title_terms = text_terms(a.text, kTitlePrefix);
      return a;
    }
    const std::string_view token = bare_token_at(pos_);
    pos_ += token.size();
    const std::string low = Xapian::Unicode::tolower(std::string(token));
    if (low.starts_with("site:")) {
      a.kind = Atom::Kind::kSite;
      a.text = std::string(token.substr(5));
      if (a.text.empty()) fail_at(start, "site: needs a host name, as in site:www.example.org");
      a.site = site_term(a.text);
      if (a.site.empty()) fail_at(start, cat("site:", a.text, " is not a host name"));
      return a;
    }
    if (low.starts_with("intitle:")) {
      a.kind = Atom::Kind::kInTitle;
      if (token.size() == 8 && pos_ < q_.size() && q_[pos_] == '"') {
        a.text = phrase();
      } else {
        a.text = std::string(token.substr(8));
      }
      if (a.text.empty()) fail_at(start, "intitle: needs a word, as in intitle:index");
      a.terms = text_terms(a.text);
      if (a.terms.empty()) fail_at(start, cat("intitle:", a.text, " has no words"));
      a.title_terms = text_terms(a.text, kTitlePrefix);
      return a;
    }
    a.text = std::string(token);
    a.terms = text_terms(a.text);
    if (a.terms.empty()) return std::nullopt;
    a.title_terms = text_terms(a.text, kTitlePrefix);
    a.stop = a.terms.size() == 1 && is_stop_word(low);
    return a;
  }

  [[noreturn]] void fail_query(const std::string& what) const {
    throw Error(ErrorKind::kInvalidArgument, what, "query");
  }

  [[noreturn]] void fail_at(std::size_t byte, const std::string& what) const {
    // 1-based character (UTF-8 code point) of the byte.
    std::size_t character = 1;
    for (std::size_t i = 0; i < byte && i < q_.size(); ++i) {
      if ((static_cast<unsigned char>(q_[i]) & 0xC0) != 0x80) ++character;
    }
    throw Error(ErrorKind::kInvalidArgument, cat("at character ", character, ": ", what), "query");
  }

  std::string_view q_;
  std::size_t pos_ = 0;
};

Xapian::Query terms_query(const std::vector<std::string>& terms) {
  if (terms.size() == 1) return Xapian::Query(terms[0]);
  return Xapian::Query(Xapian::Query::OP_PHRASE, terms.begin(), terms.end(),
                       static_cast<Xapian::termcount>(terms.size()));
}

Xapian::Query boolean(const Xapian::Query& q) {
  return Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT, q, 0.0);
}

Xapian::Query atom_query(const Atom& a, SearchMode mode) {
  switch (a.kind) {
    case Atom::Kind::kSite:
      return boolean(Xapian::Query(a.site));
    case Atom::Kind::kInTitle:
      if (mode == SearchMode::kTitle) return terms_query(a.title_terms);
      // Weighted as a word of the page, required in the title.
      return Xapian::Query(Xapian::Query::OP_FILTER, terms_query(a.terms),
                           terms_query(a.title_terms));
    case Atom::Kind::kWords:
      break;
  }
  return terms_query(mode == SearchMode::kTitle ? a.title_terms : a.terms);
}

Xapian::Query group_query(const Group& g, SearchMode mode) {
  std::vector<Xapian::Query> alternatives;
  for (const Atom& a : g.atoms) alternatives.push_back(atom_query(a, mode));
  if (alternatives.size() == 1) return alternatives[0];
  return Xapian::Query(Xapian::Query::OP_OR, alternatives.begin(), alternatives.end());
}

bool site_group(const Group& g) {
  return std::all_of(g.atoms.begin(), g.atoms.end(),
                     [](const Atom& a) { return a.kind == Atom::Kind::kSite; });
}

Xapian::Query combine(Xapian::Query::op op, const std::vector<Xapian::Query>& parts) {
  if (parts.size() == 1) return parts[0];
  return Xapian::Query(op, parts.begin(), parts.end());
}

}  // namespace

ParsedQuery parse_query(std::string_view query) {
  return Parser(query).parse();
}

Xapian::Query text_query(const ParsedQuery& q, SearchMode mode) {
  std::vector<Xapian::Query> required, optional, filters, excluded;
  for (const Group& g : q.groups) {
    Xapian::Query gq = group_query(g, mode);
    if (g.excluded) {
      excluded.push_back(gq);
    } else if (site_group(g)) {
      filters.push_back(gq);
    } else if (Parser::stop_group(g)) {
      optional.push_back(gq);
    } else {
      required.push_back(gq);
    }
  }
  Xapian::Query result;
  if (!required.empty()) {
    result = combine(Xapian::Query::OP_AND, required);
    if (!optional.empty()) {
      result = Xapian::Query(Xapian::Query::OP_AND_MAYBE, result,
                             combine(Xapian::Query::OP_OR, optional));
    }
    if (!filters.empty()) {
      result =
          Xapian::Query(Xapian::Query::OP_FILTER, result, combine(Xapian::Query::OP_AND, filters));
    }
  } else {
    result = combine(Xapian::Query::OP_AND, filters);  // site: alone: every page of the site
  }
  if (!excluded.empty()) {
    result =
        Xapian::Query(Xapian::Query::OP_AND_NOT, result, combine(Xapian::Query::OP_OR, excluded));
  }
  if (mode == SearchMode::kTitle) result = boolean(result);
  return result;
}

std::vector<QueryWord> positive_words(const ParsedQuery& q) {
  std::vector<QueryWord> words;
  for (const Group& g : q.groups) {
    if (g.excluded) continue;
    for (const Atom& a : g.atoms) {
      if (a.kind == Atom::Kind::kSite) continue;
      words.push_back({a.text, a.terms, a.title_terms});
    }
  }
  return words;
}

std::string query_name(const ParsedQuery& q) {
  std::string words;
  for (const Group& g : q.groups) {
    if (g.excluded) continue;
    if (g.atoms.size() != 1) return "";
    const Atom& a = g.atoms[0];
    if (a.kind == Atom::Kind::kSite) continue;
    words += a.text;
    words += ' ';
  }
  return name_key(words);
}

}  // namespace webrank::search

namespace webrank {

void check_query(std::string_view query) {
  search::parse_query(query);
}

}  // namespace webrank
