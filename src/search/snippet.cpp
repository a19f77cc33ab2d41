#include "search/snippet.hpp"

#include <xapian.h>
#include <xxhash.h>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <array>
#include <bit>
#include <bitset>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>

#include "search/document.hpp"

namespace webrank::search {
namespace {

constexpr std::size_t kScanBytes = 64 << 10;
constexpr std::size_t kScanBlock = 8 << 10;

struct Match {
  std::size_t begin, end;
  std::size_t stem;      // index into the stems
  std::size_t span = 0;  // index into the own-text spans
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

// The text is read a block of S::kLanes bytes at a time, S one of the widths this build has
// (scan_widths()): Lanes<64> where AVX-512 (BW) is there, Lanes<32> with AVX2 (a build for the
// machine it runs on, -march=native), Lanes<16> with SSE2 (every x86-64), or Scalar, a word at a
// time. A block is a vector of the compiler's (GCC and Clang vector extensions): comparisons
// give a lane of all ones or of zeros, & | ~ work lane by lane, and bits() gathers each lane's
// top bit, lane k at bit k, with the instruction of its width.
struct Scalar {
  static constexpr std::size_t kLanes = 1;
};

template <std::size_t N>
struct Lanes {
  typedef signed char Vec __attribute__((vector_size(N)));
  static constexpr std::size_t kLanes = N;
  static constexpr std::uint64_t kAll = N == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << N) - 1;
  static Vec load(const char* p) {
    Vec v;
    std::memcpy(&v, p, N);
    return v;
  }
  static Vec splat(char c) { return Vec{} + static_cast<signed char>(c); }
  static std::uint64_t bits(Vec v);
};
#if defined(__SSE2__)
template <>
std::uint64_t Lanes<16>::bits(Vec v) {
  return static_cast<std::uint32_t>(_mm_movemask_epi8(std::bit_cast<__m128i>(v)));
}
#endif
#if defined(__AVX2__)
template <>
std::uint64_t Lanes<32>::bits(Vec v) {
  return static_cast<std::uint32_t>(_mm256_movemask_epi8(std::bit_cast<__m256i>(v)));
}
#endif
#if defined(__AVX512BW__)
template <>
std::uint64_t Lanes<64>::bits(Vec v) {
  return _mm512_movepi8_mask(std::bit_cast<__m512i>(v));
}
#endif

// S::kLanes bytes p[0..kLanes): which are ASCII word characters ([0-9A-Za-z_], as Xapian
// classifies them: tests/unit/search_test.cpp checks), the bytes lower-cased, and (bits) which
// are not ASCII (negative as signed chars, so in none of the ranges).
template <class S>
struct Block {
  typename S::Vec word, lower;
  std::uint64_t high;
};

template <class S>
Block<S> classify(const char* p) {
  const typename S::Vec x = S::load(p);
  const auto in = [&x](char lo, char hi) { return (x >= S::splat(lo)) & (x <= S::splat(hi)); };
  const typename S::Vec upper = in('A', 'Z');
  return {in('0', '9') | upper | in('a', 'z') | (x == S::splat('_')), x | (upper & S::splat(0x20)),
          S::bits(x)};
}

// The first position from `i` on whose byte is not an ASCII word character (the end of the text
// at most), and the first whose byte is an ASCII word character or not ASCII. A block at a time
// (but for Scalar): a branch per word instead of one per byte.
template <class S>
std::size_t ascii_word_end(std::string_view t, std::size_t i, const AsciiTable& ascii) {
  if constexpr (S::kLanes > 1) {
    for (; i + S::kLanes <= t.size(); i += S::kLanes) {
      const std::uint64_t stop = ~S::bits(classify<S>(t.data() + i).word) & S::kAll;
      if (stop != 0) return i + static_cast<std::size_t>(__builtin_ctzll(stop));
    }
  }
  while (i < t.size() && static_cast<unsigned char>(t[i]) < 0x80 &&
         ascii.word[static_cast<unsigned char>(t[i])]) {
    ++i;
  }
  return i;
}

template <class S>
std::size_t next_word_byte(std::string_view t, std::size_t i, const AsciiTable& ascii) {
  if constexpr (S::kLanes > 1) {
    for (; i + S::kLanes <= t.size(); i += S::kLanes) {
      const Block<S> b = classify<S>(t.data() + i);
      const std::uint64_t stop = S::bits(b.word) | b.high;
      if (stop != 0) return i + static_cast<std::size_t>(__builtin_ctzll(stop));
    }
  }
  while (i < t.size() && static_cast<unsigned char>(t[i]) < 0x80 &&
         !ascii.word[static_cast<unsigned char>(t[i])]) {
    ++i;
  }
  return i;
}

// Moves `at` back to the start of its UTF-8 character.
std::size_t char_start(std::string_view text, std::size_t at) {
  while (at > 0 && at < text.size() && utf8_continuation(text[at])) --at;
  return at;
}

// Bit k: a word whose first two characters (lower case) are one of `pairs`, or whose first is one
// of `any`, or one of `firsts` followed by no ASCII word character, may start at p[1 + k]: p[k] is
// not an ASCII word character (a character that is not ASCII is left to the caller). Reads p[0]
// to p[S::kLanes + 1].
template <class S>
std::uint64_t candidate_starts(const char* p, const std::vector<std::pair<char, char>>& pairs,
                               const std::vector<char>& firsts, const std::vector<char>& any) {
  const Block<S> prev = classify<S>(p), here = classify<S>(p + 1), next = classify<S>(p + 2);
  typename S::Vec first{}, hit{};
  for (const char f : firsts) first |= here.lower == S::splat(f);
  for (const char f : any) hit |= here.lower == S::splat(f);
  for (const auto& [f, b] : pairs) hit |= (here.lower == S::splat(f)) & (next.lower == S::splat(b));
  hit |= first & ~next.word;
  return S::bits(hit & ~prev.word);
}

// The stem of a lower-cased word, from a cache of the words this thread met before. Stemming was
// most of the time of a search (a page repeats its words, and pages share their vocabulary). The
// cache is direct-mapped: a word's slot is given by its hash, and a word that finds another in
// its slot is stemmed and takes it; a lookup is one hash and one comparison, and the cache stays
// at kStemCacheSlots words (about a MiB) per thread.
constexpr std::size_t kStemCacheSlots = 1 << 14;

const std::string& cached_stem(const std::string& word) {
  struct Slot {
    bool used = false;
    std::string word, stem;
  };
  thread_local std::vector<Slot> cache(kStemCacheSlots);
  Slot& slot = cache[XXH3_64bits(word.data(), word.size()) & (kStemCacheSlots - 1)];
  if (!slot.used || slot.word != word) {
    slot.word = word;
    slot.stem = stem_word(word);
    slot.used = true;
  }
  return slot.stem;
}

// Appends every word of `text` whose stem is one of `stems` to `matches`, at `base` plus its
// offset in `text`, reading the text S::kLanes bytes at a time. Only words that start as some stem
// starts (English stemming keeps the first two letters, but for three words) are lower-cased and
// stemmed; ASCII is classified by a table, other characters by Xapian's Unicode tables, the ones
// the indexer's tokenizer uses.
template <class S>
void find_matches(std::string_view text, const SnippetWords& words, std::size_t base,
                  std::vector<Match>& matches) {
  static const AsciiTable ascii;
  const std::vector<std::string>& stems = words.stems;
  const auto& ascii_first = words.ascii_first;
  const auto& second = words.second;
  const auto& any_second = words.any_second;
  const auto& other_first = words.other_first;
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
    const std::string& stem = cached_stem(word);
    for (std::size_t k = 0; k < stems.size(); ++k) {
      if (stems[k] == stem) {
        matches.push_back({base + begin, base + i, k});
        break;
      }
    }
    return i;
  };
  unsigned ch = 0;
  std::size_t i = 0;
  if constexpr (S::kLanes > 1) {
    if (other_first.empty()) {
      // Every stem starts with an ASCII character: S::kLanes positions at a time, only those where
      // a candidate word starts are looked at (reading the page is most of the time of a search).
      std::size_t done = 0;  // words before it were read
      while (i < n) {
        // The block text[i, i + S::kLanes) with the byte before it and the one after it; past the
        // end of the text (or before its start) as blanks.
        char pad[S::kLanes + 2];
        const char* at = text.data() + i - 1;
        if (i == 0 || i + S::kLanes + 1 > n) {
          for (std::size_t k = 0; k < S::kLanes + 2; ++k) {
            pad[k] = i + k >= 1 && i + k - 1 < n ? text[i + k - 1] : ' ';
          }
          at = pad;
        }
        std::uint64_t mask = candidate_starts<S>(at, words.pairs, words.firsts, words.any);
        if (i + S::kLanes > n) mask &= (std::uint64_t{1} << (n - i)) - 1;
        while (mask != 0) {
          const std::size_t p = i + static_cast<std::size_t>(__builtin_ctzll(mask));
          mask &= mask - 1;
          if (p < done) continue;
          if (p > 0 && static_cast<unsigned char>(text[p - 1]) >= 0x80) {
            // After a character that is not ASCII: inside a word if that is a word character.
            const std::size_t prev = char_start(text, p - 1);
            if (word_char(prev, ch) != 0) continue;
          }
          done = take_word(p, static_cast<unsigned char>(text[p]), 1);
        }
        i += S::kLanes;
      }
      return;
    }
  }
  // Word by word: a branch per word on its first letter, not one per byte.
  while (i < n) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t len = 1;
    if (c < 0x80) {
      if (!ascii.word[c]) {
        i = next_word_byte<S>(text, i + 1, ascii);
        continue;
      }
      ch = c;
      const auto first = static_cast<unsigned char>(ascii.lower[c]);
      const auto next = i + 1 < n ? static_cast<unsigned char>(text[i + 1]) : 0;
      // One letter, or a second character that is not ASCII: stemmed to be sure.
      const bool candidate =
          ascii_first[first] && (any_second[first] || next >= 0x80 || !ascii.word[next] ||
                                 second[first][static_cast<unsigned char>(ascii.lower[next])]);
      if (!candidate) {
        // Not a candidate: to the end of the word (ASCII a block at a time).
        for (i = ascii_word_end<S>(text, i + 1, ascii);
             i < n && static_cast<unsigned char>(text[i]) >= 0x80 && (len = word_char(i, ch)) != 0;
             i = ascii_word_end<S>(text, i + len, ascii)) {
        }
        continue;
      }
    } else if ((len = word_char(i, ch)) == 0) {
      i += std::max<std::size_t>(1, decode(i, ch));
      continue;
    }
    i = take_word(i, ch, len);
  }
}

