#include "webrank/store/database.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "store/database_version.hpp"
#include "store/db_layout.hpp"
#include "store/label_table.hpp"
#include "store/manifest_field.hpp"
#include "store/manifest_seal.hpp"
#include "store/section_file.hpp"
#include "store/verification_record.hpp"
#include "util/compression.hpp"
#include "util/mapped_file.hpp"
#include "util/parallel.hpp"
#include "util/regular_file.hpp"
#include "webrank/store/page_data.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace fs = std::filesystem;

namespace {
// A string per page: N+1 offsets into a byte array.
struct StringColumn {
  std::span<const std::uint64_t> offsets;
  std::span<const char> bytes;
  std::string_view at(PageId id) const {
    return {bytes.data() + offsets[id], static_cast<std::size_t>(offsets[id + 1] - offsets[id])};
  }
};
}  // namespace

struct Database::Impl {
  fs::path dir;
  DatabaseStats stats;
  nlohmann::json manifest;
  std::string manifest_text;
  std::string generation;
  std::vector<Section> sections;  // every mapped section, for verify()
  // manifest.json and every section file, by name, as they were read and mapped: what a
  // recorded verification must match.
  std::vector<NamedIdentity> files;
  fs::path verification_records;
  std::atomic<Verification> verification{Verification::kNone};
  GraphView graph;
  LabelIndexView labels;
  // Optional page data (crawled webs); empty spans when the database has none.
  bool page_data = false;
  std::span<const std::uint16_t> status;
  std::span<const std::uint64_t> hash;
  StringColumn final_url, title, text, anchors;
  bool page_html = false;        // databases built before the stored copies have none
  StringColumn html;             // zstd frames
  bool page_validators = false;  // databases built before recrawls have none
  StringColumn etag, last_modified;
  std::span<const std::uint64_t> body_bytes;
  std::span<const std::uint64_t> nofollow_offsets;
  std::span<const PageId> nofollow_targets;
};

namespace {

// The whole of a small file and the identity of what was read; nullopt if it cannot be read.
// Throws Error naming the file when it is not a regular file (util/regular_file.hpp).
std::optional<std::string> read_small_file(const fs::path& file, FileIdentity* identity) {
  return read_regular_file(file, identity);
}

nlohmann::json read_manifest(const fs::path& dir, std::string* text, FileIdentity* identity) {
  const fs::path file = dir / layout::kManifest;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    fail(fs::exists(dir, ec) ? ErrorKind::kInvalidInput : ErrorKind::kNotFound, dir.string(),
         ": not a webrank database (",
         fs::exists(dir, ec) ? "not a directory" : "no such directory", ")");
  }
  std::optional<std::string> read = read_small_file(file, identity);
  if (!read)
    fail(fs::exists(file, ec) ? ErrorKind::kIo : ErrorKind::kNotFound, file.string(),
         ": missing or unreadable: not a webrank database, or a damaged one");
  *text = std::move(*read);
  nlohmann::json m;
  try {
    m = nlohmann::json::parse(*text);
  } catch (const nlohmann::json::parse_error& e) {
    fail(ErrorKind::kCorrupt, file.string(), ": byte ", e.byte, ": damaged (not valid JSON)");
  }
  if (!m.is_object() || m.value("format", "") != layout::kFormatName) {
    fail(ErrorKind::kCorrupt, file.string(), ": not a webrank database manifest (no \"format\": \"",
         layout::kFormatName, "\")");
  }
  return m;
}

// The manifest's flags against the sections it lists (O(1)): a weighted web has weight
// sections and an unweighted one none; page data comes whole or not at all.
void check_manifest_flags(const nlohmann::json& m, const fs::path& file) {
  const nlohmann::json& sections = m["sections"];
  const bool weighted = m.value("weighted", false);
  for (const char* name : {layout::kFwdWeights, layout::kBwdWeights}) {
    if (sections.contains(name) != weighted) {
      fail(ErrorKind::kCorrupt, file.string(),
           ": damaged: \"weighted\": ", weighted ? "true" : "false",
           weighted ? " but section " : " yet section ", name,
           weighted ? " is not listed" : " is listed");
    }
  }
  const bool page_data = m.value("page_data", false);
  if (sections.contains(layout::kPageStatus.file) != page_data) {
    fail(ErrorKind::kCorrupt, file.string(),
         ": damaged: \"page_data\": ", page_data ? "true" : "false",
         page_data ? " but section " : " yet section ", layout::kPageStatus.file,
         page_data ? " is not listed" : " is listed");
  }
  const bool page_html = m.value("page_html", false);
  if (sections.contains(layout::kPageHtmlOffsets.file) != (page_html && page_data)) {
    fail(ErrorKind::kCorrupt, file.string(),
         ": damaged: \"page_html\": ", page_html ? "true" : "false",
         " does not match the sections listed (", layout::kPageHtmlOffsets.file, ")");
  }
  const bool validators = m.value("page_validators", false);
  if (sections.contains(layout::kPageEtagOffsets.file) != (validators && page_data)) {
    fail(ErrorKind::kCorrupt, file.string(),
         ": damaged: \"page_validators\": ", validators ? "true" : "false",
         " does not match the sections listed (", layout::kPageEtagOffsets.file, ")");
  }
}

