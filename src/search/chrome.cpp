#include "search/chrome.hpp"

#include <omp.h>
#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "util/parallel.hpp"
#include "web/url.hpp"
#include "webrank/util/error.hpp"

namespace webrank::search {
namespace {

struct Word {
  std::uint32_t begin, end;  // bytes of the text
};

// The words of a whitespace-collapsed text: runs of bytes other than ' '.
void split_words(std::string_view text, std::vector<Word>& words) {
  words.clear();
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (i < n) {
    while (i < n && text[i] == ' ') ++i;
    if (i >= n) break;
    const void* space = std::memchr(text.data() + i, ' ', n - i);
    const std::size_t end = space ? static_cast<const char*>(space) - text.data() : n;
    words.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(end)});
    i = end;
  }
}

std::uint64_t window_hash(std::string_view text, const std::vector<Word>& words, std::size_t i) {
  const std::size_t b = words[i].begin, e = words[i + kChromeWindow - 1].end;
  return XXH3_64bits(text.data() + b, e - b);
}

// Calls f(i) for each window start i looked at: the windows within the first and within the
// last kChromeEdgeWords words.
template <typename F>
void for_edge_windows(std::size_t n, F&& f) {
  if (n < kChromeWindow) return;
  const std::size_t last = n - kChromeWindow;  // the last window start
  if (n <= 2 * kChromeEdgeWords) {
    for (std::size_t i = 0; i <= last; ++i) f(i);
    return;
  }
  for (std::size_t i = 0; i + kChromeWindow <= kChromeEdgeWords; ++i) f(i);
  for (std::size_t i = n - kChromeEdgeWords; i <= last; ++i) f(i);
}

// The distinct window hashes of one page, appended to `out`.
void page_windows(std::string_view text, std::vector<Word>& words,
                  std::vector<std::uint64_t>& scratch, std::vector<std::uint64_t>& out) {
  split_words(text, words);
  scratch.clear();
  for_edge_windows(words.size(),
                   [&](std::size_t i) { scratch.push_back(window_hash(text, words, i)); });
  std::sort(scratch.begin(), scratch.end());
  scratch.erase(std::unique(scratch.begin(), scratch.end()), scratch.end());
  out.insert(out.end(), scratch.begin(), scratch.end());
}

// The hashes held by at least `min_pages` pages, from every page's distinct hashes.
std::vector<std::uint64_t> common_hashes(std::vector<std::uint64_t>& all, std::size_t min_pages) {
  std::sort(all.begin(), all.end());
  std::vector<std::uint64_t> common;
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i + 1;
    while (j < all.size() && all[j] == all[i]) ++j;
    if (j - i >= min_pages) common.push_back(all[i]);
    i = j;
  }
  return common;
}

void put_varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7F) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}

bool get_varint(std::string_view& in, std::uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64 && !in.empty(); shift += 7) {
    const auto b = static_cast<unsigned char>(in.front());
    in.remove_prefix(1);
    v |= static_cast<std::uint64_t>(b & 0x7F) << shift;
    if ((b & 0x80) == 0) return true;
  }
  return false;
}

bool has_alnum(std::string_view text, Word w) {
  for (std::uint32_t i = w.begin; i < w.end; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80) {
      return true;
    }
  }
  return false;
}

// Where the page's own text starts after a head of chrome ending at word `head`: past the
// first words of the page's title when they are followed by the same words again, with at most
// one word between (a breadcrumb's last item, a bar, then the page's own heading).
std::size_t past_title_echo(std::string_view text, const std::vector<Word>& words, std::size_t head,
                            std::string_view title) {
  std::vector<std::string_view> name;
  for (std::size_t i = 0; i < title.size();) {
    while (i < title.size() && title[i] == ' ') ++i;
    std::size_t e = i;
    while (e < title.size() && title[e] != ' ') ++e;
    if (e > i) name.push_back(title.substr(i, e - i));
    i = e;
  }
  const auto word = [&](std::size_t i) {
    return text.substr(words[i].begin, words[i].end - words[i].begin);
  };
  const auto same = [&](std::size_t at, std::size_t m) {
    if (at + m > words.size()) return false;
    for (std::size_t k = 0; k < m; ++k) {
      if (word(at + k) != name[k]) return false;
    }
    return true;
  };
  for (std::size_t m = name.size(); m > 0; --m) {
    if (!same(head, m)) continue;
    for (std::size_t between = 0; between <= 1; ++between) {
      if (same(head + m + between, m)) return head + m + between;
    }
  }
  return head;
}

}  // namespace

