#include "search/document.hpp"

#include <xxhash.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <iterator>
#include <sstream>
#include <unordered_map>

#include "util/regular_file.hpp"
#include "web/url.hpp"
#include "webrank/store/paths.hpp"
#include "webrank/util/error.hpp"

namespace webrank::search {
namespace {

// Positions between fields, so that no phrase spans two.
constexpr Xapian::termpos kFieldGap = 100;

// A new stemmer each time: copies of a Xapian::Stem share state and may not be used by two
// threads at once.
Xapian::Stem english() {
  return Xapian::Stem("english");
}

// The English stemmer with a memory of the words it stemmed: a page's words are mostly words it
// has seen, and stemming was half of the time of making a document. A direct-mapped table of
// kSlots words, a slot by the word's XXH3: a hit costs a hash and a compare, and allocates
// nothing (the stem is returned by value, within the short-string buffer for most words); a
// miss stems and takes the slot.
class CachedStem : public Xapian::StemImplementation {
 public:
  CachedStem() : slots_(kSlots) {}
  std::string operator()(const std::string& word) override {
    Slot& s = slots_[XXH3_64bits(word.data(), word.size()) & (kSlots - 1)];
    if (s.used && s.word == word) return s.stem;
    s.word = word;
    s.stem = stem_(word);
    s.used = true;
    return s.stem;
  }
  std::string get_description() const override { return "cached english"; }

