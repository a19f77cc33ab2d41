#include "writer/database_update.hpp"

#include <algorithm>
#include <span>
#include <string_view>
#include <unordered_map>

#include "store/db_layout.hpp"
#include "store/label_table.hpp"
#include "store/manifest_section.hpp"
#include "store/section_file.hpp"
#include "util/mapped_file.hpp"
#include "util/parallel.hpp"
#include "webrank/util/error.hpp"
#include "writer/page_data_builder.hpp"

namespace webrank {
namespace fs = std::filesystem;
namespace {

// Appends to a section through a buffer.
template <typename T>
class Appender {
 public:
  Appender(const fs::path& dir, const char* name) : file_(name), w_(dir / name, name, sizeof(T)) {
    buffer_.reserve(kBuffer);
  }
  void push(T value) {
    buffer_.push_back(value);
    if (buffer_.size() == kBuffer) flush();
  }
  void append(std::span<const T> values) {
    if (buffer_.size() + values.size() <= kBuffer) {
      buffer_.insert(buffer_.end(), values.begin(), values.end());
      return;
    }
    flush();
    w_.append(values);
    count_ += values.size();
  }
  // Writes the rest and lists the section in `manifest`.
  void finish(nlohmann::json& manifest) {
    flush();
    list_section(manifest, file_, file_, count_, sizeof(T), w_.finish());
  }

