// The presentation scales and page views (webrank/rank/presentation.hpp, docs/ranking.md).
#include "webrank/rank/presentation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "webrank/store/rank_store.hpp"

namespace webrank {

RankScale make_rank_scale(std::span<const double> ranks) {
  RankScale s;
  s.min_rank = INFINITY;
  for (double r : ranks) {
    if (r > 0) {
      s.max_rank = std::max(s.max_rank, r);
      s.min_rank = std::min(s.min_rank, r);
    }
  }
  if (!std::isfinite(s.min_rank)) s.min_rank = 0;
  s.floor = std::min(s.min_rank,
                     s.max_rank / static_cast<double>(std::max<std::size_t>(ranks.size(), 1)));
  return s;
}

double RankScale::bar_percent(double rank) const {
  if (!(rank > 0) || max_rank <= 0) return 0;
  if (max_rank == floor) return 100;
  return std::clamp(100 * std::log(rank / floor) / std::log(max_rank / floor), 0.0, 100.0);
}

int RankScale::toolbar(double rank) const {
  if (!(rank > 0) || max_rank <= 0) return 0;
  if (max_rank == floor) return 10;
  const double x = 11 * std::log(rank / floor) / std::log(max_rank / floor);
  return std::clamp(static_cast<int>(std::floor(x)), 0, 10);
}

int percentile_decimals(std::uint64_t pages) {
  // 100/N must show in the last decimal: 10^-d <= 100/N, d = ceil(log10(N)) - 2.
  int digits = 0;
  for (std::uint64_t p = pages > 0 ? pages - 1 : 0; p > 0; p /= 10) ++digits;
  return std::max(2, digits - 2);
}

std::string format_percentile(double percentile, std::uint64_t pages) {
  char text[48];
  std::snprintf(text, sizeof text, "%.*f", percentile_decimals(pages), percentile);
  return text;
}

std::vector<TopEntry> top_pages(std::span<const double> ranks, std::size_t k) {
  const std::size_t n = ranks.size();
  k = std::min(k, n);
  std::vector<PageId> ids(n);
  for (std::size_t i = 0; i < n; ++i) ids[i] = static_cast<PageId>(i);
  auto higher = [&](PageId a, PageId b) {
    return ranks[a] > ranks[b] || (ranks[a] == ranks[b] && a < b);
  };
  std::partial_sort(ids.begin(), ids.begin() + k, ids.end(), higher);
  std::vector<TopEntry> top;
  // Pages ranked strictly higher than a top-k page are all within the top k, so its percentile
  // 100·|{v : R(v) <= R(u)}|/N follows from its position among the ties.
  std::size_t greater = 0;
  for (std::size_t i = 0; i < k; ++i) {
    if (i > 0 && ranks[ids[i]] < ranks[ids[i - 1]]) greater = i;
    top.push_back(
        {ids[i], ranks[ids[i]], 100.0 * static_cast<double>(n - greater) / static_cast<double>(n)});
  }
  return top;
}

PagePlace place_of(std::span<const double> ranks, PageId page) {
  const double r = ranks[page];
  std::uint64_t higher = 0, at_or_below = 0;
  for (double x : ranks) {
    higher += x > r;
    at_or_below += x <= r;
  }
  return {higher + 1, 100.0 * static_cast<double>(at_or_below) / static_cast<double>(ranks.size())};
}

namespace {

RankedPage ranked_page(const Database& db, const RankScale& scale, PageId page, double rank,
                       double percentile) {
  RankedPage p;
  p.page = page;
  p.label = db.label(page);
  if (const auto title = db.title(page)) p.title = std::string(*title);
  p.rank = rank;
  p.percentile = percentile;
  p.bar = scale.bar_percent(rank);
  p.toolbar = scale.toolbar(rank);
  return p;
}

}  // namespace

std::vector<double> percentiles(std::span<const double> values) {
  const std::size_t n = values.size();
  std::vector<PageId> ids(n);
  for (std::size_t i = 0; i < n; ++i) ids[i] = static_cast<PageId>(i);
  std::sort(ids.begin(), ids.end(), [&](PageId a, PageId b) { return values[a] < values[b]; });
  std::vector<double> p(n);
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j < n && values[ids[j]] == values[ids[i]]) ++j;  // ties: [i, j)
    for (std::size_t t = i; t < j; ++t) {
      p[ids[t]] = 100.0 * static_cast<double>(j) / static_cast<double>(n);
    }
    i = j;
  }
  return p;
}