// find_matches reading `lanes` bytes at a time (0: the widest this build has).
void find_matches(std::string_view text, const SnippetWords& words, std::size_t base,
                  std::vector<Match>& matches, std::size_t lanes = 0) {
#if defined(__AVX512BW__)
  if (lanes == 0 || lanes == 64) return find_matches<Lanes<64>>(text, words, base, matches);
#endif
#if defined(__AVX2__)
  if (lanes == 0 || lanes == 32) return find_matches<Lanes<32>>(text, words, base, matches);
#endif
#if defined(__SSE2__)
  if (lanes == 0 || lanes == 16) return find_matches<Lanes<16>>(text, words, base, matches);
#endif
  if (lanes == 0 || lanes == 1) return find_matches<Scalar>(text, words, base, matches);
  throw std::invalid_argument("find_words: this build reads no block of " + std::to_string(lanes) +
                              " bytes");
}

// The window of `matches` (in text order) within one own-text span and no longer than `span`
// bytes with the most distinct stems, then the most matches, as (first, distinct stems, matches);
// `seen` is scratch of one element per stem. Two pointers over the matches.
struct Window {
  std::size_t first = 0, distinct = 0, count = 0;
};
Window best_window(const std::vector<Match>& matches, std::size_t span,
                   std::vector<std::size_t>& seen) {
  std::fill(seen.begin(), seen.end(), 0);
  Window best;
  std::size_t distinct = 0;
  for (std::size_t i = 0, j = 0; j < matches.size(); ++j) {
    if (seen[matches[j].stem]++ == 0) ++distinct;
    while ((matches[j].end - matches[i].begin > span || matches[i].span != matches[j].span) &&
           i < j) {
      if (--seen[matches[i].stem] == 0) --distinct;
      ++i;
    }
    if (distinct > best.distinct || (distinct == best.distinct && j - i + 1 > best.count)) {
      best = {i, distinct, j - i + 1};
    }
  }
  return best;
}

}  // namespace

