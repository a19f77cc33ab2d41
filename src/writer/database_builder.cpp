#include "writer/database_builder.hpp"

#include <malloc.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "store/database_version.hpp"
#include "store/db_layout.hpp"
#include "store/label_table.hpp"
#include "store/manifest_seal.hpp"
#include "store/manifest_section.hpp"
#include "store/section_file.hpp"
#include "util/atomic_file.hpp"
#include "util/fresh_memory.hpp"
#include "util/parallel.hpp"
#include "webrank/store/database.hpp"
#include "webrank/util/error.hpp"
#include "webrank/util/units.hpp"
#include "webrank/writer/database_writer.hpp"
#include "writer/csr_builder.hpp"
#include "writer/external_csr.hpp"
#include "writer/link_runs.hpp"
#include "writer/page_data_builder.hpp"
#include "writer/page_order.hpp"

namespace webrank {
namespace fs = std::filesystem;
namespace {

// Collects the records of all inputs: labels interned in first-appearance order, links as
// parallel arrays of ids (and weights). Links between numeric labels (SNAP-style and generated
// graphs) are queued and interned in batches, in input order, so that their label lookups
// overlap (see LabelTable::intern_numbers); any other record first flushes the queue, which
// keeps first-appearance order exact. Call flush() after the last record.
//
// When an in-memory build of the links collected so far would pass the memory budget, they are
// sorted into a run file in `spill_dir` (link_runs.hpp) and collecting starts over; the runs are
// merged into the link sections at the end (external_csr.hpp).
class Collector : public RecordSink {
 public:
  // `why_not_spill`: if not empty, the reason links must stay in memory (an error past budget).
  Collector(bool weighted, std::uint64_t memory_budget, fs::path spill_dir,
            std::string why_not_spill)
      : weighted_(weighted),
        budget_(memory_budget),
        spill_dir_(std::move(spill_dir)),
        why_not_spill_(std::move(why_not_spill)) {}
  void page(std::string_view label) override {
    flush();
    labels.intern(label);
  }
  void link(std::string_view source, std::string_view target, double weight) override {
    std::uint32_t s, t;
    if (LabelTable::is_number(source, &s) && LabelTable::is_number(target, &t)) {
      queued_.push_back(s);
      queued_.push_back(t);
      if (weighted_) weights.push_back(weight);
      if (queued_.size() >= kBatch) flush();
      return;
    }
    flush();
    sources.push_back(labels.intern(source));
    targets.push_back(labels.intern(target));
    if (weighted_) weights.push_back(weight);
    if (sources.size() >= next_check_) check_memory();
  }
  // The mapped reader's batches (a chunk's run of numeric links): interned at once, after the
  // links queued by link().
  void numeric_links(const std::uint32_t* pairs, std::size_t n, const double* w) override {
    flush();
    if (n > kCheckEvery && in_memory_peak() + n * peak_bytes_per_link() > budget_) {
      // The budget may be reached within the batch: check it every kCheckEvery links.
      for (std::size_t at = 0; at < n; at += kCheckEvery) {
        const std::size_t k = std::min<std::size_t>(kCheckEvery, n - at);
        numeric_links(pairs + 2 * at, k, w ? w + at : nullptr);
      }
      return;
    }
    const std::size_t at = sources.size();
    sources.resize(at + n);
    targets.resize(at + n);
    labels.intern_number_pairs(pairs, n, sources.data() + at, targets.data() + at);
    added_links(n, w);
  }
  void label_links(const std::string_view* l, std::size_t n, const double* w) override {
    flush();
    ids_.resize(2 * n);
    labels.intern_batch(l, 2 * n, ids_.data());
    for (std::size_t i = 0; i < n; ++i) {
      sources.push_back(ids_[2 * i]);
      targets.push_back(ids_[2 * i + 1]);
    }
    added_links(n, w);
  }
  // Bookkeeping after n links were appended: their weights (w, or 1 each when absent) and the
  // memory budget.
  void added_links(std::size_t n, const double* w) {
    if (weighted_) {
      if (w) {
        weights.insert(weights.end(), w, w + n);
      } else {
        weights.resize(weights.size() + n, 1.0);
      }
    }
    if (sources.size() >= next_check_) check_memory();
  }
  void expect_pages(std::uint64_t n, std::uint64_t reader_bytes, std::string_view where) override {
    // Each page costs its counters and label slots (in_memory_peak()) and its label's bytes: at
    // least a digit.
    const std::uint64_t threads = static_cast<std::uint64_t>(omp_get_max_threads());
    const std::uint64_t per_page = 8 * threads + 16 + 8 + 8 + 1 + reader_bytes;
    const std::uint64_t fits = (budget_ - std::min(budget_, in_memory_peak())) / per_page;
    if (n <= fits) return;
    fail(ErrorKind::kInvalidInput, where, ": declares ", n, " pages, which need at least ",
         format_bytes(static_cast<double>(n) * static_cast<double>(per_page)),
         " of memory, more than the memory budget (", format_bytes(static_cast<double>(budget_)),
         "; ", fits, " pages fit): raise ", option_ref("memory_budget"),
         " if the machine has the memory, or check the file");
  }
  void expect_links(std::uint64_t n) override {
    // Never more than a run's worth: past the budget the arrays are spilled, not grown.
    const bool fits = in_memory_peak() + n * peak_bytes_per_link() <= budget_;
    n = std::min(n, budget_ / peak_bytes_per_link());
    reserve_huge(sources, sources.size() + n);
    reserve_huge(targets, targets.size() + n);
    if (weighted_) weights.reserve(weights.size() + n);
    // Faulted in ahead only if all of it will be filled: a build that spills runs fills only
    // a run's worth, and faulting in the rest would pass the budget.
    for (auto* v : {&sources, &targets}) {
      if (fits) populate_in_parallel(v->data() + v->size(), n * sizeof(PageId));
    }
  }
  void flush() {
    if (queued_.empty()) return;
    if (sources.size() + queued_.size() / 2 > sources.capacity()) {
      // Grown here rather than by push_back, so that the arrays get huge pages (the sorts
      // scatter into them); the streaming reader gives no size hint to reserve them up front.
      reserve_huge(sources, 2 * sources.capacity() + queued_.size());
      reserve_huge(targets, 2 * targets.capacity() + queued_.size());
    }
    ids_.resize(queued_.size());
    labels.intern_numbers(queued_.data(), queued_.size(), ids_.data());
    for (std::size_t i = 0; i < ids_.size(); i += 2) {
      sources.push_back(ids_[i]);
      targets.push_back(ids_[i + 1]);
    }
    queued_.clear();
    if (sources.size() >= next_check_) check_memory();
  }
  void relabel(std::string_view from, std::string_view to, std::string_view where) override {
    auto [it, inserted] =
        relabels_.try_emplace(std::string(from), Relabel{std::string(to), std::string(where)});
    if (!inserted) {
      fail(ErrorKind::kInvalidInput, where, ": '", from, "' was already given a label at ",
           it->second.where);
    }
  }
  // Applies the relabel() requests to the pages read (after the last record). Returns how many
  // pages got a new label; unused_labels() counts the requests naming no page.
  std::uint64_t apply_relabels() {
    if (relabels_.empty()) return 0;
    flush();
    LabelTable relabeled;
    std::uint64_t used = 0;
    for (PageId u = 0; u < labels.size(); ++u) {
      const auto it = relabels_.find(std::string(labels.label(u)));
      const std::string_view label = it == relabels_.end() ? labels.label(u) : it->second.to;
      if (it != relabels_.end()) ++used;
      const PageId id = relabeled.intern(label);
      if (id != u) {
        const auto other = relabels_.find(std::string(labels.label(id)));
        fail(ErrorKind::kInvalidInput,
             it != relabels_.end()      ? it->second.where
             : other != relabels_.end() ? other->second.where
                                        : "labels",
             ": page '", labels.label(u), "' would be labelled '", label,
             "', which is already the label of page '", labels.label(id),
             "' (labels must stay distinct)");
      }
    }
    unused_labels_ = relabels_.size() - used;
    labels = std::move(relabeled);
    relabels_.clear();
    return used;
  }
  std::uint64_t unused_labels() const { return unused_labels_; }
  void note(std::string_view sentence) override { notes.emplace_back(sentence); }
  std::vector<std::string> notes;
  // Crawled pages: their data goes to the page sections, their followed links to the web.
  void page_record(const PageRecord& r) override {
    flush();
    if (page_data.empty()) page_data.spill_to(spill_dir_);
    if (!page_data.add(r, [this](std::string_view l) { return labels.intern(l); })) return;
    for (const PageLink& l : r.links) {
      if (!l.nofollow) link(r.url, l.target, 1.0);
    }
  }