// The manifest's counts against the links (O(links)): dangling pages (no out-links, or an
// out-weight of 0 in a weighted web) and self-links.
void check_manifest_counts(const fs::path& file, const DatabaseStats& st, const GraphView& g) {
  std::uint64_t self_links = 0, dangling = 0;
  const auto pages = static_cast<std::int64_t>(g.num_pages);
#pragma omp parallel for schedule(dynamic, 4096) reduction(+ : self_links, dangling) \
    if (pages >= kMinParallelPages)
  for (std::int64_t u = 0; u < pages; ++u) {
    double strength = 0;
    for (std::uint64_t i = g.out.offsets[u]; i < g.out.offsets[u + 1]; ++i) {
      if (g.out.ids[i] == static_cast<PageId>(u)) ++self_links;
      strength += st.weighted ? g.out.weights[i] : 1.0;
    }
    if (strength == 0) ++dangling;
  }
  release_pages(g.out.ids.data(), g.out.ids.size_bytes());
  if (st.weighted) release_pages(g.out.weights.data(), g.out.weights.size_bytes());
  if (dangling != st.dangling_pages) {
    fail(ErrorKind::kCorrupt, file.string(), ": damaged: \"dangling_pages\": ", st.dangling_pages,
         ", but the links leave ", dangling, " pages without out-links");
  }
  if (self_links != st.self_links) {
    fail(ErrorKind::kCorrupt, file.string(), ": damaged: \"self_links\": ", st.self_links,
         ", but the links hold ", self_links);
  }
}

}  // namespace