SnippetWords::SnippetWords(std::vector<std::string> stems_) : stems(std::move(stems_)) {
  for (const std::string& s : stems) {
    if (s.empty()) continue;
    const unsigned f = *Xapian::Utf8Iterator(s);
    if (f >= 128) {
      other_first.push_back(f);
      continue;
    }
    ascii_first[f] = true;
    const auto b = s.size() >= 2 ? static_cast<unsigned char>(s[1]) : 0x80;
    if (b >= 0x80) {
      any_second[f] = true;
      continue;
    }
    second[f][b] = true;
    // Porter2 changes a word of three letters or more only after its first two, but for three
    // exceptional forms: dying, lying, tying (die, lie, tie).
    if (s == "die" || s == "lie" || s == "tie") second[f]['y'] = true;
  }
  for (unsigned f = 0; f < 128; ++f) {
    if (!ascii_first[f]) continue;
    firsts.push_back(static_cast<char>(f));
    if (any_second[f]) any.push_back(static_cast<char>(f));
    for (unsigned b = 0; b < 128; ++b) {
      if (second[f][b]) pairs.emplace_back(static_cast<char>(f), static_cast<char>(b));
    }
  }
}

Snippet make_snippet(std::string_view text, const std::vector<std::string>& stems,
                     std::size_t length, const std::vector<TextSpan>& own_text) {
  return make_snippet(text, SnippetWords(stems), length, own_text);
}

