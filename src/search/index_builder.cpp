// build_search_index: the threads index contiguous segments of the pages, each into its own
// small Xapian database, keeping docid = page id + 1; the segments are then merged, ids
// unchanged, into one compact single-file database written beside the old index and renamed
// over it.
#include <omp.h>
#include <sys/stat.h>
#include <xapian.h>

#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <unordered_map>

#include "search/document.hpp"
#include "util/atomic_file.hpp"
#include "util/parallel.hpp"
#include "webrank/search/search.hpp"
#include "webrank/util/error.hpp"
#include "webrank/util/units.hpp"

namespace webrank {
namespace fs = std::filesystem;
using search::kIndexFile;

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Xapian's cost per posting grows with the size of the database being written (its in-memory
// inverter): a segment of about 1,000 documents costs less than half the time per page of one of
// 50,000 (docs/search.md). Pages are therefore indexed in small segments, of about kSegmentBytes
// of text or kSegmentPages pages, which the merge joins into one file.
constexpr double kSegmentBytes = 512 << 10;
constexpr PageId kSegmentPages = 512;

// Cuts pages [0, n) into contiguous segments: segment i is [cut[i], cut[i + 1]).
std::vector<PageId> segment_cuts(const Database& db) {
  const PageId n = db.num_pages();
  std::vector<PageId> cut{0};
  double bytes = 0;
  for (PageId u = 0; u < n; ++u) {
    bytes += 64;  // the label and per-document costs
    if (const auto t = db.text(u)) bytes += static_cast<double>(t->size());
    if (const auto a = db.anchor_text(u)) bytes += static_cast<double>(a->size());
    if (bytes >= kSegmentBytes || u + 1 - cut.back() >= kSegmentPages) {
      cut.push_back(u + 1);
      bytes = 0;
    }
  }
  if (cut.back() != n) cut.push_back(n);
  return cut;
}

// Reports the merge's progress, one table at a time.
class MergeProgress : public Xapian::Compactor {
 public:
  explicit MergeProgress(std::function<void(const std::string&)> f) : f_(std::move(f)) {}
  void set_status(const std::string& table, const std::string&) override {
    if (f_) f_(table);
  }

 private:
  std::function<void(const std::string&)> f_;
};

[[noreturn]] void fail_xapian(const fs::path& where, const Xapian::Error& e) {
  fail(ErrorKind::kIo, where.string(), ": ", e.get_msg().empty() ? e.get_type() : e.get_msg());
}

}  // namespace