 private:
  static constexpr std::size_t kSlots = 1 << 16;
  struct Slot {
    std::string word, stem;
    bool used = false;
  };
  Xapian::Stem stem_ = english();
  std::vector<Slot> slots_;
};

void configure(Xapian::TermGenerator& g, bool cached = false) {
  g.set_stemmer(cached ? Xapian::Stem(new CachedStem) : english());
  // Only stemmed terms, with positions: phrases match stemmed words ("create tables" finds
  // "created table"), which halves the index against keeping exact forms beside them.
  g.set_stemming_strategy(Xapian::TermGenerator::STEM_ALL_Z);
}

// Xapian reads text through an iterator: no copy of the page's text.
Xapian::Utf8Iterator utf8(std::string_view s) {
  return Xapian::Utf8Iterator(s.data(), s.size());
}

// URL words that say nothing about a page.
bool noise_url_word(std::string_view w) {
  static constexpr std::array<std::string_view, 11> kNoise = {
      "html", "htm", "php", "asp", "aspx", "jsp", "index", "www", "http", "https", "file"};
  return std::find(kNoise.begin(), kNoise.end(), w) != kNoise.end();
}

// The words of a URL worth indexing: its host's labels but the top-level domain, "www" and IP
// addresses; and its last two path segments, without the file name's extension. A crawl of
// a documentation set puts every page under the same long directory: those words are shared
// by all pages and would only add length.
std::string url_words(std::string_view label) {
  std::string words;
  const auto url = web::parse_url(label);
  if (!url) return std::string(label);  // a label that is not a URL: all of it
  const std::string& host = url->host;
  const bool ip = !host.empty() && std::all_of(host.begin(), host.end(), [](char c) {
    return (c >= '0' && c <= '9') || c == '.' || c == ':' || c == '[' || c == ']';
  });
  if (!ip) {
    const std::size_t tld = host.rfind('.');
    words += host.substr(0, tld == std::string::npos ? host.size() : tld);
  }
  std::string_view path = url->path;
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  std::size_t cut = path.rfind('/');
  if (cut != std::string_view::npos && cut > 0) cut = path.rfind('/', cut - 1);
  std::string tail(path.substr(cut == std::string_view::npos ? 0 : cut + 1));
  const std::size_t dot = tail.rfind('.');
  if (dot != std::string::npos && dot > tail.rfind('/') + 1) tail.resize(dot);
  words += ' ';
  words += tail;
  if (url->has_query) {
    words += ' ';
    words += url->query;
  }
  // Separators become spaces; noise words go.
  for (char& c : words) {
    if (c == '/' || c == '.' || c == '-' || c == '_' || c == '=' || c == '&' || c == '%') c = ' ';
  }
  std::istringstream in(words);
  std::string out, w;
  while (in >> w) {
    if (noise_url_word(Xapian::Unicode::tolower(w))) continue;
    out += w;
    out += ' ';
  }
  return out;
}

// The parts of a title between separators (" - ", " — ", " – ", " | ", ": ", " :: ", " » "):
// "json — JSON encoder and decoder — Python 3.11 documentation" is named json, and "SQLite Query
// Language: CREATE TABLE" CREATE TABLE.
std::vector<std::string_view> title_parts(std::string_view title) {
  static constexpr std::array<std::string_view, 7> kSeparators = {
      " - ", " \xE2\x80\x94 ", " \xE2\x80\x93 ", " | ", ": ", " :: ", " \xC2\xBB "};
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i < title.size(); ++i) {
    for (std::string_view sep : kSeparators) {
      if (title.substr(i, sep.size()) == sep) {
        parts.push_back(title.substr(start, i - start));
        start = i + sep.size();
        i = start - 1;
        break;
      }
    }
  }
  if (start > 0) parts.push_back(title.substr(start));
  return parts;
}

// The names in a URL's path: its last segment that names something (the file name without the
// extension, or the directory's name for an index page), alone and after its parent's name:
// library/json.html is json and library json, tutorial/classes.html classes and tutorial classes,
// tutorial/index.html tutorial. None for labels that are not URLs.
std::vector<std::string> url_names(std::string_view label) {
  std::vector<std::string> names;
  const auto url = web::parse_url(label);
  if (!url) return names;
  std::string_view path = url->path;
  while (!path.empty() && names.size() < 2) {
    while (!path.empty() && path.back() == '/') path.remove_suffix(1);
    const std::size_t cut = path.rfind('/');
    std::string_view segment = path.substr(cut == std::string_view::npos ? 0 : cut + 1);
    if (const std::size_t dot = segment.rfind('.'); dot != std::string_view::npos && dot > 0) {
      segment = segment.substr(0, dot);
    }
    path = cut == std::string_view::npos ? std::string_view() : path.substr(0, cut);
    const std::string name(segment);
    if (name.empty() || noise_url_word(Xapian::Unicode::tolower(name))) continue;
    names.push_back(names.empty() ? name : name + " " + names.back());
  }
  return names;
}

bool ascii_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// `text` with the marks that join two words into one compound ('/' and '-' between letters or
// digits, no space around them) left out: "PL/pgSQL" becomes "PLpgSQL", "uuid-ossp" "uuidossp".
std::string join_compounds(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if ((c == '/' || c == '-') && i > 0 && i + 1 < text.size() && ascii_alnum(text[i - 1]) &&
        ascii_alnum(text[i + 1])) {
      continue;
    }
    out += c;
  }
  return out;
}

// Whether every word of `text` (name_key()'s words) is a word of `title`.
bool words_within(std::string_view text, std::string_view title) {
  const std::vector<std::string> have = name_words(name_key(title));
  for (const std::string& w : name_words(name_key(text))) {
    if (!w.empty() && std::find(have.begin(), have.end(), w) == have.end()) return false;
  }
  return true;
}

bool ascii_digits(std::string_view w) {
  return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool roman_numeral(std::string_view w) {
  return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) {
    return std::string_view("IVXLC").find(c) != std::string_view::npos;
  });
}

}  // namespace

bool fetched(const Database& db, PageId u) {
  if (!db.has_page_data()) return true;
  const std::uint16_t status = db.status(u).value_or(0);
  return status >= 200 && status < 400;
}

