#include "search/spelling.hpp"

#include "search/document.hpp"
#include "search/query.hpp"
#include "webrank/util/error.hpp"

namespace webrank::search {
namespace {

bool blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

bool known(const Xapian::Database& index, const std::string& word) {
  for (const std::string& t : text_terms(word)) {
    if (index.get_termfreq(t) == 0) return false;
  }
  return true;
}

}  // namespace

std::string suggest_query(const Xapian::Database& index, std::string_view query, SearchMode mode) {
  std::string out;
  bool changed = false;
  std::size_t i = 0;
  while (i < query.size()) {
    if (blank(query[i]) || query[i] == '"' || query[i] == '-') {
      out += query[i++];
      continue;
    }
    std::size_t end = i;
    while (end < query.size() && !blank(query[end]) && query[end] != '"') ++end;
    std::string_view token = query.substr(i, end - i);
    i = end;
    const std::string low = Xapian::Unicode::tolower(std::string(token));
    if (token == "OR" || token == "AND" || low.starts_with("site:")) {
      out += token;
      continue;
    }
    if (low.starts_with("intitle:")) {
      out += token.substr(0, 8);
      token.remove_prefix(8);
    }
    // The word characters of the token, one word at a time; punctuation stays.
    for (Xapian::Utf8Iterator it(token.data(), token.size()), stop; it != stop;) {
      if (!Xapian::Unicode::is_wordchar(*it)) {
        Xapian::Unicode::append_utf8(out, *it);
        ++it;
        continue;
      }
      std::string word;
      std::size_t chars = 0;
      for (; it != stop && Xapian::Unicode::is_wordchar(*it); ++it, ++chars) {
        Xapian::Unicode::append_utf8(word, *it);
      }
      const std::string lower = Xapian::Unicode::tolower(word);
      if (!known(index, lower)) {
        const std::string fix = index.get_spelling_suggestion(lower, chars <= 4 ? 1 : 2);
        if (!fix.empty() && fix != lower) {
          out += fix;
          changed = true;
          continue;
        }
      }
      out += word;
    }
  }
  if (!changed) return "";
  try {
    Xapian::Enquire enquire(index);
    enquire.set_weighting_scheme(Xapian::BoolWeight());
    enquire.set_query(text_query(parse_query(out), mode));
    if (enquire.get_mset(0, 1).empty()) return "";
  } catch (const Error&) {
    return "";  // a correction that does not parse is no suggestion
  }
  return out;
}

}  // namespace webrank::search