IndexReport build_search_index(const Database& db, const IndexOptions& o) {
  const auto start = Clock::now();
  const fs::path dest = o.output.empty() ? db.path() / kIndexFile : o.output;
  if (o.shards < 1 || o.shard < 0 || o.shard >= o.shards) {
    fail_option("shard", "must be I/N with 0 <= I < N, got ", o.shard, "/", o.shards);
  }
  for (int w : {o.field_weights.title, o.field_weights.text, o.field_weights.anchor,
                o.field_weights.url, o.field_weights.chrome}) {
    if (w < 0 || w > 100) fail_option("field_weights", "must be in [0, 100], got ", w);
  }
  IndexReport r;
  r.pages = db.num_pages();
  r.path = dest;
  r.shard = o.shard;
  r.shards = o.shards;
  const std::vector<PageId> cut = segment_cuts(db);
  const int segments = static_cast<int>(cut.size()) - 1;
  const int threads =
      std::max(1, std::min(segments, o.threads > 0 ? o.threads : omp_get_max_threads()));
  r.threads = threads;

  TempPath out(dest);
  TempPath shards(dest.parent_path() / "search.segments");
  shards.make_directory();
  const std::string identity = search::database_identity(db);
  auto segment_path = [&](int i) {
    return (shards.path() / ("segment-" + std::to_string(i))).string();
  };

  std::atomic<std::uint64_t> done{0}, documents{0};
  std::atomic<bool> stopped{false};
  std::mutex report;
  auto last_report = Clock::now();
  auto progress = [&](bool force) {
    if (!o.on_progress) return;
    std::unique_lock lock(report, std::try_to_lock);
    if (!lock.owns_lock()) return;
    if (!force && since(last_report) < 0.1) return;
    last_report = Clock::now();
    o.on_progress({"indexing", done.load(), r.pages, since(start)});
  };
  std::vector<std::exception_ptr> failed(segments);
  // Each segment's own-text table (its pages are consecutive: the tables concatenate in order).
  std::vector<std::string> own_text(segments);
  std::unordered_map<std::string, std::uint32_t> vocabulary;  // word -> pages, of every thread
  const search::SiteChrome chrome = search::SiteChrome::learn(db, threads);
  const search::SiteTitles titles = search::SiteTitles::learn(db);
  ThreadCount count(threads);
#pragma omp parallel num_threads(threads)
  {
    search::DocumentMaker maker(o.field_weights, &chrome,
                                &titles);  // one per thread: its stem cache carries over
    Xapian::Document doc;
#pragma omp for schedule(dynamic, 1)
    for (int i = 0; i < segments; ++i) {
      if (stopped) continue;
      try {
        Xapian::WritableDatabase w(
            segment_path(i), Xapian::DB_CREATE | Xapian::DB_BACKEND_GLASS | Xapian::DB_NO_SYNC |
                                 Xapian::DB_NO_TERMLIST | Xapian::DB_DANGEROUS);
        if (i == 0) {
          w.set_metadata(search::kMetaVersion, std::to_string(search::kIndexVersion));
          w.set_metadata(search::kMetaDatabase, identity);
          w.set_metadata(search::kMetaBuilt, utc_timestamp());
          w.set_metadata(search::kMetaFields, to_string(o.field_weights));
          if (o.shards > 1) w.set_metadata(search::kMetaShard, cat(o.shard, "/", o.shards));
        }
        for (PageId u = cut[i]; u < cut[i + 1]; ++u) {
          if ((u & 63) == 0) {
            if (o.stop.stop_requested() || stopped) {
              stopped = true;
              break;
            }
            progress(false);
          }
          if (static_cast<int>(u % o.shards) == o.shard && maker.make(db, u, doc)) {
            if (!maker.own_text().empty()) {
              search::OwnTextTable::append(own_text[i], u, maker.own_text());
            }
            w.replace_document(u / o.shards + 1, doc);
            ++documents;
          }
          ++done;
        }
        w.commit();
      } catch (const Xapian::Error& e) {
        stopped = true;
        try {
          fail_xapian(shards.path(), e);
        } catch (...) {
          failed[i] = std::current_exception();
        }
      } catch (...) {
        stopped = true;
        failed[i] = std::current_exception();
      }
    }
#pragma omp critical(webrank_index_vocabulary)
    for (const auto& [word, w] : maker.vocabulary()) vocabulary[word] += w.pages;
  }
  for (const auto& e : failed) {
    if (e) std::rethrow_exception(e);
  }
  if (stopped || o.stop.stop_requested()) fail(ErrorKind::kCancelled, "indexing stopped");
  progress(true);

  const auto merge_start = Clock::now();
  try {
    std::string table;
    for (std::string& t : own_text) {
      table += t;
      std::string().swap(t);
    }
    if (segments > 0) {
      Xapian::WritableDatabase first(segment_path(0), Xapian::DB_OPEN | Xapian::DB_BACKEND_GLASS |
                                                          Xapian::DB_NO_SYNC |
                                                          Xapian::DB_NO_TERMLIST);
      first.set_metadata(search::kMetaOwnText, table);
      first.set_metadata(search::kMetaFamilyPages, titles.family_bits);
      first.set_metadata(search::kMetaFetchedSites, std::to_string(titles.fetched_sites));
      // The spelling data, each word once with the pages that have it.
      for (const auto& [word, pages] : vocabulary) first.add_spelling(word, pages);
      first.commit();
    }
    Xapian::Database all;
    for (int i = 0; i < segments; ++i) all.add_database(Xapian::Database(segment_path(i)));
    MergeProgress merge([&](const std::string&) {
      if (o.on_progress) o.on_progress({"merging", done.load(), r.pages, since(start)});
    });
    all.compact(out.path().string(), Xapian::DBCOMPACT_NO_RENUMBER | Xapian::DBCOMPACT_SINGLE_FILE,
                0, merge);
  } catch (const Xapian::Error& e) {
    fail_xapian(out.path(), e);
  }
  if (o.stop.stop_requested()) fail(ErrorKind::kCancelled, "indexing stopped");
  out.commit();
  r.documents = documents;
  std::error_code ec;
  r.bytes = fs::file_size(dest, ec);
  r.merge_seconds = since(merge_start);
  r.seconds = since(start);
  return r;
}

std::string to_string(const FieldWeights& f) {
  return cat(f.title, ",", f.text, ",", f.anchor, ",", f.url, ",", f.chrome);
}

std::optional<FieldWeights> parse_field_weights(const std::string& text) {
  FieldWeights f;
  char end;
  if (std::sscanf(text.c_str(), "%d,%d,%d,%d,%d%c", &f.title, &f.text, &f.anchor, &f.url, &f.chrome,
                  &end) == 5) {
    return f;
  }
  f.chrome = 0;
  if (std::sscanf(text.c_str(), "%d,%d,%d,%d%c", &f.title, &f.text, &f.anchor, &f.url, &end) == 4) {
    return f;
  }
  return std::nullopt;
}

std::optional<IndexInfo> search_index_info(const Database& db) {
  const fs::path file = db.path() / kIndexFile;
  std::error_code ec;
  if (!fs::exists(file, ec)) return std::nullopt;
  IndexInfo info;
  info.path = file;
  info.bytes = fs::file_size(file, ec);
  try {
    Xapian::Database x(file.string());
    const std::string version = x.get_metadata(search::kMetaVersion);
    if (version.empty()) {
      fail(ErrorKind::kCorrupt, file.string(), ": not a webrank search index (no version)");
    }
    info.version = std::stoi(version);
    if (info.version != search::kIndexVersion) {
      fail(ErrorKind::kCorrupt, file.string(), ": index version ", info.version,
           ", this webrank reads version ", search::kIndexVersion, ": rebuild it with `index`");
    }
    if (x.get_metadata(search::kMetaDatabase) != search::database_identity(db)) {
      fail(ErrorKind::kCorrupt, file.string(),
           ": built for another database (the database was rebuilt or copied since): rebuild "
           "it with `index`");
    }
    info.documents = x.get_doccount();
    info.built = x.get_metadata(search::kMetaBuilt);
    const auto fields = parse_field_weights(x.get_metadata(search::kMetaFields));
    if (!fields) fail(ErrorKind::kCorrupt, file.string(), ": no field weights recorded");
    info.field_weights = *fields;
  } catch (const Xapian::Error& e) {
    fail(ErrorKind::kCorrupt, file.string(), ": damaged search index (", e.get_type(), ": ",
         e.get_msg(), "): rebuild it with `index`");
  }
  return info;
}

}  // namespace webrank
