// Cutting a database into parts for a distributed solve (webrank/mpi/distributed.hpp).
//
// Part k is the range of page ids [b_k, b_{k+1}): consecutive ids keep a crawl's locality (a
// site's pages, numbered together, mostly link to each other and land in the same part, which
// is what keeps the exchange small). The ranges are balanced by links: b_k is the first page u
// where (backlinks of the pages before u) + u reaches k/P of (links + pages), so that work per
// part, about a link each plus a page each, is even. Each part is one sequential pass over its
// slice of the backlinks; the slice is released from memory once written.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#include "mpi/parts.hpp"
#include "rank/kernels.hpp"
#include "store/db_layout.hpp"
#include "store/section_file.hpp"
#include "util/atomic_file.hpp"
#include "util/mapped_file.hpp"
#include "util/parallel.hpp"
#include "webrank/mpi/distributed.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace fs = std::filesystem;

namespace {

std::vector<PageId> balanced_boundaries(const Adjacency& in, PageId n, int parts) {
  const double total = static_cast<double>(in.offsets[n]) + n;
  std::vector<PageId> b(parts + 1, 0);
  b[parts] = n;
  for (int k = 1; k < parts; ++k) {
    const double target = total * k / parts;
    // The first u in [b[k-1], n] whose cost offsets[u] + u reaches the target (monotone).
    PageId lo = b[k - 1], hi = n;
    while (lo < hi) {
      const PageId mid = lo + (hi - lo) / 2;
      if (static_cast<double>(in.offsets[mid]) + mid >= target) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    b[k] = lo;
  }
  return b;
}

void check_destination(const PartitionOptions& o) {
  if (o.output.empty()) fail_option("output", "is empty: no parts directory to write");
  std::error_code ec;
  if (!fs::exists(o.output, ec)) return;
  if (!o.force)
    fail(ErrorKind::kExists, o.output.string(),
         ": already exists; pass --force to replace it (the existing parts are kept until the "
         "new ones are complete)");
  std::ifstream in(o.output / parts::kManifest);
  nlohmann::json m = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!fs::is_directory(o.output, ec) || !m.is_object() ||
      m.value("format", "") != parts::kFormatName)
    fail(ErrorKind::kExists, o.output.string(),
         ": exists and is not a parts directory of `webrank partition`; refusing to replace it");
}

// Writes a section from a span, listing it in `sections`.
template <typename T>
void write(const fs::path& dir, int part, const char* name, std::span<const T> data,
           nlohmann::json& sections) {
  SectionWriter w(dir / parts::file_name(part, name), name, sizeof(T));
  w.append(data);
  sections[name] = {{"count", data.size()}, {"xxh3", checksum_hex(w.finish())}};
}

// The database's own manifest "sections": the checksums that identify this version of it.
nlohmann::json database_sections(const Database& db) {
  std::ifstream in(db.path() / layout::kManifest);
  nlohmann::json m = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  return m.is_object() ? m.value("sections", nlohmann::json::object()) : nlohmann::json::object();
}

}  // namespace

