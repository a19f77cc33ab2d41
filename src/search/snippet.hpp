// Snippets: the passage of a page's text where the query words are densest, as plain text with
// the byte ranges of the words that match (a front end escapes and marks them its own way).
#pragma once

#include <array>
#include <bitset>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "webrank/search/search.hpp"

namespace webrank::search {

// The words a snippet looks for (stemmed query words, without term prefixes), prepared once per
// query: which first letters a word of a page must start with to stem to one of them, so that
// only those words are stemmed. English (Porter2) stemming keeps a word's first two letters,
// but for dying, lying, tying (die, lie, tie). Read-only after construction: one may serve any
// number of threads.
struct SnippetWords {
  explicit SnippetWords(std::vector<std::string> stems);

  std::vector<std::string> stems;
  std::array<bool, 128> ascii_first{};         // a stem starts with this ASCII character
  std::array<std::bitset<128>, 128> second{};  // ... then this one (bit b of second[f])
  std::array<bool, 128> any_second{};          // ... then anything (one letter, not ASCII)
  std::vector<unsigned> other_first;           // first characters that are not ASCII
  std::vector<std::pair<char, char>> pairs;    // every (first, second) of `second`
  std::vector<char> firsts, any;               // the ASCII first characters; of any_second
};

// The passage of about `length` bytes of `text` holding the most distinct `stems` (stemmed
// query words, without term prefixes), then the most matches, inside one of the spans of
// `own_text` (the page's own text, chrome.hpp; empty: all of it); the start of the first span
// when none is there. The text is read 8 KiB at a time, up to the block where a passage first
// holds every stem, and 64 KiB at most: the passage is the densest of the blocks read. Words are
// compared as the indexer compares them: lower-cased and stemmed. Cuts fall between words (or, in a
// word longer than the passage, between UTF-8 characters).
Snippet make_snippet(std::string_view text, const SnippetWords& words, std::size_t length,
                     const std::vector<TextSpan>& own_text = {});
// The same, the words prepared for this call only.
Snippet make_snippet(std::string_view text, const std::vector<std::string>& stems,
                     std::size_t length, const std::vector<TextSpan>& own_text = {});

// The widths, in bytes, at which this build can read a text for the words of a snippet, widest
// first: 64 (AVX-512 BW), 32 (AVX2) and 16 (SSE2) as the CPU the build targets has them, and 1 (a
// word at a time, on any CPU). make_snippet reads at the widest.
std::vector<std::size_t> scan_widths();
// The byte ranges of the words of `text` whose stem is one of `stems`, in text order, the text
// read `lanes` bytes at a time (one of scan_widths(), else std::invalid_argument): every width
// finds the same words (tests/unit/search_test.cpp checks them against each other).
std::vector<TextSpan> find_words(std::string_view text, const std::vector<std::string>& stems,
                                 std::size_t lanes);

}  // namespace webrank::search