std::size_t chrome_min_pages(std::size_t pages) {
  return pages >= 10 ? 5 : std::max<std::size_t>(2, (pages + 1) / 2);
}

std::string site_of(std::string_view label) {
  const auto u = web::parse_url(label);
  if (!u || u->host.empty()) return "";
  return u->port.empty() ? u->host : u->host + ":" + u->port;
}

SiteChrome SiteChrome::learn(const Database& db, int threads) {
  SiteChrome c;
  if (!db.has_page_data()) return c;
  std::unordered_map<std::string, std::vector<PageId>> sites;
  for (PageId u = 0; u < db.num_pages(); ++u) {
    const auto t = db.text(u);
    if (!t || t->empty()) continue;
    sites[site_of(db.label(u))].push_back(u);
  }
  std::vector<std::pair<const std::string*, std::vector<PageId>*>> list;
  for (auto& [site, pages] : sites) list.emplace_back(&site, &pages);
  std::vector<std::vector<std::uint64_t>> common(list.size());
  const int n = static_cast<int>(list.size());
  const int t = std::max(1, std::min(threads > 0 ? threads : omp_get_max_threads(), n));
  ThreadCount count(t);
#pragma omp parallel num_threads(t)
  {
    std::vector<Word> words;
    std::vector<std::uint64_t> scratch, all;
#pragma omp for schedule(dynamic, 1)
    for (int s = 0; s < n; ++s) {
      const std::vector<PageId>& pages = *list[s].second;
      const std::size_t sample = std::min(pages.size(), kChromeSamplePages);
      if (sample < 2) continue;
      all.clear();
      for (std::size_t k = 0; k < sample; ++k) {
        const PageId u = pages[k * pages.size() / sample];  // evenly spread over the site
        page_windows(*db.text(u), words, scratch, all);
      }
      common[s] = common_hashes(all, chrome_min_pages(sample));
    }
  }
  for (int s = 0; s < n; ++s) {
    if (!common[s].empty()) c.common_.emplace(*list[s].first, std::move(common[s]));
  }
  return c;
}

SiteChrome SiteChrome::learn(const std::vector<std::pair<std::string, std::string_view>>& pages) {
  SiteChrome c;
  std::unordered_map<std::string, std::vector<std::string_view>> sites;
  for (const auto& [site, text] : pages) {
    if (!text.empty()) sites[site].push_back(text);
  }
  std::vector<Word> words;
  std::vector<std::uint64_t> scratch, all;
  for (auto& [site, texts] : sites) {
    const std::size_t sample = std::min(texts.size(), kChromeSamplePages);
    if (sample < 2) continue;
    all.clear();
    for (std::size_t k = 0; k < sample; ++k) {
      page_windows(texts[k * texts.size() / sample], words, scratch, all);
    }
    auto common = common_hashes(all, chrome_min_pages(sample));
    if (!common.empty()) c.common_.emplace(site, std::move(common));
  }
  return c;
}

std::size_t SiteChrome::common_windows() const {
  std::size_t n = 0;
  for (const auto& [site, hashes] : common_) n += hashes.size();
  return n;
}