TitleNumbering title_numbering(std::string_view title) {
  TitleNumbering none{-1, title};
  std::string_view t = title;
  while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
  // A word that names the level: "Part II.", "Chapter 8.", "Appendix F.", "Section 3.2."
  int base = -1;
  for (const auto& [word, level] : {std::pair<std::string_view, int>{"Part ", 0},
                                    {"Chapter ", 1},
                                    {"Appendix ", 1},
                                    {"Section ", 1}}) {
    if (t.size() > word.size() && Xapian::Unicode::tolower(std::string(t.substr(0, word.size()))) ==
                                      Xapian::Unicode::tolower(std::string(word))) {
      base = level;
      t.remove_prefix(word.size());
      break;
    }
  }
  const std::size_t space = t.find(' ');
  if (space == std::string_view::npos || space == 0) return none;
  std::string_view label = t.substr(0, space);
  std::string_view rest = t.substr(space + 1);
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  if (rest.empty()) return none;
  if (label.back() == '.') label.remove_suffix(1);
  // Its numbers: "8", "37.2", "F.49"; a letter or a Roman numeral only after a word or before a
  // number (a title "A. Foo" or "I. Foo" has none).
  int numbers = 0;
  bool digits = false;
  for (std::size_t i = 0; i <= label.size();) {
    const std::size_t dot = std::min(label.find('.', i), label.size());
    const std::string_view n = label.substr(i, dot - i);
    const bool letter = n.size() == 1 && n[0] >= 'A' && n[0] <= 'Z';
    if (ascii_digits(n)) {
      digits = true;
    } else if (!letter && !(base >= 0 && roman_numeral(n))) {
      return none;
    }
    ++numbers;
    i = dot + 1;
  }
  if (!digits && base < 0) return none;
  return {base == 0 ? 0 : (base > 0 ? std::max(base, numbers) : numbers), rest};
}

std::string_view page_description(std::string_view text, const std::vector<std::string>& names) {
  if (names.empty()) return {};
  // The words of the start of the text, as spans (the text's whitespace is collapsed).
  std::vector<std::string_view> words;
  for (std::size_t i = 0; i < text.size() && words.size() < kDescriptionStartWords;) {
    const std::size_t end = std::min(text.find(' ', i), text.size());
    if (end > i) words.push_back(text.substr(i, end - i));
    i = end + 1;
  }
  const auto separator = [](std::string_view w) {
    return w == "-" || w == "\xE2\x80\x94" || w == "\xE2\x80\x93";
  };
  for (std::size_t i = 1; i + 1 < words.size(); ++i) {
    if (!separator(words[i])) continue;
    bool named = false;
    for (std::size_t k = 1; k <= 4 && k <= i && !named; ++k) {
      const char* from = words[i - k].data();
      const std::string key =
          name_key(std::string_view(from, words[i - 1].data() + words[i - 1].size() - from));
      named = !key.empty() && std::find(names.begin(), names.end(), key) != names.end();
    }
    if (!named) continue;
    // The description: to the end of its sentence, before a heading in capitals ("SYNOPSIS"), at
    // most kDescriptionWords words; the text after the start's words too (a long description).
    const char* begin = words[i + 1].data();
    const char* end = begin;
    std::size_t at = static_cast<std::size_t>(begin - text.data());
    for (std::size_t n = 0; n < kDescriptionWords && at < text.size(); ++n) {
      const std::size_t stop = std::min(text.find(' ', at), text.size());
      const std::string_view w = text.substr(at, stop - at);
      const bool heading = n > 0 && w.size() >= 4 && std::all_of(w.begin(), w.end(), [](char c) {
                             return c >= 'A' && c <= 'Z';
                           });
      if (heading || separator(w)) break;
      end = w.data() + w.size();
      if (w.back() == '.' || w.back() == '!' || w.back() == '?') break;
      at = stop + 1;
    }
    return std::string_view(begin, static_cast<std::size_t>(end - begin));
  }
  return {};
}

