#include "search/snippet.hpp"

#include <xapian.h>

#include <algorithm>
#include <array>

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

// ASCII characters classified and lower-cased as Xapian's Unicode tables do, by table lookup.
struct AsciiTable {
  std::array<bool, 128> word{};
  std::array<char, 128> lower{};
  AsciiTable() {
    for (unsigned c = 0; c < 128; ++c) {
      word[c] = Xapian::Unicode::is_wordchar(c);
      lower[c] = static_cast<char>(Xapian::Unicode::tolower(c));
    }
  }
};

// Every word of `text` whose stem is one of `stems`. Only words whose first letter is the first
// letter of some stem are lower-cased and stemmed (English stemming keeps the first letter);
// ASCII is classified by a table, other characters by Xapian's Unicode tables, the ones the
// indexer's tokenizer uses.
std::vector<Match> find_matches(std::string_view text, const std::vector<std::string>& stems) {
  static const AsciiTable ascii;
  std::array<bool, 128> ascii_first{};
  std::vector<unsigned> other_first;
  for (const std::string& s : stems) {
    if (s.empty()) continue;
    const unsigned f = *Xapian::Utf8Iterator(s);
    if (f < 128) {
      ascii_first[f] = true;
    } else {
      other_first.push_back(f);
    }
  }
  const std::size_t n = text.size();
  // The character at `i` (not ASCII) and its length in bytes.
  auto decode = [&](std::size_t i, unsigned& ch) -> std::size_t {
    const auto lead = static_cast<unsigned char>(text[i]);
    const std::size_t len = std::min<std::size_t>(n - i, lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4);
    ch = *Xapian::Utf8Iterator(text.data() + i, len);  // a malformed sequence reads as a byte
    return len;
  };
  // The length of the word character at `i`, or 0 if it is not one.
  auto word_char = [&](std::size_t i, unsigned& ch) -> std::size_t {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      ch = c;
      return ascii.word[c] ? 1 : 0;
    }
    const std::size_t len = decode(i, ch);
    return Xapian::Unicode::is_wordchar(ch) ? len : 0;
  };
  std::vector<Match> matches;
  std::string word;
  // The word starting at `begin` (its first character `ch`, `len` bytes): stemmed and compared
  // when it is a candidate. Returns where it ends.
  auto take_word = [&](std::size_t begin, unsigned ch, std::size_t len) {
    std::size_t i = begin;
    const bool candidate = ch < 128 ? ascii_first[static_cast<unsigned char>(ascii.lower[ch])]
                                    : std::find(other_first.begin(), other_first.end(),
                                                Xapian::Unicode::tolower(ch)) != other_first.end();
    if (!candidate) {
      for (i += len; i < n && (len = word_char(i, ch)) != 0; i += len) {
      }
      return i;
    }
    word.clear();
    for (; i < n && len != 0; i += len, len = i < n ? word_char(i, ch) : 0) {
      if (ch < 128) {
        word += ascii.lower[ch];
      } else {
        Xapian::Unicode::append_utf8(word, Xapian::Unicode::tolower(ch));
      }
    }
    const std::string stem = stem_word(word);
    for (std::size_t k = 0; k < stems.size(); ++k) {
      if (stems[k] == stem) {
        matches.push_back({begin, i, k});
        break;
      }
    }
    return i;
  };
  unsigned ch = 0;
  if (other_first.empty()) {
    // Every stem starts with an ASCII letter: only bytes that are such a letter (in any case)
    // at the start of a word are looked at closely.
    for (std::size_t i = 0; i < n;) {
      const auto c = static_cast<unsigned char>(text[i]);
      if (c >= 0x80 || !ascii_first[static_cast<unsigned char>(ascii.lower[c])]) {
        ++i;
        continue;
      }
      // Inside a word? (its previous character is a word character)
      if (i > 0) {
        std::size_t prev = i - 1;
        while (prev > 0 && utf8_continuation(text[prev])) --prev;
        unsigned pc = 0;
        if (word_char(prev, pc) != 0) {
          ++i;
          continue;
        }
      }
      i = take_word(i, c, 1);
    }
    return matches;
  }
  for (std::size_t i = 0; i < n;) {
    const std::size_t len = word_char(i, ch);
    if (len == 0) {
      i += static_cast<unsigned char>(text[i]) < 0x80 ? 1 : std::max<std::size_t>(1, decode(i, ch));
      continue;
    }
    i = take_word(i, ch, len);
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