  // Sorts the links held in memory into a new run file and frees them.
  void spill() {
    flush();
    if (sources.empty()) return;
    const std::size_t links = sources.size();
    spilled_links_ += links;
    runs_.push_back(spill_dir_ / cat(".links-run-", runs_.size()));
    write_link_run(runs_.back(), labels.size(), std::move(sources), std::move(targets),
                   std::move(weights));
    sources.reserve(links);  // the next run will be as long
    targets.reserve(links);
    if (weighted_) weights.reserve(links);
    next_check_ = kCheckEvery;
  }
  const std::vector<fs::path>& runs() const { return runs_; }
  // The labels and their lookup tables: label bytes, offsets, about 8 bytes per page of index.
  std::uint64_t label_memory() const {
    return labels.bytes().capacity() + 8 * labels.offsets().capacity() +
           8 * std::uint64_t{labels.size()};
  }
  std::uint64_t links() const { return spilled_links_ + sources.size() + queued_.size() / 2; }

  LabelTable labels;
  PageDataCollector page_data;
  std::vector<PageId> sources, targets;
  std::vector<double> weights;

 private:
  static constexpr std::size_t kBatch = 1 << 16;
  // build_csr's peak per link: the input arrays, the by-target lists and the two-pass sort's
  // copies of its largest range (see csr_builder.cpp).
  static constexpr std::uint64_t kPeakBytesPerLink = 14, kPeakBytesPerWeightedLink = 34;
  static constexpr std::uint64_t kCheckEvery = 1 << 12;
  // What the parallel reader holds besides the links: chunks of text and parsed records in flight.
  static constexpr std::uint64_t kReaderBytes = std::uint64_t{64} << 20;
  // Runs shorter than this are not worth a file, whatever the budget; it doubles every 256 runs
  // so that a budget far too small for the web still gives a bounded number of open runs.
  static constexpr std::uint64_t kMinRunLinks = 1 << 10;