std::string database_identity(const Database& db) {
  const auto file = manifest_path(db.path());
  const std::optional<std::string> read = read_regular_file(file);
  if (!read) fail(ErrorKind::kNotFound, file.string(), ": cannot be read");
  const std::string& bytes = *read;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(XXH3_64bits(bytes.data(), bytes.size())));
  return hex;
}

DocumentMaker::DocumentMaker(const FieldWeights& weights, const SiteChrome* chrome,
                             const SiteTitles* titles)
    : weights_(weights), chrome_(chrome), titles_(titles) {
  configure(terms_, /*cached=*/true);
}

bool DocumentMaker::make(const Database& db, PageId page, Xapian::Document& doc) {
  // A page whose fetch failed is known only from links, as one never fetched: its title and text
  // are the server's error page ("Error response", "404 Not Found").
  const bool was_fetched = fetched(db, page);
  const auto title = was_fetched ? db.title(page) : std::nullopt;
  const auto text = was_fetched ? db.text(page) : std::nullopt;
  const auto anchors = db.anchor_text(page);
  // A crawled page that was not fetched and that no anchor names is only a URL in a link.
  if (db.has_page_data() && !title && (!anchors || anchors->empty())) return false;
  ++serial_;  // a new page for page_words()
  doc.clear_terms();
  doc.clear_values();
  doc.set_data(std::string());
  own_.clear();
  terms_.set_document(doc);
  const FieldWeights& w = weights_;
  // Spelling data: the words of titles, own text and anchor texts, not of chrome or URLs.
  if (title && !title->empty()) {
    page_words(*title);
    terms_.index_text(utf8(*title), w.title);
    terms_.increase_termpos(kFieldGap);
    terms_.index_text(utf8(*title), 0, kTitlePrefix);
    terms_.increase_termpos(kFieldGap);
  }
  if (text && !text->empty()) {
    const std::string_view t = *text;
    const auto chrome_text = [&](std::string_view piece) {
      terms_.index_text(utf8(piece), w.chrome);
    };
    std::vector<TextSpan> own =
        chrome_ ? chrome_->own_text(site_of(db.label(page)), t, title.value_or(""))
                : std::vector<TextSpan>{};
    // The description, found at the start of the text, weighs as the title does (a manual page's
    // title is its name alone) unless the title already has its words. At the start of the text,
    // not of the own text: the phrases descriptions share ("from the working tree") make a
    // manual page's NAME line look like a header its site repeats.
    const std::string_view description = page_description(t, description_names(db, page));
    if (!description.empty() && !words_within(description, title.value_or(""))) {
      terms_.index_text(utf8(description), w.title);
      terms_.increase_termpos(kFieldGap);
      // Its words for the description's bonus, each with the number of its words (no weight).
      const std::vector<std::string> words = name_words(name_key(description));
      for (const std::string& word : words) {
        if (!word.empty()) {
          doc.add_term(kDescriptionPrefix + word + "/" + std::to_string(words.size()), 0);
        }
      }
    }
    if (own.empty() || (own.size() == 1 && own[0].begin == 0 && own[0].end == t.size())) {
      terms_.index_text(utf8(t), w.text);
      page_words(t);
    } else {
      // Own text and chrome in text order, so that positions (phrases) run on across them.
      std::size_t at = 0;
      for (const TextSpan& s : own) {
        if (s.begin > at) chrome_text(t.substr(at, s.begin - at));
        terms_.index_text(utf8(t.substr(s.begin, s.end - s.begin)), w.text);
        page_words(t.substr(s.begin, s.end - s.begin));
        at = s.end;
      }
      if (at < t.size()) chrome_text(t.substr(at));
      own_ = std::move(own);
    }
    terms_.increase_termpos(kFieldGap);
  }
  anchors_.clear();
  count_.clear();
  own_sections_.clear();
  own_count_.clear();
  if (anchors && !anchors->empty()) {
    // Distinct anchor texts in order of first appearance, each with its number of links: those
    // of links from other pages (anchors_, count_: they name the page), then those of the page's
    // links to itself (its table of contents: they name its sections, weighed as anchor texts,
    // no name of the page).
    const AnchorTexts split = split_anchor_text(*anchors);
    const auto distinct = [](std::string_view rest, std::vector<std::string_view>& order,
                             std::unordered_map<std::string_view, int>& count) {
      while (!rest.empty()) {
        const std::size_t nl = rest.find('\n');
        const std::string_view a = rest.substr(0, nl);
        rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
        if (a.empty()) continue;
        if (count[a]++ == 0) order.push_back(a);
      }
    };
    distinct(split.others, anchors_, count_);
    distinct(split.own_sections, own_sections_, own_count_);
    for (const auto& [texts, count] :
         {std::pair{&anchors_, &count_}, std::pair{&own_sections_, &own_count_}}) {
      for (std::string_view a : *texts) {
        const int n = (*count)[a];
        const int repeats = std::min(1 + static_cast<int>(std::log2(n)), kMaxAnchorRepeats);
        terms_.index_text(utf8(a), w.anchor * repeats);
        terms_.increase_termpos(kFieldGap);
        page_words(a);
      }
    }
  }
  const std::string_view label = db.label(page);
  const std::string url = url_words(label);
  terms_.index_text(url, w.url);
  // A URL's words are a page's vocabulary only where the database has nothing else (labels of
  // an edge list).
  if (!db.has_page_data()) page_words(url);
  const std::vector<std::string>* site_words =
      titles_ ? titles_->words_of(site_of(label)) : nullptr;
  // A title that a page higher in the site's numbering has too names that page, not this one.
  const bool shadowed = titles_ && page_bit(titles_->shadowed_bits, page);
  if (title && !title->empty() && !shadowed) {
    add_name(doc, *title, kNamePrefix, true, site_words);
    // Without its numbering: "Chapter 8. Data Types" is named "data types".
    const TitleNumbering numbered = title_numbering(*title);
    if (numbered.level >= 0) add_name(doc, numbered.rest, kNamePrefix, true, site_words);
    for (std::string_view part : title_parts(numbered.rest)) {
      add_name(doc, part, kNamePrefix, true, site_words);
    }
  }
  for (std::string_view a : anchors_) {
    if (count_[a] >= kMinAnchorNameLinks) add_name(doc, a, kAnchorNamePrefix, true);
  }
  // A text that links to the page from itself too names one of its sections.
  for (std::string_view a : own_sections_) {
    const auto others = count_.find(a);
    const int from_others = others == count_.end() ? 0 : others->second;
    if (from_others < kMinAnchorNameLinks && from_others + own_count_[a] >= kMinAnchorNameLinks) {
      add_name(doc, a, kSectionNamePrefix, true);
    }
  }
  // A URL names a page that was fetched (or a label, without page data); a link to a page not
  // fetched says nothing of what is there.
  if (!db.has_page_data() || title || (text && !text->empty())) {
    for (const std::string& n : url_names(label)) add_name(doc, n, kNamePrefix, false, site_words);
  }
  for (const std::string& t : host_terms(label)) doc.add_boolean_term(t);
  if (!was_fetched) doc.add_boolean_term(kUnfetchedTerm);
  return true;
}