 private:
  static constexpr std::size_t kBuffer = std::size_t{1} << 16;
  void flush() {
    w_.append(std::span<const T>(buffer_));
    count_ += buffer_.size();
    buffer_.clear();
  }
  const char* file_;
  SectionWriter w_;
  std::vector<T> buffer_;
  std::uint64_t count_ = 0;
};

// A link as one direction lists it: under `key` (its source forward, its target backward).
struct Entry {
  PageId key, other;
  double weight;
};

// The edit of one direction's lists, in new page ids: additions sorted by (key, other) with
// identical links merged (weights added in the edit's order), removals sorted.
struct DirectionEdit {
  std::vector<Entry> added;
  std::vector<std::pair<PageId, PageId>> removed;
};

DirectionEdit orient(const std::vector<Entry>& forward_added,
                     const std::vector<std::pair<PageId, PageId>>& forward_removed, bool backward) {
  DirectionEdit e;
  e.added = forward_added;
  e.removed = forward_removed;
  if (backward) {
    for (Entry& a : e.added) std::swap(a.key, a.other);
    for (auto& r : e.removed) std::swap(r.first, r.second);
  }
  std::stable_sort(e.added.begin(), e.added.end(), [](const Entry& a, const Entry& b) {
    return a.key != b.key ? a.key < b.key : a.other < b.other;
  });
  std::size_t out = 0;
  for (std::size_t i = 0; i < e.added.size(); ++i) {
    if (out > 0 && e.added[out - 1].key == e.added[i].key &&
        e.added[out - 1].other == e.added[i].other) {
      e.added[out - 1].weight += e.added[i].weight;
    } else {
      e.added[out++] = e.added[i];
    }
  }
  e.added.resize(out);
  std::sort(e.removed.begin(), e.removed.end());
  e.removed.erase(std::unique(e.removed.begin(), e.removed.end()), e.removed.end());
  return e;
}

struct DirectionCounts {
  std::uint64_t links = 0;
  std::uint64_t kept = 0;  // links of the old web still there
  // Over the pages whose lists were merged (not copied whole) and the removed pages: their
  // self-links and dangling pages before and after, so that the web's totals follow from the
  // old ones without reading the lists copied whole.
  std::int64_t self_links_change = 0, dangling_change = 0;
};

// Whether old page u links to itself and whether it is dangling (out-strength 0).
std::pair<bool, bool> self_and_dangling(const Adjacency& out, bool weighted, PageId u) {
  const auto targets = out.neighbors(u);
  const bool self = std::binary_search(targets.begin(), targets.end(), u);
  double strength = static_cast<double>(targets.size());
  if (weighted) {
    strength = 0;
    for (double w : out.neighbor_weights(u)) strength += w;
  }
  return {self, strength == 0};
}

// Writes one direction's offsets, ids and weights: for each new page, its old list (ids
// renumbered, removed pages and links dropped) merged with its additions. The old arrays are read
// once, in order, and released as they go. When no page is removed, ids do not change, and the
// lists of the pages between two edited ones are copied whole, as they are on disk.
// `forward`: the counts of self-links and dangling pages are kept (of the forward lists).
DirectionCounts merge_direction(const Adjacency& old, bool weighted, bool forward, PageId kept,
                                PageId total, const std::vector<PageId>& old_of,
                                const std::vector<PageId>& new_id, const DirectionEdit& e,
                                const fs::path& dir, const char* offsets_name, const char* ids_name,
                                const char* weights_name, nlohmann::json& manifest) {
  Appender<std::uint64_t> offsets(dir, offsets_name);
  Appender<PageId> ids(dir, ids_name);
  std::unique_ptr<Appender<double>> weights;
  if (weighted) weights = std::make_unique<Appender<double>>(dir, weights_name);
  const bool renumbered = kept != new_id.size();
  DirectionCounts c;
  offsets.push(0);
  std::size_t ai = 0, ri = 0;
  std::uint64_t released = 0;
  auto release_to = [&](std::uint64_t end) {
    if (end - released < (std::uint64_t{1} << 22)) return;
    release_pages(old.ids.data() + released, 4 * (end - released));
    if (weighted) release_pages(old.weights.data() + released, 8 * (end - released));
    released = end;
  };
  for (PageId x = 0; x < total;) {
    const PageId next_edit = std::min(ai < e.added.size() ? e.added[ai].key : total,
                                      ri < e.removed.size() ? e.removed[ri].first : total);
    if (!renumbered && x < next_edit && x < kept) {
      // Pages x .. end-1 are untouched: their lists as they are.
      const PageId end = std::min(next_edit, kept);
      const std::uint64_t first = old.offsets[x], last = old.offsets[end];
      ids.append(old.ids.subspan(first, last - first));
      if (weighted) weights->append(old.weights.subspan(first, last - first));
      for (PageId u = x + 1; u <= end; ++u) offsets.push(c.links + (old.offsets[u] - first));
      c.links += last - first;
      c.kept += last - first;
      release_to(last);
      x = end;
      continue;
    }
    double strength = 0;
    bool self = false;
    auto emit = [&](PageId y, double w) {
      ids.push(y);
      if (weighted) weights->push(w);
      ++c.links;
      strength += weighted ? w : 1.0;
      self = self || y == x;
    };
    std::size_t aj = ai, rj = ri;
    while (aj < e.added.size() && e.added[aj].key == x) ++aj;
    while (rj < e.removed.size() && e.removed[rj].first == x) ++rj;
    if (x < kept) {
      const PageId u = old_of[x];
      if (forward) {
        const auto [was_self, was_dangling] = self_and_dangling(old, weighted, u);
        c.self_links_change -= was_self;
        c.dangling_change -= was_dangling;
      }
      for (std::uint64_t k = old.offsets[u]; k < old.offsets[u + 1]; ++k) {
        const PageId y = new_id[old.ids[k]];
        if (y == kNoPage) continue;  // a removed page
        for (; ai < aj && e.added[ai].other < y; ++ai) emit(e.added[ai].other, e.added[ai].weight);
        while (ri < rj && e.removed[ri].second < y) ++ri;
        const bool removed = ri < rj && e.removed[ri].second == y;
        const bool added = ai < aj && e.added[ai].other == y;
        if (removed) {
          if (added) emit(y, e.added[ai++].weight);  // removed, then added again
          continue;
        }
        const double w = weighted ? old.weights[k] : 1.0;
        emit(y, added ? w + e.added[ai++].weight : w);
        ++c.kept;
      }
      release_to(old.offsets[u + 1]);
    }
    for (; ai < aj; ++ai) emit(e.added[ai].other, e.added[ai].weight);
    ai = aj;
    ri = rj;
    c.self_links_change += self;
    c.dangling_change += strength == 0;
    offsets.push(c.links);
    ++x;
  }
  if (forward) {
    for (PageId u = 0; u < new_id.size(); ++u) {
      if (new_id[u] != kNoPage) continue;
      const auto [was_self, was_dangling] = self_and_dangling(old, weighted, u);
      c.self_links_change -= was_self;
      c.dangling_change -= was_dangling;
    }
  }
  offsets.finish(manifest);
  ids.finish(manifest);
  if (weighted) weights->finish(manifest);
  return c;
}

}  // namespace

UpdateCounts write_updated_web(const Database& old, const WebEdit& edit, const fs::path& dir,
                               nlohmann::json& manifest, const UpdateStage& progress) {
  const GraphView& g = old.graph();
  const PageId n = g.num_pages;
  const bool weighted = g.weighted();
  UpdateCounts counts;

  // Page ids: kept pages in their order, then the new ones.
  counts.new_id.assign(n, 0);
  for (PageId u : edit.removed_pages) {
    if (u >= n) fail(ErrorKind::kInternal, "update: page id ", u, " out of range");
    counts.new_id[u] = kNoPage;
  }
  std::vector<PageId> old_of;
  old_of.reserve(n);
  for (PageId u = 0; u < n; ++u) {
    if (counts.new_id[u] == kNoPage) continue;
    counts.new_id[u] = static_cast<PageId>(old_of.size());
    old_of.push_back(u);
  }
  const PageId kept = static_cast<PageId>(old_of.size());
  const std::uint64_t total64 = std::uint64_t{kept} + edit.new_pages.size();
  if (total64 == 0) fail(ErrorKind::kInvalidArgument, "the update removes every page of the web");
  if (total64 >= kNoPage)
    fail(ErrorKind::kInvalidArgument, "the update makes ", total64, " pages, more than 2^32 - 2");
  const PageId total = static_cast<PageId>(total64);
  counts.pages = total;
  counts.pages_added = static_cast<PageId>(edit.new_pages.size());
  counts.pages_removed = n - kept;
  // An edit id (old page, or n + i for new page i) as a new id; kNoPage for a removed page.
  auto renumber = [&](PageId id) -> PageId {
    if (id < n) return counts.new_id[id];
    if (id - n >= edit.new_pages.size()) fail(ErrorKind::kInternal, "update: bad page id ", id);
    return kept + (id - n);
  };

  std::vector<Entry> added;
  added.reserve(edit.added_links.size());
  for (const WebEdit::Link& l : edit.added_links) {
    const PageId s = renumber(l.source), t = renumber(l.target);
    if (s != kNoPage && t != kNoPage) added.push_back({s, t, weighted ? l.weight : 1.0});
  }
  std::vector<std::pair<PageId, PageId>> removed;
  for (const auto& [source, target] : edit.removed_links) {
    const PageId s = renumber(source), t = renumber(target);
    if (s != kNoPage && t != kNoPage) removed.emplace_back(s, t);
  }

  if (progress) progress("links");
  nlohmann::json forward, backward;
  DirectionCounts fwd, bwd;
  concurrently(
      [&] {
        fwd = merge_direction(g.out, weighted, true, kept, total, old_of, counts.new_id,
                              orient(added, removed, false), dir, layout::kFwdOffsets,
                              layout::kFwdTargets, layout::kFwdWeights, forward);
      },
      [&] {
        bwd = merge_direction(g.in, weighted, false, kept, total, old_of, counts.new_id,
                              orient(added, removed, true), dir, layout::kBwdOffsets,
                              layout::kBwdSources, layout::kBwdWeights, backward);
      });
  if (fwd.links != bwd.links)
    fail(ErrorKind::kInternal, "update: ", fwd.links, " forward links but ", bwd.links,
         " backlinks");
  for (const nlohmann::json* part : {&forward, &backward}) {
    for (const auto& [file, entry] : (*part)["sections"].items())
      manifest["sections"][file] = entry;
  }
  counts.links = fwd.links;
  counts.self_links = static_cast<std::uint64_t>(static_cast<std::int64_t>(old.stats().self_links) +
                                                 fwd.self_links_change);
  counts.dangling_pages = static_cast<PageId>(
      static_cast<std::int64_t>(old.stats().dangling_pages) + fwd.dangling_change);
  counts.links_removed = g.num_links - fwd.kept;
  counts.links_added = fwd.links - fwd.kept;

  if (progress) progress("labels");
  auto label = [&](PageId x) -> std::string_view {
    return x < kept ? old.label(old_of[x]) : std::string_view(edit.new_pages[x - kept]);
  };
  {
    Appender<std::uint64_t> offsets(dir, layout::kLabelOffsets);
    Appender<char> bytes(dir, layout::kLabelBytes);
    std::uint64_t at = 0;
    offsets.push(0);
    for (PageId x = 0; x < total; ++x) {
      const std::string_view l = label(x);
      bytes.append(std::span<const char>(l.data(), l.size()));
      at += l.size();
      offsets.push(at);
    }
    offsets.finish(manifest);
    bytes.finish(manifest);
  }
  write_section(dir, layout::kLabelIndex, build_label_index(total, label), manifest);

  if (old.has_page_data() || !edit.refetched.empty()) {
    if (progress) progress("page data");
    PageDataCollector pd;
    std::vector<bool> refetched(n, false);
    for (const auto& [id, r] : edit.refetched) {
      if (id < n) refetched[id] = true;
    }
    for (PageId x = 0; x < kept; ++x) {
      const PageId u = old_of[x];
      if (!old.has_page_data()) break;
      pd.set(x, *old.status(u), old.content_hash(u).value_or(0), old.final_url(u).value_or(""),
             old.title(u).value_or(""), old.text(u).value_or(""), *old.anchor_text(u));
      if (refetched[u]) continue;  // the rest is the new record's
      if (const auto v = old.validators(u))
        pd.set_validators(x, v->etag, v->last_modified, v->body_bytes);
      if (const auto html = old.html(u)) pd.set_html(x, *html);
      for (PageId t : old.nofollow_links(u)) {
        if (counts.new_id[t] != kNoPage) pd.add_nofollow(x, counts.new_id[t]);
      }
    }
    // Refetched pages: their data replaced; their links' anchors credited to the targets.
    std::unordered_map<std::string_view, PageId> new_labels;
    for (PageId i = 0; i < edit.new_pages.size(); ++i) new_labels[edit.new_pages[i]] = kept + i;
    auto find = [&](std::string_view l) -> PageId {
      if (auto id = old.find(l); id && counts.new_id[*id] != kNoPage) return counts.new_id[*id];
      const auto it = new_labels.find(l);
      return it == new_labels.end() ? kNoPage : it->second;
    };
    // Two passes: a page's own data first, so that it does not replace anchors credited to it.
    for (const auto& [id, r] : edit.refetched) {
      const PageId x = renumber(id);
      if (x == kNoPage) continue;
      // Its anchors stay (they are the links *to* it); a page not fetched keeps nothing else.
      // Those of its links to itself are the new record's.
      const std::string anchors =
          id < n ? std::string(split_anchor_text(old.anchor_text(id).value_or("")).others) : "";
      if (r.status == 0) {
        pd.set(x, 0, 0, "", "", "", anchors);
        continue;
      }
      pd.set(x, r.status, r.content_hash == 0 ? 1 : r.content_hash,
             r.final_url.empty() ? r.url : r.final_url, r.title, r.text, anchors);
      pd.set_validators(x, r.etag, r.last_modified, r.body_bytes);
      pd.set_html(x, r.html);
    }
    for (const auto& [id, r] : edit.refetched) {
      const PageId x = renumber(id);
      if (x == kNoPage) continue;
      for (const PageLink& l : r.links) {
        const PageId t = find(l.target);
        if (t == kNoPage) continue;
        // A page's links to itself are kept apart (PageDataCollector::add).
        if (!l.anchor.empty())
          t == x ? pd.add_own_anchor(x, l.anchor) : pd.add_anchor_once(t, l.anchor);
        if (l.nofollow) pd.add_nofollow(x, t);
      }
    }
    pd.write(dir, total, label, manifest);
  }

  manifest["pages"] = total;
  manifest["links"] = counts.links;
  manifest["dangling_pages"] = counts.dangling_pages;
  manifest["self_links"] = counts.self_links;
  manifest["weighted"] = weighted;
  return counts;
}

}  // namespace webrank