  // The links of a run get at least a quarter of the budget, even when the pages take the rest
  // or more (the budget is then exceeded, but runs stay long enough to merge efficiently).
  std::uint64_t min_run_links() const {
    return std::max(kMinRunLinks << (runs_.size() / 256), budget_ / 4 / peak_bytes_per_link());
  }

  std::uint64_t peak_bytes_per_link() const {
    return weighted_ ? kPeakBytesPerWeightedLink : kPeakBytesPerLink;
  }
  // The memory an in-memory build of what is collected would need at its peak: build_csr's
  // bytes per link, its per-thread per-page counters and the labels with their lookup tables.
  std::uint64_t in_memory_peak() const {
    const std::uint64_t pages = labels.size();
    const std::uint64_t threads = static_cast<std::uint64_t>(omp_get_max_threads());
    return sources.size() * peak_bytes_per_link() + pages * (8 * threads + 16) + label_memory() +
           kReaderBytes;
  }
  void check_memory() {
    next_check_ = sources.size() + kCheckEvery;
    if (in_memory_peak() <= budget_) return;
    if (sources.size() < min_run_links()) return;
    if (!why_not_spill_.empty()) {
      fail(ErrorKind::kInvalidArgument, why_not_spill_,
           ", and this web's links exceed the memory budget (",
           format_bytes(static_cast<double>(budget_)), "); raise ", option_ref("memory_budget"),
           " or build with ", option_ref("order"), " input");
    }
    spill();
  }