std::vector<std::string> DocumentMaker::description_names(const Database& db, PageId page) const {
  std::vector<std::string> names;
  const auto add = [&](std::string_view text) {
    std::string key = name_key(text);
    if (!key.empty() && std::find(names.begin(), names.end(), key) == names.end()) {
      names.push_back(std::move(key));
    }
  };
  for (const std::string& n : url_names(db.label(page))) add(n);
  if (const auto title = db.title(page); title && !title->empty()) {
    const std::string_view rest = title_numbering(*title).rest;
    add(rest);
    const auto parts = title_parts(rest);
    if (!parts.empty()) add(parts.front());
  }
  return names;
}

void DocumentMaker::page_words(std::string_view text) {
  // Words as Xapian's tokenizer draws them (runs of word characters), lower-cased; each page
  // gives a word once, so a word's spelling frequency is the number of pages that have it.
  std::string word;
  const auto take = [&] {
    if (word.size() >= 2 && word.size() <= 64) {
      WordPages& w = vocabulary_[word];
      if (w.last != serial_) {
        w.last = serial_;
        ++w.pages;
      }
    }
    word.clear();
  };
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_') {
        word += static_cast<char>(c);
      } else if (c >= 'A' && c <= 'Z') {
        word += static_cast<char>(c | 0x20);
      } else {
        take();
      }
      ++i;
      continue;
    }
    Xapian::Utf8Iterator it(text.data() + i, text.size() - i);
    const unsigned ch = *it;
    ++it;
    const std::size_t len = static_cast<std::size_t>(it.raw() - (text.data() + i));
    if (Xapian::Unicode::is_wordchar(ch)) {
      Xapian::Unicode::append_utf8(word, Xapian::Unicode::tolower(ch));
    } else {
      take();
    }
    i += std::max<std::size_t>(1, len);
  }
  take();
}

