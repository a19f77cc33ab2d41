#include "search/snippet.hpp"

#include <xapian.h>

#include <algorithm>
#include <array>
#include <cctype>

#include "search/document.hpp"

namespace webrank::search {
namespace {

constexpr std::size_t kScanBytes = 64 << 10;

struct Match {
  std::size_t begin, end;
  std::size_t stem;  // index into the stems
};

bool utf8_continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

bool blank(char c) {
  return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

// Every word of `text` whose stem is one of `stems`. Only words whose first letter is the first
// letter of some stem are lower-cased and stemmed (English stemming keeps the first letter);
// ASCII is classified by a table, other characters by Xapian's Unicode tables, the same ones the
// indexer's tokenizer uses. A scan costs about a nanosecond per byte.
std::vector<Match> find_matches(std::string_view text, const std::vector<std::string>& stems) {
  std::vector<unsigned> firsts;
  for (const std::string& s : stems) {
    if (!s.empty()) firsts.push_back(*Xapian::Utf8Iterator(s));
  }
  static const auto ascii_word = [] {
    std::array<bool, 128> t{};
    for (int c = 0; c < 128; ++c) t[c] = Xapian::Unicode::is_wordchar(static_cast<unsigned>(c));
    return t;
  }();
  // The character at `i` and its length in bytes.
  auto at = [&](std::size_t i, unsigned& ch) -> std::size_t {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      ch = c;
      return 1;
    }
    Xapian::Utf8Iterator it(text.data() + i, text.size() - i);
    ch = *it;
    ++it;
    return it == Xapian::Utf8Iterator() ? text.size() - i
                                        : static_cast<std::size_t>(it.raw() - (text.data() + i));
  };
  auto word_char = [&](unsigned ch) {
    return ch < 128 ? ascii_word[ch] : Xapian::Unicode::is_wordchar(ch);
  };
  std::vector<Match> matches;
  std::string word;
  std::size_t i = 0;
  unsigned ch = 0;
  while (i < text.size()) {
    std::size_t n = at(i, ch);
    if (!word_char(ch)) {
      i += n;
      continue;
    }
    const std::size_t begin = i;
    const unsigned lower = ch < 128 ? static_cast<unsigned>(std::tolower(static_cast<int>(ch)))
                                    : Xapian::Unicode::tolower(ch);
    const bool candidate = std::find(firsts.begin(), firsts.end(), lower) != firsts.end();
    word.clear();
    while (true) {
      if (candidate) {
        if (ch < 128) {
          word += static_cast<char>(std::tolower(static_cast<int>(ch)));
        } else {
          Xapian::Unicode::append_utf8(word, Xapian::Unicode::tolower(ch));
        }
      }
      i += n;
      if (i >= text.size()) break;
      n = at(i, ch);
      if (!word_char(ch)) break;
    }
    if (!candidate) continue;
    const std::string stem = stem_word(word);
    for (std::size_t k = 0; k < stems.size(); ++k) {
      if (stems[k] == stem) {
        matches.push_back({begin, i, k});
        break;
      }
    }
  }
  return matches;
}

// Moves `at` back to the start of its UTF-8 character.
std::size_t char_start(std::string_view text, std::size_t at) {
  while (at > 0 && at < text.size() && utf8_continuation(text[at])) --at;
  return at;
}

}  // namespace

Snippet make_snippet(std::string_view text, const std::vector<std::string>& stems,
                     std::size_t length) {
  Snippet s;
  if (text.empty() || length == 0) return s;
  // The passage is looked for in the first kScanBytes: a page says what it is about early, and
  // the time of a search stays bounded whatever the length of its pages.
  const std::vector<Match> matches =
      find_matches(text.substr(0, char_start(text, std::min(text.size(), kScanBytes))), stems);
  // The window of matches spanning at most 3/4 of the length with the most distinct stems, then
  // the most matches (two pointers over the matches in text order).
  std::size_t best_first = 0, best_distinct = 0, best_count = 0;
  std::vector<std::size_t> seen(stems.size(), 0);
  std::size_t distinct = 0;
  const std::size_t span = length * 3 / 4;
  for (std::size_t i = 0, j = 0; j < matches.size(); ++j) {
    if (seen[matches[j].stem]++ == 0) ++distinct;
    while (matches[j].end - matches[i].begin > span && i < j) {
      if (--seen[matches[i].stem] == 0) --distinct;
      ++i;
    }
    if (distinct > best_distinct || (distinct == best_distinct && j - i + 1 > best_count)) {
      best_distinct = distinct;
      best_count = j - i + 1;
      best_first = i;
    }
  }
  // Some context before the first match, starting at a word.
  std::size_t begin = 0;
  if (!matches.empty()) {
    const std::size_t first = matches[best_first].begin;
    const std::size_t context = std::min(first, length / 6);
    begin = first - context;
    if (begin > 0) {
      const std::size_t blank_at = text.find(' ', begin);
      begin = blank_at != std::string_view::npos && blank_at < first ? blank_at + 1 : first;
    }
  }
  std::size_t end = std::min(text.size(), begin + length);
  if (end < text.size()) {
    const std::size_t blank_at = text.rfind(' ', end);
    end = blank_at != std::string_view::npos && blank_at > begin ? blank_at : char_start(text, end);
  }
  while (end > begin && blank(text[end - 1])) --end;
  s.text = std::string(text.substr(begin, end - begin));
  s.cut_before = begin > 0;
  s.cut_after = end < text.size();
  for (const Match& m : matches) {
    if (m.begin >= begin && m.end <= end) s.matches.push_back({m.begin - begin, m.end - begin});
  }
  return s;
}

}  // namespace webrank::search