PartitionReport partition_database(const Database& db, const PartitionOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const ThreadCount threads(o.threads);
  const GraphView& g = db.graph();
  const PageId n = g.num_pages;
  if (o.parts < 1 || static_cast<std::uint64_t>(o.parts) > n)
    fail_option("parts", "must be between 1 and the number of pages (", n, "), got ", o.parts);
  check_destination(o);
  TempPath tmp(o.output);
  tmp.make_directory();
  const fs::path dir = tmp.path();

  PartitionReport report;
  report.pages = n;
  report.links = g.num_links;
  const std::vector<PageId> b = balanced_boundaries(g.in, n, o.parts);
  nlohmann::json list = nlohmann::json::array();
  std::vector<std::uint64_t> marks((std::uint64_t{n} + 63) / 64);  // remote pages of a part
  for (int k = 0; k < o.parts; ++k) {
    if (o.stop.stop_requested()) fail(ErrorKind::kCancelled, "partition stopped by request");
    const PageId lo = b[k], hi = b[k + 1];
    const std::uint64_t first = g.in.offsets[lo], last = g.in.offsets[hi];
    nlohmann::json sections = nlohmann::json::object();

    std::vector<std::uint64_t> offsets(hi - lo + 1);
    for (PageId u = lo; u <= hi; ++u) offsets[u - lo] = g.in.offsets[u] - first;
    write(dir, k, parts::kOffsets, std::span<const std::uint64_t>(offsets), sections);
    const std::span<const PageId> sources = g.in.ids.subspan(first, last - first);
    write(dir, k, parts::kSources, sources, sections);
    if (g.weighted())
      write(dir, k, parts::kWeights, g.in.weights.subspan(first, last - first), sections);

    std::vector<double> strength(hi - lo);
#pragma omp parallel for schedule(static) if (hi - lo >= kMinParallelPages)
    for (std::int64_t u = lo; u < static_cast<std::int64_t>(hi); ++u) {
      strength[u - lo] = kernels::out_strength(g, static_cast<PageId>(u));
    }
    write(dir, k, parts::kStrength, std::span<const double>(strength), sections);

    std::fill(marks.begin(), marks.end(), 0);
    for (PageId s : sources) {
      if (s < lo || s >= hi) marks[s / 64] |= std::uint64_t{1} << (s % 64);
    }
    std::vector<PageId> remote;
    for (std::uint64_t w = 0; w < marks.size(); ++w) {
      for (std::uint64_t bits = marks[w]; bits != 0; bits &= bits - 1)
        remote.push_back(static_cast<PageId>(64 * w + __builtin_ctzll(bits)));
    }
    write(dir, k, parts::kRemote, std::span<const PageId>(remote), sections);

    // This part's slice of the database has been read once: out of the resident memory.
    release_pages(sources.data(), sources.size_bytes());
    release_pages(g.in.offsets.data() + lo, 8 * std::uint64_t{hi - lo + 1});
    release_pages(g.out.offsets.data() + lo, 8 * std::uint64_t{hi - lo + 1});
    if (g.weighted()) {
      release_pages(g.in.weights.data() + first, 8 * (last - first));
      const std::uint64_t out_first = g.out.offsets[lo], out_last = g.out.offsets[hi];
      release_pages(g.out.weights.data() + out_first, 8 * (out_last - out_first));
    }

    PartInfo info{lo, hi - lo, last - first, remote.size()};
    report.parts.push_back(info);
    list.push_back({{"first_page", lo},
                    {"pages", hi - lo},
                    {"links", last - first},
                    {"remote_pages", remote.size()},
                    {"sections", sections}});
    if (o.on_progress) o.on_progress({k + 1, o.parts});
  }

  nlohmann::json m = {{"format", parts::kFormatName},
                      {"version", parts::kVersion},
                      {"parts", o.parts},
                      {"pages", n},
                      {"links", g.num_links},
                      {"weighted", g.weighted()},
                      {"boundaries", b},
                      {"database", fs::absolute(db.path()).lexically_normal().string()},
                      {"database_sections", database_sections(db)},
                      {"part_list", list}};
  {
    AtomicFileWriter w(dir / parts::kManifest);
    w.write(m.dump(2) + "\n");
    w.commit();
  }
  tmp.commit(/*replace_dir=*/o.force);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

std::filesystem::path parts_database(const std::filesystem::path& parts_dir) {
  return parts::read_manifest(parts_dir).database;
}

void check_parts_database(const std::filesystem::path& parts_dir, const Database& db) {
  const parts::Manifest m = parts::read_manifest(parts_dir);
  if (db.num_pages() != m.pages || db.num_links() != m.links ||
      database_sections(db) != m.database_sections) {
    fail(ErrorKind::kInvalidArgument, parts_dir.string(), " was cut from another version of ",
         m.database, " (its links or labels have changed since): run `webrank partition` again");
  }
}

}  // namespace webrank