void DocumentMaker::add_name(Xapian::Document& doc, std::string_view text, const char* prefix,
                             bool compounds, const std::vector<std::string>* site_words) {
  const std::string key = name_key(text);
  add_key(doc, key, prefix, site_words);
  if (!compounds) return;
  // The same name with its compounds written as one word: "PL/pgSQL" is also plpgsql.
  const std::string joined = join_compounds(text);
  if (joined.size() == text.size()) return;
  const std::string joined_key = name_key(joined);
  if (joined_key != key) add_key(doc, joined_key, prefix, site_words);
}

void DocumentMaker::add_key(Xapian::Document& doc, const std::string& key, const char* prefix,
                            const std::vector<std::string>* site_words) {
  if (key.empty() || key.size() >= 200) return;
  doc.add_term(prefix + key, 0);
  if (!site_words) return;
  std::vector<std::string> words = name_words(key);
  const auto site_word = [&](const std::string& w) {
    return std::find(site_words->begin(), site_words->end(), w) != site_words->end();
  };
  const auto kept = std::remove_if(words.begin(), words.end(), site_word);
  if (kept == words.begin() || kept == words.end()) return;
  words.erase(kept, words.end());
  doc.add_term(prefix + name_key(std::move(words)), 0);
}

namespace {

// English plurals folded to the singular, nothing else (Harman's S-stemmer, with "-es" after a
// sibilant): names are matched on their words with plurals folded ("tablespace" names
// "Tablespaces", "index types" names indexes-types), not on English stems, which join words a
// name keeps apart (Porter2 makes "generators" and "GENERATED" one word).
std::string s_stem(std::string w) {
  const auto ends = [&w](std::string_view s) { return w.size() > s.size() + 1 && w.ends_with(s); };
  if (ends("ies") && !ends("eies") && !ends("aies")) {
    w.resize(w.size() - 3);
    w += 'y';
  } else if (ends("sses") || ends("xes") || ends("zes") || ends("ches") || ends("shes")) {
    w.resize(w.size() - 2);
  } else if (ends("s") && !ends("us") && !ends("ss") && !ends("is")) {
    w.pop_back();
  }
  return w;
}

}  // namespace