Database::Database(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Database::Database(Database&&) noexcept = default;
Database& Database::operator=(Database&&) noexcept = default;
Database::~Database() = default;

Database Database::open(const fs::path& dir, OpenOptions options) {
  auto impl = std::make_unique<Impl>();
  impl->dir = dir;
  impl->verification_records = options.verification_records;
  FileIdentity manifest_identity;
  impl->manifest = read_manifest(dir, &impl->manifest_text, &manifest_identity);
  impl->files.emplace_back(layout::kManifest, manifest_identity);
  const nlohmann::json& m = impl->manifest;
  const fs::path mfile = dir / layout::kManifest;
  check_manifest_seal(m, mfile.string());
  impl->generation = generation_of(m);
  const int version = manifest_field<int>(m, "version", mfile);
  if (version != kDatabaseFormatVersion) {
    fail(ErrorKind::kCorrupt, mfile.string(), ": format version ", version,
         ", this webrank reads version ", kDatabaseFormatVersion);
  }
  DatabaseStats& st = impl->stats;
  const auto pages = manifest_field<std::uint64_t>(m, "pages", mfile);
  if (pages == 0 || pages >= kNoPage)
    fail(ErrorKind::kCorrupt, mfile.string(), ": damaged: implausible page count ", pages);
  st.pages = static_cast<PageId>(pages);
  st.links = manifest_field<std::uint64_t>(m, "links", mfile);
  st.dangling_pages = manifest_field<PageId>(m, "dangling_pages", mfile);
  st.self_links = manifest_field<std::uint64_t>(m, "self_links", mfile);
  st.weighted = manifest_field<bool>(m, "weighted", mfile);
  if (!m.contains("sections") || !m["sections"].is_object()) {
    fail(ErrorKind::kCorrupt, mfile.string(), ": damaged: the section list is missing");
  }
  check_manifest_flags(m, mfile);

  // Maps a section and checks it against the manifest: element count and checksum, so a file
  // from another database or a stale copy is caught at open time.
  auto open = [&](const char* name, std::uint32_t elem, std::uint64_t count,
                  const char* section_name = nullptr) -> const Section& {
    if (!m["sections"].contains(name))
      fail(ErrorKind::kCorrupt, mfile.string(), ": damaged: section ", name, " is not listed");
    Section s = Section::open(dir / name, section_name ? section_name : name, elem);
    if (s.count() != count) {
      fail(ErrorKind::kCorrupt, (dir / name).string(), ": byte 24: holds ", s.count(),
           " elements, but manifest.json (pages ", st.pages, ", links ", st.links, ") needs ",
           count, ": the file is damaged or from another database");
    }
    if (m["sections"][name].value("xxh3", "") != checksum_hex(s.checksum())) {
      fail(ErrorKind::kCorrupt, (dir / name).string(),
           ": bytes 40-47: checksum differs from manifest.json (a file from "
           "another database, or a damaged one)");
    }
    impl->files.emplace_back(name, s.identity());
    impl->sections.push_back(std::move(s));
    return impl->sections.back();
  };
  impl->sections.reserve(23);  // every section there can be: references stay valid
  const std::uint64_t n = st.pages, links = st.links;
  GraphView& g = impl->graph;
  g.num_pages = st.pages;
  g.num_links = links;
  g.out.offsets = open(layout::kFwdOffsets, 8, n + 1).as<std::uint64_t>();
  g.out.ids = open(layout::kFwdTargets, 4, links).as<PageId>();
  g.in.offsets = open(layout::kBwdOffsets, 8, n + 1).as<std::uint64_t>();
  g.in.ids = open(layout::kBwdSources, 4, links).as<PageId>();
  if (st.weighted) {
    g.out.weights = open(layout::kFwdWeights, 8, links).as<double>();
    g.in.weights = open(layout::kBwdWeights, 8, links).as<double>();
  }
  impl->labels.offsets = open(layout::kLabelOffsets, 8, n + 1).as<std::uint64_t>();
  const Section& bytes = open(layout::kLabelBytes, 1, impl->labels.offsets.back());
  impl->labels.bytes = bytes.as<char>();
  const auto& index_meta = m["sections"].value(layout::kLabelIndex, nlohmann::json::object());
  const std::uint64_t slots = index_meta.value("count", std::uint64_t{0});
  if (slots < 2 * n || (slots & (slots - 1)) != 0) {
    fail(ErrorKind::kCorrupt, mfile.string(), ": damaged: label index size ", slots,
         " is not a power of two >= 2N");
  }
  impl->labels.slots = open(layout::kLabelIndex, 4, slots).as<PageId>();

  // O(1) structural checks; verify() does the O(size) ones.
  auto check_ends = [&](std::span<const std::uint64_t> off, std::uint64_t end, const char* name) {
    if (off.front() != 0 || off.back() != end) {
      fail(ErrorKind::kCorrupt, (dir / name).string(), ": bytes ", kSectionHeaderBytes, "-",
           kSectionHeaderBytes + 8 * (n + 1) - 1, ": offsets do not span the data (damaged)");
    }
  };
  check_ends(g.out.offsets, links, layout::kFwdOffsets);
  check_ends(g.in.offsets, links, layout::kBwdOffsets);
  check_ends(impl->labels.offsets, bytes.count(), layout::kLabelOffsets);

  if (m.value("page_data", false)) {
    impl->page_data = true;
    auto named = [&](layout::SectionName s, std::uint32_t elem,
                     std::uint64_t count) -> const Section& {
      return open(s.file, elem, count, s.name);
    };
    impl->status = named(layout::kPageStatus, 2, n).as<std::uint16_t>();
    impl->hash = named(layout::kPageHash, 8, n).as<std::uint64_t>();
    auto column = [&](layout::SectionName off, layout::SectionName bytes_name, StringColumn& c) {
      c.offsets = named(off, 8, n + 1).as<std::uint64_t>();
      c.bytes = named(bytes_name, 1, c.offsets.back()).as<char>();
      check_ends(c.offsets, c.bytes.size(), off.file);
    };
    column(layout::kPageFinalUrlOffsets, layout::kPageFinalUrlBytes, impl->final_url);
    column(layout::kPageTitleOffsets, layout::kPageTitleBytes, impl->title);
    column(layout::kPageTextOffsets, layout::kPageTextBytes, impl->text);
    column(layout::kPageAnchorOffsets, layout::kPageAnchorBytes, impl->anchors);
    if (m.value("page_html", false)) {
      impl->page_html = true;
      column(layout::kPageHtmlOffsets, layout::kPageHtmlBytes, impl->html);
    }
    if (m.value("page_validators", false)) {
      impl->page_validators = true;
      column(layout::kPageEtagOffsets, layout::kPageEtagBytes, impl->etag);
      column(layout::kPageModifiedOffsets, layout::kPageModifiedBytes, impl->last_modified);
      impl->body_bytes = named(layout::kPageBodyBytes, 8, n).as<std::uint64_t>();
    }
    impl->nofollow_offsets = named(layout::kNofollowOffsets, 8, n + 1).as<std::uint64_t>();
    impl->nofollow_targets =
        named(layout::kNofollowTargets, 4, impl->nofollow_offsets.back()).as<PageId>();
  }
  Database db(std::move(impl));
  if (options.verify) {
    if (recorded_as_verified(options.verification_records, db.impl_->dir, db.impl_->files)) {
      db.impl_->verification = Verification::kRecorded;
    } else {
      db.verify();
    }
  }
  return db;
}

void Database::verify() const {
  // The manifest was parsed before the clock was read: it is read once more and compared, so
  // that everything recorded was read after that moment (verification_record.hpp).
  const std::int64_t started = realtime_ns();
  const bool manifest_unchanged =
      read_small_file(impl_->dir / layout::kManifest, nullptr) == impl_->manifest_text;
  verify_contents();
  impl_->verification = Verification::kFull;
  if (manifest_unchanged)
    record_verified(impl_->verification_records, impl_->dir, impl_->files, started);
}

fs::path default_verification_records() {
  const char* cache = std::getenv("XDG_CACHE_HOME");
  if (cache && *cache == '/') return fs::path(cache) / "webrank" / "verified";
  const char* home = std::getenv("HOME");
  if (home && *home == '/') return fs::path(home) / ".cache" / "webrank" / "verified";
  return {};
}

Verification Database::verification() const {
  return impl_->verification;
}

void Database::verify_contents() const {
  for (const Section& s : impl_->sections) s.verify();
  // Checksums catch damage; these catch a writer bug or a hand-made file with valid checksums,
  // so that no id can index outside the arrays. Each array is released as it is checked, a
  // chunk at a time, as the sections are (Section::verify): verifying leaves nothing resident,
  // and never holds more than a chunk (an out-of-core rank runs it within its memory budget).
  constexpr std::uint64_t kChunk = std::uint64_t{1} << 22;  // elements
  const GraphView& g = impl_->graph;
  const std::uint64_t n = g.num_pages;
  auto check_offsets = [&](std::span<const std::uint64_t> lo, const char* name) {
    for (std::uint64_t u = 0; u < n; ++u) {
      if (lo[u] > lo[u + 1]) {
        fail(ErrorKind::kCorrupt, (impl_->dir / name).string(), ": byte ",
             kSectionHeaderBytes + 8 * u, ": offsets decrease (damaged)");
      }
      if (u % kChunk == kChunk - 1) release_pages(lo.data() + u + 1 - kChunk, 8 * kChunk);
    }
    release_pages(lo.data(), lo.size_bytes());
  };
  auto check_ids = [&](std::span<const PageId> ids, const char* name) {
    std::int64_t bad = -1;
    for (std::uint64_t from = 0; from < ids.size() && bad < 0; from += kChunk) {
      const std::int64_t to =
          static_cast<std::int64_t>(std::min<std::uint64_t>(ids.size(), from + kChunk));
#pragma omp parallel for reduction(max                                                 \
                                   : bad) if (to - static_cast <std::int64_t>(from) >= \
                                              kMinParallelLinks)
      for (std::int64_t i = static_cast<std::int64_t>(from); i < to; ++i) {
        if (ids[i] >= n) bad = std::max(bad, i);
      }
      release_pages(ids.data() + from, 4 * (to - from));
    }
    if (bad >= 0) {
      fail(ErrorKind::kCorrupt, (impl_->dir / name).string(), ": byte ",
           kSectionHeaderBytes + 4 * bad, ": page id ", ids[bad], " out of range (", n, " pages)");
    }
    release_pages(ids.data(), ids.size_bytes());
  };
  check_offsets(g.out.offsets, layout::kFwdOffsets);
  check_ids(g.out.ids, layout::kFwdTargets);
  check_offsets(g.in.offsets, layout::kBwdOffsets);
  check_ids(g.in.ids, layout::kBwdSources);
  check_offsets(impl_->labels.offsets, layout::kLabelOffsets);
  if (impl_->page_data) {
    check_offsets(impl_->final_url.offsets, layout::kPageFinalUrlOffsets.file);
    check_offsets(impl_->title.offsets, layout::kPageTitleOffsets.file);
    check_offsets(impl_->text.offsets, layout::kPageTextOffsets.file);
    check_offsets(impl_->anchors.offsets, layout::kPageAnchorOffsets.file);
    if (impl_->page_html) check_offsets(impl_->html.offsets, layout::kPageHtmlOffsets.file);
    if (impl_->page_validators) {
      check_offsets(impl_->etag.offsets, layout::kPageEtagOffsets.file);
      check_offsets(impl_->last_modified.offsets, layout::kPageModifiedOffsets.file);
    }
    check_offsets(impl_->nofollow_offsets, layout::kNofollowOffsets.file);
    check_ids(impl_->nofollow_targets, layout::kNofollowTargets.file);
  }
  check_manifest_counts(impl_->dir / layout::kManifest, impl_->stats, g);
}