std::vector<RankedPage> top_ranked_pages(const Database& db, std::span<const double> ranks,
                                         std::size_t k) {
  const RankScale scale = make_rank_scale(ranks);
  std::vector<RankedPage> pages;
  for (const TopEntry& t : top_pages(ranks, k)) {
    pages.push_back(ranked_page(db, scale, t.page, t.rank, t.percentile));
  }
  return pages;
}

PageReport describe_page(const Database& db, PageId page) {
  const GraphView& g = db.graph();
  PageReport r;
  r.page = page;
  r.label = db.label(page);
  if (const auto t = db.title(page)) r.title = std::string(*t);
  if (const auto f = db.final_url(page)) r.final_url = std::string(*f);
  r.status = db.status(page);
  r.pages = db.num_pages();
  r.out_links = g.out.degree(page);
  r.in_links = g.in.degree(page);
  r.nofollow_links = db.nofollow_links(page).size();
  const auto out = g.out.neighbors(page);
  r.self_link = std::binary_search(out.begin(), out.end(), page);
  for (const std::string& name : db.rank_names()) {
    PageVectorPlace v;
    v.name = name;
    try {
      const StoredRanks s = load_ranks(db, name);
      const RankScale scale = make_rank_scale(s.values);
      const PagePlace place = place_of(s.values, page);
      v.rank = s.values[page];
      v.percentile = place.percentile;
      v.position = place.position;
      v.bar = scale.bar_percent(v.rank);
      v.toolbar = scale.toolbar(v.rank);
      v.converged = s.record.converged;
      if (s.record.stale) v.stale = s.record.stale->reason;
    } catch (const std::exception& e) {
      v.error = e.what();
    }
    r.ranks.push_back(std::move(v));
  }
  return r;
}

// file:// labels have no host: what they share is the deepest folder all of them are in.
static std::string common_folder(std::span<const std::string> labels) {
  std::string_view prefix = labels.front();
  for (const std::string& label : labels) {
    if (!label.starts_with("file:///")) return "";
    std::size_t n = 0;
    while (n < prefix.size() && n < label.size() && prefix[n] == label[n]) ++n;
    prefix = prefix.substr(0, n);
  }
  const std::size_t slash = prefix.rfind('/');
  return slash == std::string_view::npos || slash < 8 ? "" : std::string(prefix.substr(0, slash));
}

std::string common_origin(std::span<const std::string> labels) {
  if (!labels.empty() && labels.front().starts_with("file:///")) return common_folder(labels);
  std::string origin;
  for (const std::string& label : labels) {
    const std::size_t scheme = label.find("://");
    if (scheme == std::string::npos || scheme == 0) return "";
    const std::size_t path = label.find('/', scheme + 3);
    const std::string o = label.substr(0, path);
    if (o.size() == scheme + 3) return "";  // no host
    if (origin.empty()) {
      origin = o;
    } else if (o != origin) {
      return "";
    }
  }
  return origin;
}

std::size_t display_columns(std::string_view text) {
  std::size_t columns = 0;
  for (unsigned char c : text) columns += (c & 0xC0) != 0x80;
  return columns;
}

std::string elide_middle(std::string_view text, std::size_t columns) {
  if (display_columns(text) <= columns) return std::string(text);
  if (columns <= 3) return std::string(columns, '.');
  // Byte offset where the first `n` code points end.
  auto prefix_bytes = [&](std::size_t n) {
    std::size_t seen = 0, i = 0;
    for (; i < text.size(); ++i) {
      if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 && seen++ == n) break;
    }
    return i;
  };
  const std::size_t keep = columns - 3, head = (keep + 1) / 2, tail = keep - head;
  const std::size_t total = display_columns(text);
  return std::string(text.substr(0, prefix_bytes(head))) + "..." +
         std::string(text.substr(prefix_bytes(total - tail)));
}

// Every page's percentile is computed once: the search matcher asks for it for every document
// it weighs (a binary search per document was most of a search's time on a large web).
PresentedRanks::PresentedRanks(std::vector<double> ranks, std::string name)
    : name_(std::move(name)), values_(std::move(ranks)), percentiles_(percentiles(values_)) {
  scale_ = make_rank_scale(values_);
}

PresentedRanks::PresentedRanks(StoredRanks stored)
    : PresentedRanks(std::move(stored.values), stored.name) {
  record_ = std::move(stored.record);
}

double PresentedRanks::percentile(PageId page) const {
  return percentiles_[page];
}

RankedPage PresentedRanks::page(const Database& db, PageId page) const {
  return ranked_page(db, scale_, page, values_[page], percentile(page));
}

}  // namespace webrank