SiteTitles SiteTitles::learn(const Database& db) {
  const PageId n = db.num_pages();
  // Per site: its titled pages, the pages having each part key (a page counts once a key) and
  // those of them whose title it ends, and the least numbering level of each title.
  struct Part {
    std::size_t pages = 0, last = 0;
  };
  struct Site {
    std::size_t titled = 0;
    std::unordered_map<std::string, Part> parts;
    std::unordered_map<std::string, int> level;  // title key -> least numbering level
  };
  std::unordered_map<std::string, Site> sites;
  struct Page {
    Site* site = nullptr;
    std::vector<std::string> keys;  // its title's part keys
    std::string title_key;          // its title's, numbering aside, when it is numbered
    int level = -1;
  };
  std::vector<Page> pages(n);
  std::unordered_map<std::string, bool> fetched_sites;
  for (PageId u = 0; u < n; ++u) {
    if (!fetched(db, u)) continue;
    const std::string site_name = site_of(db.label(u));
    if (db.has_page_data()) fetched_sites.emplace(site_name, true);
    const auto title = db.title(u);
    if (!title || title->empty()) continue;
    Site& site = sites[site_name];
    ++site.titled;
    Page& page = pages[u];
    const std::vector<std::string_view> parts = title_parts(*title);
    for (std::size_t i = 0; i < parts.size(); ++i) {
      std::string key = name_key(parts[i]);
      if (key.empty() || std::find(page.keys.begin(), page.keys.end(), key) != page.keys.end()) {
        continue;
      }
      Part& p = site.parts[key];
      ++p.pages;
      if (i + 1 == parts.size()) ++p.last;
      page.keys.push_back(std::move(key));
    }
    page.site = &site;
    const TitleNumbering numbered = title_numbering(*title);
    if (numbered.level >= 0) {
      const auto rest = title_parts(numbered.rest);
      page.title_key = name_key(rest.empty() ? numbered.rest : rest.front());
      page.level = numbered.level;
      if (!page.title_key.empty()) {
        const auto [it, added] = site.level.emplace(page.title_key, page.level);
        if (!added) it->second = std::min(it->second, page.level);
      }
    }
  }
  SiteTitles t;
  t.fetched_sites = fetched_sites.size();
  // Boilerplate: more than half of the titles have it, or it ends the titles that have it.
  const auto boilerplate = [](const Site& site, const Part& p) {
    return (site.titled >= kMinFamilyPages && 2 * p.pages > site.titled) ||
           (p.pages >= kMinFamilyPages && 2 * p.last > p.pages);
  };
  t.family_bits.assign((n + 7) / 8, '\0');
  t.shadowed_bits.assign((n + 7) / 8, '\0');
  for (PageId u = 0; u < n; ++u) {
    const Page& page = pages[u];
    if (!page.site) continue;
    for (const std::string& key : page.keys) {
      const Part& p = page.site->parts.at(key);
      if (p.pages >= kMinFamilyPages && 2 * p.pages <= page.site->titled &&
          !boilerplate(*page.site, p)) {
        set_page_bit(t.family_bits, u);
        break;
      }
    }
    if (!page.title_key.empty() && page.level > page.site->level.at(page.title_key)) {
      set_page_bit(t.shadowed_bits, u);
    }
  }
  for (const auto& [name, site] : sites) {
    for (const auto& [key, p] : site.parts) {
      if (!boilerplate(site, p)) continue;
      std::vector<std::string>& words = t.site_words[name];
      for (std::string& w : name_words(key)) {
        if (std::find(words.begin(), words.end(), w) == words.end()) words.push_back(std::move(w));
      }
    }
  }
  return t;
}

const std::vector<std::string>* SiteTitles::words_of(std::string_view site) const {
  const auto it = site_words.find(std::string(site));
  return it == site_words.end() ? nullptr : &it->second;
}

std::string name_key(std::vector<std::string> words) {
  // In any order: "classes tutorial" names tutorial/classes.html.
  std::sort(words.begin(), words.end());
  std::string key;
  for (const std::string& w : words) {
    if (!key.empty()) key += ' ';
    key += w;
  }
  return key;
}

std::vector<std::string> name_words(std::string_view key) {
  std::vector<std::string> words;
  for (std::size_t i = 0; i < key.size();) {
    const std::size_t space = std::min(key.find(' ', i), key.size());
    words.emplace_back(key.substr(i, space - i));
    i = space + 1;
  }
  return words;
}

