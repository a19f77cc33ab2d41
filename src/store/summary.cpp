// summarize() (webrank/store/summary.hpp).
#include "webrank/store/summary.hpp"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "store/db_layout.hpp"
#include "webrank/store/paths.hpp"
#include "webrank/store/rank_store.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

DegreeStats degree_stats(const Adjacency& a, PageId n) {
  std::vector<std::uint64_t> deg(n);
  for (PageId u = 0; u < n; ++u) deg[u] = a.degree(u);
  DegreeStats s;
  s.zero = static_cast<std::uint64_t>(std::count(deg.begin(), deg.end(), 0));
  s.mean = static_cast<double>(a.offsets[n]) / n;
  std::nth_element(deg.begin(), deg.begin() + n / 2, deg.end());
  s.median = deg[n / 2];
  auto [lo, hi] = std::minmax_element(deg.begin(), deg.end());
  s.min = *lo;
  s.max = *hi;
  return s;
}

CrawlStats crawl_stats(const Database& db) {
  CrawlStats c;
  std::map<int, std::uint64_t> by_class;  // 200, 300, 400, 500
  std::unordered_map<std::uint64_t, int> seen_hashes;
  for (PageId u = 0; u < db.num_pages(); ++u) {
    const int status = db.status(u).value_or(0);
    if (status == 0) continue;
    ++c.fetched_pages;
    ++by_class[status / 100 * 100];
    if (const auto t = db.title(u); t && !t->empty()) ++c.pages_with_title;
    if (const auto h = db.content_hash(u); h && *h != 0 && seen_hashes[*h]++ > 0)
      ++c.exact_duplicates;
  }
  c.not_fetched_pages = db.num_pages() - c.fetched_pages;
  for (const auto& [cls, n] : by_class) c.status_classes[std::to_string(cls / 100) + "xx"] = n;
  c.nofollow_links = db.num_nofollow_links();
  return c;
}

// The bytes of the regular files under `dir`. Writers of the same database (a vector stored, a
// search index built) create, rename and remove files while this lists them: a file or folder
// gone between the listing and its size is not counted, instead of failing the whole summary.
std::uint64_t bytes_under(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  std::uint64_t bytes = 0;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::file_status st = it->symlink_status(ec);
    if (ec) {
      ec.clear();
      continue;
    }
    if (fs::is_directory(st)) {
      bytes += bytes_under(it->path());
    } else if (fs::is_regular_file(st)) {
      const std::uintmax_t size = fs::file_size(it->path(), ec);
      if (!ec) bytes += size;
      ec.clear();
    }
  }
  return bytes;
}

// The summary of vector `name`, or nullopt when it was deleted since the names were listed.
std::optional<RankVectorSummary> summary_if_stored(const Database& db, const std::string& name) {
  RankVectorSummary r = summarize_ranks(db, name);
  if (!r.found) return std::nullopt;
  return r;
}

}  // namespace

std::vector<RankVectorSummary> summarize_stored_ranks(const Database& db) {
  std::vector<RankVectorSummary> out;
  for (const auto& name : db.rank_names()) {
    if (auto r = summary_if_stored(db, name)) out.push_back(std::move(*r));
  }
  return out;
}

RankVectorSummary summarize_ranks(const Database& db, const std::string& name) {
  RankVectorSummary r;
  r.name = name;
  std::error_code ec;
  const RankVectorFiles files = rank_vector_files(db.path(), name);
  for (const std::filesystem::path& file : {files.values, files.record}) {
    const auto size = std::filesystem::file_size(file, ec);
    if (!ec) r.bytes += size;
  }
  try {
    r.record = load_ranks(db, name).record;
  } catch (const Error& e) {
    r.error = e.what();
    r.found = e.kind() != ErrorKind::kNotFound;
  } catch (const std::exception& e) {
    r.error = e.what();
  }
  return r;
}

DatabaseSummary summarize(const Database& db) {
  DatabaseSummary s;
  s.path = db.path().string();
  s.stats = db.stats();
  const GraphView& g = db.graph();
  s.out_degree = degree_stats(g.out, s.stats.pages);
  s.in_degree = degree_stats(g.in, s.stats.pages);
  for (PageId u = 0; u < s.stats.pages; ++u) {
    s.isolated_pages += g.out.degree(u) == 0 && g.in.degree(u) == 0;
  }
  s.bytes_on_disk = bytes_under(db.path());
  if (db.has_page_data()) s.crawl = crawl_stats(db);
  s.ranks = summarize_stored_ranks(db);
  return s;
}

}  // namespace webrank