  bool weighted_;
  std::uint64_t budget_;
  fs::path spill_dir_;
  std::string why_not_spill_;
  std::vector<std::uint32_t> queued_;
  std::vector<PageId> ids_;
  std::uint64_t next_check_ = kCheckEvery;
  std::uint64_t spilled_links_ = 0;
  std::vector<fs::path> runs_;
  struct Relabel {
    std::string to, where;
  };
  std::unordered_map<std::string, Relabel> relabels_;
  std::uint64_t unused_labels_ = 0;
};

}  // namespace

void report_progress(const BuildOptions& o, const BuildProgress& progress) {
  if (o.on_progress) o.on_progress(progress);
  if (o.stop.stop_requested()) fail(ErrorKind::kCancelled, "build stopped by request");
}

namespace {

void check_destination(const BuildOptions& o) {
  if (o.inputs.empty()) fail_option("inputs", "are empty: nothing to build");
  if (o.output.empty()) fail_option("output", "is empty: no database to write");
  std::error_code ec;
  if (!fs::exists(o.output, ec)) return;
  // --force replaces databases only: it is suggested only where it would work.
  if (!fs::is_directory(o.output) || !fs::exists(o.output / layout::kManifest)) {
    fail(ErrorKind::kExists, o.output.string(),
         ": exists and is not a webrank database; refusing to replace it (choose another "
         "output path)");
  }
  if (!o.force) {
    fail(ErrorKind::kExists, o.output.string(), ": already exists; pass ", option_ref("force"),
         " to replace it (the existing database is kept until the new one is complete)");
  }
}

// The link sections from the links in memory: build_csr, then --order, then the statistics.
DatabaseStats write_links_in_memory(const BuildOptions& o, Collector& c, const fs::path& dir,
                                    nlohmann::json& manifest, BuildProgress& progress) {
  progress.stage = "sorting";
  report_progress(o, progress);
  CsrLinks csr =
      build_csr(c.labels.size(), std::move(c.sources), std::move(c.targets), std::move(c.weights));
  if (o.order != PageOrder::kInput) {
    if (!c.page_data.empty()) {
      fail_option("order", to_string(o.order),
                  " is not supported for crawled webs (their page data is kept in input order); "
                  "build them with ",
                  option_ref("order"), " input");
    }
    progress.stage = "ordering";
    report_progress(o, progress);
    const std::vector<PageId> new_id =
        page_order(o.order, csr, c.labels.size(), [&](PageId u) { return c.labels.label(u); });
    csr = renumber(std::move(csr), new_id);
    c.labels.renumber(new_id);
  }

  DatabaseStats stats;
  stats.pages = c.labels.size();
  stats.links = csr.out_ids.size();
  std::uint64_t self_links = 0, dangling = 0;
#pragma omp parallel for schedule(dynamic, 4096) reduction(+ : self_links, dangling) \
    if (stats.pages >= kMinParallelPages)
  for (std::int64_t u = 0; u < static_cast<std::int64_t>(stats.pages); ++u) {
    double strength = 0;
    for (std::uint64_t i = csr.out_offsets[u]; i < csr.out_offsets[u + 1]; ++i) {
      if (csr.out_ids[i] == u) ++self_links;
      strength += o.weighted ? csr.out_weights[i] : 1.0;
    }
    if (strength == 0) ++dangling;
  }
  stats.self_links = self_links;
  stats.dangling_pages = static_cast<PageId>(dangling);

  progress.stage = "writing";
  report_progress(o, progress);
  // Copying into the page cache runs at a few GB/s per core: the two directions are written by
  // two threads, each listing its sections in its own manifest part.
  nlohmann::json forward, backward;
  concurrently(
      [&] {
        write_section(dir, layout::kFwdOffsets, csr.out_offsets, forward);
        write_section(dir, layout::kFwdTargets, csr.out_ids, forward);
        if (o.weighted) write_section(dir, layout::kFwdWeights, csr.out_weights, forward);
      },
      [&] {
        write_section(dir, layout::kBwdOffsets, csr.in_offsets, backward);
        write_section(dir, layout::kBwdSources, csr.in_ids, backward);
        if (o.weighted) write_section(dir, layout::kBwdWeights, csr.in_weights, backward);
      });
  for (const nlohmann::json* part : {&forward, &backward}) {
    for (const auto& [file, entry] : (*part)["sections"].items())
      manifest["sections"][file] = entry;
  }
  return stats;
}

// The link sections from the runs spilled while reading (and the links still in memory).
DatabaseStats write_links_external(const BuildOptions& o, std::uint64_t budget, Collector& c,
                                   const fs::path& dir, nlohmann::json& manifest,
                                   BuildProgress& progress) {
  c.spill();
  const ExternalLinkStats s = write_links_from_runs(
      dir, c.labels.size(), c.runs(), o.weighted, budget - std::min(budget, c.label_memory()),
      manifest, [&](const std::string& stage, std::uint64_t done, std::uint64_t total) {
        progress.stage = stage;
        progress.bytes_read = done;
        progress.bytes_total = total;
        report_progress(o, progress);
      });
  DatabaseStats stats;
  stats.pages = c.labels.size();
  stats.links = s.links;
  stats.self_links = s.self_links;
  stats.dangling_pages = s.dangling_pages;
  progress.stage = "writing";
  report_progress(o, progress);
  return stats;
}

}  // namespace

BuildReport write_database(const BuildOptions& o, const RecordFeeder& feed) {
  const auto start = std::chrono::steady_clock::now();
  const ThreadCount threads(o.threads);
  check_destination(o);
  BuildReport report;
  // The database is written into a temporary directory, which also holds spilled runs of links:
  // a failure or an interruption at any point removes both.
  TempPath tmp(o.output);
  tmp.make_directory();
  const fs::path dir = tmp.path();
  const std::uint64_t budget = o.memory_budget ? o.memory_budget : default_memory_budget();
  Collector c(o.weighted, budget, dir,
              o.order == PageOrder::kInput ? ""
                                           : cat(option_ref("order"), " ", to_string(o.order),
                                                 " needs all links in memory"));

  BuildProgress progress;
  report.lines = feed(c, progress);
  c.flush();
  report.relabeled_pages = c.apply_relabels();
  report.notes = c.notes;
  report.unused_labels = c.unused_labels();
  // Chunks parsed on other threads were freed into those threads' malloc arenas, which keep
  // the memory resident; hand it back before the sorting needs it.
  ::malloc_trim(0);
  std::string names;
  for (const auto& in : o.inputs)
    names += (names.empty() ? "" : ", ") + (in == "-" ? "<stdin>" : in);
  if (c.labels.size() == 0)
    fail(ErrorKind::kInvalidInput, names, ": no links or pages found (empty input?)");

  report.pages = c.labels.size();
  report.input_links = c.links();
  report.spilled_runs = c.runs().size();
  nlohmann::json manifest;
  DatabaseStats stats = c.runs().empty()
                            ? write_links_in_memory(o, c, dir, manifest, progress)
                            : write_links_external(o, budget, c, dir, manifest, progress);
  stats.weighted = o.weighted;
  report.links = stats.links;
  report.self_links = stats.self_links;
  report.spilled_runs = c.runs().size();

  manifest["format"] = layout::kFormatName;
  manifest["version"] = kDatabaseFormatVersion;
  manifest["pages"] = stats.pages;
  manifest["links"] = stats.links;
  manifest["dangling_pages"] = stats.dangling_pages;
  manifest["self_links"] = stats.self_links;
  manifest["weighted"] = stats.weighted;
  manifest["input_links"] = report.input_links;
  manifest["inputs"] = o.inputs;
  manifest["order"] = to_string(o.order);
  write_section(dir, layout::kLabelOffsets, c.labels.offsets(), manifest);
  write_section(dir, layout::kLabelBytes, c.labels.bytes(), manifest);
  write_section(dir, layout::kLabelIndex, c.labels.slots(), manifest);
  if (!c.page_data.empty()) {
    progress.stage = "writing page data";
    report_progress(o, progress);
    c.page_data.write(
        dir, stats.pages, [&](PageId id) { return c.labels.label(id); }, manifest);
  }
  manifest[kGenerationKey] = generation_for(manifest);
  seal_manifest(manifest);
  {
    AtomicFileWriter w(dir / layout::kManifest);
    w.write(manifest.dump(2) + "\n");
    w.commit();
  }
  {
    // A database replaced (--force) is locked while its name changes hands: a vector being
    // stored into it meanwhile is stored before (and goes with it) or refused after.
    const std::optional<DatabaseLock> lock =
        o.force ? std::optional<DatabaseLock>(std::in_place, o.output) : std::nullopt;
    tmp.commit(/*replace_dir=*/o.force);
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace webrank