std::string name_key(std::string_view text) {
  // Words as runs of Xapian's word characters, lower-cased: names and queries go through the
  // same function, so only its consistency matters, and it costs a tenth of a TermGenerator.
  std::vector<std::string> words;
  std::string word;
  const auto take = [&] {
    if (word.empty()) return true;
    const bool number = std::all_of(word.begin(), word.end(), [](char c) {
      return c >= '0' && c <= '9';  // section numbers ("9.16.", "3.11") name no topic
    });
    if (!number && !is_stop_word(word)) {
      if (words.size() == kMaxNameWords) return false;
      words.push_back(s_stem(std::move(word)));
    }
    word.clear();
    return true;
  };
  for (Xapian::Utf8Iterator it(text.data(), text.size()), end; it != end; ++it) {
    if (Xapian::Unicode::is_wordchar(*it)) {
      Xapian::Unicode::append_utf8(word, Xapian::Unicode::tolower(*it));
    } else if (!take()) {
      return "";
    }
  }
  if (!take()) return "";
  return name_key(std::move(words));
}

std::vector<std::string> text_terms(std::string_view text, std::string_view prefix) {
  Xapian::TermGenerator g;
  configure(g);
  Xapian::Document doc;
  g.set_document(doc);
  g.index_text(std::string(text), 1, std::string(prefix));
  std::vector<std::pair<Xapian::termpos, std::string>> at;
  for (auto t = doc.termlist_begin(); t != doc.termlist_end(); ++t) {
    for (auto p = t.positionlist_begin(); p != t.positionlist_end(); ++p) at.emplace_back(*p, *t);
  }
  std::sort(at.begin(), at.end());
  std::vector<std::string> terms;
  for (auto& [pos, term] : at) terms.push_back(std::move(term));
  return terms;
}

std::string stem_word(const std::string& lower_word) {
  thread_local Xapian::Stem stem = english();
  return stem(lower_word);
}

std::vector<std::string> host_terms(std::string_view url) {
  std::vector<std::string> terms;
  const auto u = web::parse_url(url);
  if (!u || u->host.empty()) return terms;
  const std::string p = kHostPrefix;
  if (!u->port.empty()) terms.push_back(p + u->host + ":" + u->port);
  std::string_view host = u->host;
  terms.push_back(p + std::string(host));
  // Parent domains with at least two labels: site:example.org finds www.example.org. Not for IP
  // addresses.
  const bool ip = std::all_of(host.begin(), host.end(),
                              [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
  while (!ip) {
    const std::size_t dot = host.find('.');
    if (dot == std::string_view::npos) break;
    host.remove_prefix(dot + 1);
    if (host.find('.') == std::string_view::npos) break;
    terms.push_back(p + std::string(host));
  }
  return terms;
}

std::string site_term(std::string_view host) {
  std::string h = Xapian::Unicode::tolower(std::string(host));
  if (h.find("://") == std::string::npos) h = "http://" + h;
  const auto u = web::parse_url(h);
  if (!u || u->host.empty()) return "";
  return std::string(kHostPrefix) + u->host + (u->port.empty() ? "" : ":" + u->port);
}

bool is_stop_word(std::string_view word) {
  // The short English list of Xapian's omega and of most engines: function words only (no
  // "not", "all", "any", "by"... which are words of query languages a documentation set
  // documents).
  static constexpr std::array<std::string_view, 52> kStop = {
      "a",      "about", "an",   "and",  "are",  "as",    "at",    "be",    "been",  "but",  "can",
      "could",  "did",   "do",   "does", "for",  "from",  "had",   "has",   "have",  "how",  "i",
      "if",     "in",    "is",   "it",   "its",  "me",    "my",    "of",    "on",    "or",   "our",
      "should", "so",    "than", "that", "the",  "their", "then",  "there", "these", "this", "to",
      "was",    "we",    "were", "what", "when", "where", "which", "with"};
  return std::find(kStop.begin(), kStop.end(), word) != kStop.end();
}

}  // namespace webrank::search