std::vector<TextSpan> SiteChrome::own_text(std::string_view site, std::string_view text,
                                           std::string_view title) const {
  const std::vector<TextSpan> whole{{0, text.size()}};
  const auto it = common_.find(std::string(site));
  if (it == common_.end() || text.empty()) return whole;
  const std::vector<std::uint64_t>& common = it->second;
  thread_local std::vector<Word> words;
  thread_local std::vector<char> covered;
  split_words(text, words);
  const std::size_t n = words.size();
  covered.assign(n, 0);
  bool any = false;
  for_edge_windows(n, [&](std::size_t i) {
    if (std::binary_search(common.begin(), common.end(), window_hash(text, words, i))) {
      std::fill(covered.begin() + i, covered.begin() + i + kChromeWindow, 1);
      any = true;
    }
  });
  if (!any) return whole;
  // Runs of covered words [b, e), in order.
  std::vector<std::pair<std::size_t, std::size_t>> runs;
  for (std::size_t i = 0; i < n;) {
    if (!covered[i]) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < n && covered[j]) ++j;
    runs.emplace_back(i, j);
    i = j;
  }
  std::vector<char> chrome(n, 0);
  std::size_t head = 0;
  for (const auto& [b, e] : runs) {
    if (b - head > kChromeGap) break;
    head = e;
  }
  std::fill(chrome.begin(), chrome.begin() + head, 1);
  std::size_t tail = n;
  for (auto r = runs.rbegin(); r != runs.rend(); ++r) {
    if (tail - r->second > kChromeGap || r->second > tail) break;
    tail = r->first;
  }
  std::fill(chrome.begin() + tail, chrome.end(), 1);
  for (const auto& [b, e] : runs) {
    if (e - b >= kChromeLongRun) std::fill(chrome.begin() + b, chrome.begin() + e, 1);
  }
  // Where chrome ends and own text starts, the page's title echoed (a breadcrumb's last item,
  // then the page's heading) is chrome too.
  // So are the marks (no letter or digit) just after it: a bar's last separator.
  for (std::size_t i = 1; i < n; ++i) {
    if (chrome[i - 1] && !chrome[i]) {
      std::size_t at = i;
      while (at < n && !chrome[at] && !has_alnum(text, words[at])) ++at;
      const std::size_t past = past_title_echo(text, words, at, title);
      std::fill(chrome.begin() + i, chrome.begin() + past, 1);
    }
  }
  // A page that is all chrome (a copy of another page) keeps its text: a copy is not chrome.
  if (std::all_of(chrome.begin(), chrome.end(), [](char c) { return c != 0; })) return whole;
  std::vector<TextSpan> own;
  for (std::size_t i = 0; i < n;) {
    if (chrome[i]) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < n && !chrome[j]) ++j;
    own.push_back({words[i].begin, words[j - 1].end});
    i = j;
  }
  return own;
}

std::string encode_spans(const std::vector<TextSpan>& spans) {
  std::string out;
  std::size_t at = 0;
  for (const TextSpan& s : spans) {
    put_varint(out, s.begin - at);
    put_varint(out, s.end - s.begin);
    at = s.end;
  }
  return out;
}

std::vector<TextSpan> decode_spans(std::string_view data) {
  std::vector<TextSpan> spans;
  std::size_t at = 0;
  std::uint64_t gap = 0, length = 0;
  while (!data.empty() && get_varint(data, gap) && get_varint(data, length)) {
    spans.push_back({at + gap, at + gap + length});
    at = spans.back().end;
  }
  return spans;
}

void OwnTextTable::append(std::string& table, PageId page, const std::vector<TextSpan>& spans) {
  const std::string data = encode_spans(spans);
  put_varint(table, page);
  put_varint(table, data.size());
  table += data;
}

OwnTextTable::OwnTextTable(std::string table) : table_(std::move(table)) {
  std::string_view rest = table_;
  std::uint64_t page = 0, length = 0;
  while (!rest.empty()) {
    const std::size_t at = table_.size() - rest.size();
    if (!get_varint(rest, page) || !get_varint(rest, length) || length > rest.size() ||
        page > std::numeric_limits<PageId>::max() || (!pages_.empty() && page <= pages_.back())) {
      throw std::invalid_argument(cat("own-text table: malformed entry at byte ", at));
    }
    pages_.push_back(static_cast<PageId>(page));
    data_.push_back({table_.size() - rest.size(), length});
    rest.remove_prefix(length);
  }
}

std::string OwnTextTable::merge(const std::vector<std::string>& tables) {
  std::vector<std::pair<PageId, std::string_view>> entries;  // a page and its whole entry
  for (const std::string& table : tables) {
    std::string_view rest = table;
    std::uint64_t page = 0, length = 0;
    while (!rest.empty()) {
      const std::size_t at = table.size() - rest.size();
      if (!get_varint(rest, page) || !get_varint(rest, length) || length > rest.size() ||
          page > std::numeric_limits<PageId>::max()) {
        throw std::invalid_argument(cat("own-text table: malformed entry at byte ", at));
      }
      rest.remove_prefix(length);
      entries.emplace_back(static_cast<PageId>(page),
                           std::string_view(table).substr(at, table.size() - rest.size() - at));
    }
  }
  std::sort(entries.begin(), entries.end());
  std::string out;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (i > 0 && entries[i].first == entries[i - 1].first) {
      throw std::invalid_argument(cat("own-text table: page ", entries[i].first, " twice"));
    }
    out += entries[i].second;
  }
  return out;
}

std::vector<TextSpan> OwnTextTable::spans(PageId page) const {
  const auto it = std::lower_bound(pages_.begin(), pages_.end(), page);
  if (it == pages_.end() || *it != page) return {};
  const auto [at, length] = data_[static_cast<std::size_t>(it - pages_.begin())];
  return decode_spans(std::string_view(table_).substr(at, length));
}

}  // namespace webrank::search
