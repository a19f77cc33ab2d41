#include "writer/page_data_builder.hpp"

#include <unistd.h>

#include <cstdio>
#include <span>

#include "store/db_layout.hpp"
#include "store/manifest_section.hpp"
#include "store/section_file.hpp"
#include "util/compression.hpp"
#include "util/error.hpp"
#include "writer/csr_builder.hpp"

namespace webrank {
namespace fs = std::filesystem;
namespace {

// A string column as N+1 offsets and the bytes (no separators), streamed page by page: `size(u)`
// is page u's length, `bytes(u, scratch)` its string (read into `scratch` if need be).
void write_column(const fs::path& dir, layout::SectionName offsets_section,
                  layout::SectionName bytes_section, PageId pages,
                  const std::function<std::size_t(PageId)>& size,
                  const std::function<std::string_view(PageId, std::string&)>& bytes,
                  nlohmann::json& manifest) {
  std::vector<std::uint64_t> offsets{0};
  offsets.reserve(pages + 1);
  for (PageId u = 0; u < pages; ++u) offsets.push_back(offsets.back() + size(u));
  write_section<std::uint64_t>(dir, offsets_section, std::span(offsets), manifest);
  SectionWriter w(dir / bytes_section.file, bytes_section.name, 1);
  std::string scratch;
  for (PageId u = 0; u < pages; ++u) {
    const std::string_view b = bytes(u, scratch);
    w.append_bytes(b.data(), b.size());
  }
  list_section(manifest, bytes_section.file, bytes_section.name, offsets.back(), 1, w.finish());
}

// A column held as one string per page (grown to `pages` at least).
void write_strings(const fs::path& dir, layout::SectionName offsets_section,
                   layout::SectionName bytes_section, const std::vector<std::string>& column,
                   PageId pages, nlohmann::json& manifest) {
  write_column(
      dir, offsets_section, bytes_section, pages, [&](PageId u) { return column[u].size(); },
      [&](PageId u, std::string&) { return std::string_view(column[u]); }, manifest);
}

}  // namespace

PageStrings::~PageStrings() {
  if (!spill_) return;
  std::fclose(spill_);
  std::error_code ec;
  fs::remove(file_, ec);
}

void PageStrings::spill_to(const fs::path& file) {
  spill_ = std::fopen(file.c_str(), "w+b");
  if (!spill_) fail_errno(file.string(), "cannot create");
  file_ = file;
  at_.resize(memory_.size());
  size_.resize(memory_.size());
  for (std::size_t u = 0; u < memory_.size(); ++u) set(static_cast<PageId>(u), memory_[u]);
  std::vector<std::string>().swap(memory_);
}

void PageStrings::grow(PageId n) {
  if (spill_ && at_.size() < n) {
    at_.resize(n);
    size_.resize(n);
  } else if (!spill_ && memory_.size() < n) {
    memory_.resize(n);
  }
}

void PageStrings::set(PageId id, std::string_view s) {
  if (!spill_) {
    memory_[id] = s;
    return;
  }
  if (!s.empty() && std::fwrite(s.data(), 1, s.size(), spill_) != s.size()) {
    fail_errno(file_.string(), "write failed");
  }
  at_[id] = spilled_;
  size_[id] = s.size();
  spilled_ += s.size();
}

void PageStrings::write(const fs::path& dir, layout::SectionName offsets_section,
                        layout::SectionName bytes_section, PageId pages, nlohmann::json& manifest) {
  if (!spill_) {
    write_strings(dir, offsets_section, bytes_section, memory_, pages, manifest);
    return;
  }
  if (std::fflush(spill_) != 0) fail_errno(file_.string(), "write failed");
  const auto read_back = [&](PageId u, std::string& scratch) {
    scratch.resize(size_[u]);
    for (std::size_t done = 0; done < scratch.size();) {
      const ssize_t got = ::pread(fileno(spill_), scratch.data() + done, scratch.size() - done,
                                  static_cast<off_t>(at_[u] + done));
      if (got <= 0) fail_errno(file_.string(), "read failed");
      done += static_cast<std::size_t>(got);
    }
    return std::string_view(scratch);
  };
  write_column(
      dir, offsets_section, bytes_section, pages, [&](PageId u) { return size_[u]; }, read_back,
      manifest);
  // Out of the directory before it becomes the database.
  std::fclose(spill_);
  spill_ = nullptr;
  std::error_code ec;
  fs::remove(file_, ec);
}

void PageDataCollector::spill_to(const fs::path& dir) {
  title_.spill_to(dir / ".page-titles.spill");
  text_.spill_to(dir / ".page-texts.spill");
  html_.spill_to(dir / ".page-html.spill");
}

void PageDataCollector::grow(PageId n) {
  if (status_.size() >= n) return;
  status_.resize(n);
  hash_.resize(n);
  final_id_.resize(n, kNoPage);
  final_url_.resize(n);
  title_.grow(n);
  text_.grow(n);
  anchors_.resize(n);
  own_anchors_.resize(n);
  html_.grow(n);
  etag_.resize(n);
  last_modified_.resize(n);
  body_bytes_.resize(n);
}

bool PageDataCollector::add(const PageRecord& r, const Intern& intern) {
  any_ = true;
  const PageId id = intern(r.url);
  grow(id + 1);
  if (r.status == 0) return true;  // known, not fetched: nothing to store (status stays 0)
  if (status_[id] != 0) return false;
  status_[id] = r.status;
  hash_[id] = r.content_hash == 0 ? 1 : r.content_hash;
  final_url_[id] = r.final_url.empty() ? r.url : r.final_url;
  final_id_[id] = r.final_url.empty() ? id : intern(r.final_url);
  grow(final_id_[id] + 1);
  title_.set(id, r.title);
  text_.set(id, r.text);
  if (!r.html_zstd.empty()) {
    html_.set(id, r.html_zstd);
  } else if (!r.html.empty()) {
    html_.set(id, zstd_compress(r.html));
  }
  etag_[id] = r.etag;
  last_modified_[id] = r.last_modified;
  body_bytes_[id] = r.body_bytes;
  for (const PageLink& l : r.links) {
    const PageId t = intern(l.target);
    grow(t + 1);
    // A page's links to itself (its table of contents, #fragments of its own sections) name its
    // sections, not the page: their texts are kept apart (docs/search.md).
    const bool self = t == id || t == final_id_[id];
    if (!l.anchor.empty()) self ? add_own_anchor(t, l.anchor) : add_anchor(t, l.anchor);
    if (l.nofollow) add_nofollow(id, t);
  }
  return true;
}

void PageDataCollector::set(PageId id, std::uint16_t status, std::uint64_t hash,
                            std::string_view final_url, std::string_view title,
                            std::string_view text, std::string_view anchors) {
  any_ = true;
  grow(id + 1);
  status_[id] = status;
  hash_[id] = hash;
  final_url_[id] = final_url;
  title_.set(id, title);
  text_.set(id, text);
  const AnchorTexts stored = split_anchor_text(anchors);
  anchors_[id] = stored.others;
  own_anchors_[id] = stored.own_sections;
}

void PageDataCollector::set_validators(PageId id, std::string_view etag,
                                       std::string_view last_modified, std::uint64_t body_bytes) {
  grow(id + 1);
  etag_[id] = etag;
  last_modified_[id] = last_modified;
  body_bytes_[id] = body_bytes;
}

void PageDataCollector::set_html(PageId id, std::string_view html) {
  grow(id + 1);
  html_.set(id, html.empty() ? std::string() : zstd_compress(html));
}

void PageDataCollector::add_anchor_once(PageId target, std::string_view anchor) {
  grow(target + 1);
  std::string_view all = anchors_[target];
  while (!all.empty()) {
    const std::size_t end = std::min(all.find('\n'), all.size());
    if (all.substr(0, end) == anchor) return;
    all.remove_prefix(std::min(end + 1, all.size()));
  }
  add_anchor(target, anchor);
}

void PageDataCollector::add_anchor(PageId target, std::string_view anchor) {
  grow(target + 1);
  std::string& a = anchors_[target];
  if (!a.empty()) a += '\n';
  a += anchor;
}

void PageDataCollector::add_own_anchor(PageId page, std::string_view anchor) {
  grow(page + 1);
  std::string& a = own_anchors_[page];
  if (!a.empty()) a += '\n';
  a += anchor;
}

void PageDataCollector::add_nofollow(PageId source, PageId target) {
  any_ = true;
  nofollow_sources_.push_back(source);
  nofollow_targets_.push_back(target);
}

void PageDataCollector::write(const fs::path& dir, PageId pages,
                              const std::function<std::string_view(PageId)>& label,
                              nlohmann::json& manifest) {
  grow(pages);
  // Follow redirect chains so that final_url names where they end.
  auto redirect = [&](PageId v) { return status_[v] >= 300 && status_[v] < 400; };
  for (PageId u = 0; u < pages; ++u) {
    if (!redirect(u)) continue;
    PageId end = final_id_[u];
    for (int hop = 0;
         hop < 20 && end != kNoPage && end != u && redirect(end) && final_id_[end] != end; ++hop) {
      end = final_id_[end];
    }
    if (end != kNoPage && end != u) final_url_[u] = label(end);
  }
  write_section<std::uint16_t>(dir, layout::kPageStatus, std::span(status_.data(), pages),
                               manifest);
  write_section<std::uint64_t>(dir, layout::kPageHash, std::span(hash_.data(), pages), manifest);
  write_strings(dir, layout::kPageFinalUrlOffsets, layout::kPageFinalUrlBytes, final_url_, pages,
                manifest);
  title_.write(dir, layout::kPageTitleOffsets, layout::kPageTitleBytes, pages, manifest);
  text_.write(dir, layout::kPageTextOffsets, layout::kPageTextBytes, pages, manifest);
  for (PageId u = 0; u < pages; ++u) {
    if (own_anchors_[u].empty()) continue;
    anchors_[u] += "\n\n";
    anchors_[u] += own_anchors_[u];
    std::string().swap(own_anchors_[u]);
  }
  write_strings(dir, layout::kPageAnchorOffsets, layout::kPageAnchorBytes, anchors_, pages,
                manifest);
  html_.write(dir, layout::kPageHtmlOffsets, layout::kPageHtmlBytes, pages, manifest);
  write_strings(dir, layout::kPageEtagOffsets, layout::kPageEtagBytes, etag_, pages, manifest);
  write_strings(dir, layout::kPageModifiedOffsets, layout::kPageModifiedBytes, last_modified_,
                pages, manifest);
  write_section<std::uint64_t>(dir, layout::kPageBodyBytes, std::span(body_bytes_.data(), pages),
                               manifest);
  CsrLinks nf = build_csr(pages, std::move(nofollow_sources_), std::move(nofollow_targets_), {});
  write_section<std::uint64_t>(dir, layout::kNofollowOffsets, nf.out_offsets, manifest);
  write_section<PageId>(dir, layout::kNofollowTargets, nf.out_ids, manifest);
  manifest["page_data"] = true;
  manifest["page_html"] = true;
  manifest["page_validators"] = true;
}

}  // namespace webrank