bool Database::has_page_data() const {
  return impl_->page_data;
}
std::optional<std::uint16_t> Database::status(PageId id) const {
  if (!impl_->page_data) return std::nullopt;
  return impl_->status[id];
}
std::optional<std::uint64_t> Database::content_hash(PageId id) const {
  if (!impl_->page_data || impl_->hash[id] == 0) return std::nullopt;
  return impl_->hash[id];
}
// Strings of pages that were not fetched are absent (nullopt), not empty.
std::optional<std::string_view> Database::final_url(PageId id) const {
  if (!impl_->page_data || impl_->status[id] == 0) return std::nullopt;
  return impl_->final_url.at(id);
}
std::optional<std::string_view> Database::title(PageId id) const {
  if (!impl_->page_data || impl_->status[id] == 0) return std::nullopt;
  return impl_->title.at(id);
}
std::optional<std::string_view> Database::text(PageId id) const {
  if (!impl_->page_data || impl_->status[id] == 0) return std::nullopt;
  return impl_->text.at(id);
}
std::optional<std::string_view> Database::anchor_text(PageId id) const {
  if (!impl_->page_data) return std::nullopt;
  return impl_->anchors.at(id);
}
bool Database::has_stored_html() const {
  return impl_->page_html;
}
std::optional<std::string> Database::html(PageId id) const {
  if (!impl_->page_html) return std::nullopt;
  const std::string_view frame = impl_->html.at(id);
  if (frame.empty()) return std::nullopt;
  return zstd_decompress(frame, kMaxStoredHtmlBytes,
                         cat((impl_->dir / layout::kPageHtmlBytes.file).string(), ": byte ",
                             kSectionHeaderBytes + impl_->html.offsets[id]));
}
std::optional<PageValidators> Database::validators(PageId id) const {
  if (!impl_->page_validators || impl_->status[id] == 0) return std::nullopt;
  return PageValidators{impl_->etag.at(id), impl_->last_modified.at(id), impl_->body_bytes[id]};
}
std::span<const PageId> Database::nofollow_links(PageId id) const {
  if (!impl_->page_data) return {};
  const auto& o = impl_->nofollow_offsets;
  return impl_->nofollow_targets.subspan(o[id], o[id + 1] - o[id]);
}
std::uint64_t Database::num_nofollow_links() const {
  return impl_->page_data ? impl_->nofollow_targets.size() : 0;
}

const GraphView& Database::graph() const {
  return impl_->graph;
}
const DatabaseStats& Database::stats() const {
  return impl_->stats;
}
std::string_view Database::label(PageId id) const {
  return impl_->labels.label(id);
}
const fs::path& Database::path() const {
  return impl_->dir;
}
const std::string& Database::generation() const {
  return impl_->generation;
}

std::optional<PageId> Database::find(std::string_view label) const {
  PageId id = impl_->labels.find(label);
  if (id == kNoPage) return std::nullopt;
  return id;
}

std::vector<std::string> Database::rank_names() const {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(impl_->dir / layout::kRanksDir, ec), end; !ec && it != end;
       it.increment(ec)) {
    // A vector is its .ranks file and its .json metadata: either one names it, so that a lost
    // half is reported by load_ranks() instead of the vector silently disappearing.
    const auto ext = it->path().extension();
    if ((ext == layout::kRankValuesSuffix || ext == layout::kRankRecordSuffix) &&
        it->path().filename().string()[0] != '.') {
      names.push_back(it->path().stem().string());
    }
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

}  // namespace webrank