Snippet make_snippet(std::string_view text, const SnippetWords& words, std::size_t length,
                     const std::vector<TextSpan>& own_text) {
  const std::vector<std::string>& stems = words.stems;
  Snippet s;
  if (text.empty() || length == 0) return s;
  const TextSpan whole{0, text.size()};
  const std::span<const TextSpan> own =
      own_text.empty() ? std::span<const TextSpan>(&whole, 1) : std::span(own_text);
  // The passage is looked for in the first kScanBytes: a page says what it is about early, and
  // the time of a search stays bounded whatever the length of its pages. They are read
  // kScanBlock bytes at a time, up to the block where a passage first holds every query word.
  // Only matches in the page's own text count, each with the span it is in: a passage never
  // crosses from one span into the site's chrome.
  const std::size_t span = length * 3 / 4;
  const std::size_t limit = char_start(text, std::min(text.size(), kScanBytes));
  std::vector<Match> matches;
  std::vector<std::size_t> seen(stems.size());
  Window best;
  for (std::size_t begin = 0, k = 0; begin < limit;) {
    std::size_t end = std::min(limit, begin + kScanBlock);
    if (end < limit) {
      // At a space: no word is cut in two.
      const std::size_t blank_at = text.rfind(' ', end);
      end = blank_at != std::string_view::npos && blank_at > begin ? blank_at : limit;
    }
    // This block's matches, those outside the own text dropped, each told its span.
    std::size_t kept = matches.size();
    find_matches(text.substr(begin, end - begin), words, begin, matches);
    for (std::size_t m = kept; m < matches.size() && k < own.size();) {
      if (matches[m].end <= own[k].begin) {
        ++m;
      } else if (matches[m].begin >= own[k].end) {
        ++k;
      } else {
        if (matches[m].begin >= own[k].begin && matches[m].end <= own[k].end) {
          matches[m].span = k;
          matches[kept++] = matches[m];
        }
        ++m;
      }
    }
    matches.resize(kept);
    begin = end;
    best = best_window(matches, span, seen);
    if (!stems.empty() && best.distinct == stems.size()) break;
  }
  const std::size_t best_first = best.first;
  const TextSpan in = matches.empty() ? own.front() : own[matches[best_first].span];
  // Some context before the first match, starting at a word.
  std::size_t begin = in.begin;
  if (!matches.empty()) {
    const std::size_t first = matches[best_first].begin;
    const std::size_t context = std::min(first - in.begin, length / 6);
    begin = first - context;
    if (begin > in.begin) {
      const std::size_t blank_at = text.find(' ', begin);
      begin = blank_at != std::string_view::npos && blank_at < first ? blank_at + 1 : first;
    }
  }
  std::size_t end = std::min(in.end, begin + length);
  if (end < in.end) {
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

std::vector<std::size_t> scan_widths() {
  std::vector<std::size_t> widths;
#if defined(__AVX512BW__)
  widths.push_back(64);
#endif
#if defined(__AVX2__)
  widths.push_back(32);
#endif
#if defined(__SSE2__)
  widths.push_back(16);
#endif
  widths.push_back(1);
  return widths;
}

std::vector<TextSpan> find_words(std::string_view text, const std::vector<std::string>& stems,
                                 std::size_t lanes) {
  if (lanes == 0) throw std::invalid_argument("find_words: lanes must be one of scan_widths()");
  std::vector<Match> matches;
  find_matches(text, SnippetWords(stems), 0, matches, lanes);
  std::vector<TextSpan> words;
  for (const Match& m : matches) words.push_back({m.begin, m.end});
  return words;
}

}  // namespace webrank::search
