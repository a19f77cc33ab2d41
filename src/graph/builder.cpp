#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "graph/csr_builder.hpp"
#include "graph/db_layout.hpp"
#include "graph/edge_list_reader.hpp"
#include "graph/input_formats.hpp"
#include "graph/label_table.hpp"
#include "graph/manifest_section.hpp"
#include "graph/page_data_builder.hpp"
#include "graph/page_order.hpp"
#include "graph/section_file.hpp"
#include "util/atomic_file.hpp"
#include "webrank/build.hpp"
#include "webrank/database.hpp"
#include "webrank/error.hpp"

namespace webrank {
namespace fs = std::filesystem;
namespace {

// Collects the records of all inputs: labels interned in first-appearance order, links as
// parallel arrays of ids (and weights). Links between numeric labels (SNAP-style and generated
// graphs) are queued and interned in batches, in input order, so that their label lookups
// overlap (see LabelTable::intern_numbers); any other record first flushes the queue, which
// keeps first-appearance order exact. Call flush() after the last record.
class Collector : public EdgeListSink {
 public:
  explicit Collector(bool weighted) : weighted_(weighted) {}
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
  }
  // The mapped reader's batches (a chunk's run of numeric links): interned at once, after the
  // links queued by link().
  void numeric_links(const std::uint32_t* pairs, std::size_t n, const double* w) override {
    flush();
    ids_.resize(2 * n);
    labels.intern_numbers(pairs, 2 * n, ids_.data());
    const std::size_t at = sources.size();
    sources.resize(at + n);
    targets.resize(at + n);
    for (std::size_t i = 0; i < n; ++i) {
      sources[at + i] = ids_[2 * i];
      targets[at + i] = ids_[2 * i + 1];
    }
    if (weighted_) {
      if (w) {
        weights.insert(weights.end(), w, w + n);
      } else {
        weights.resize(weights.size() + n, 1.0);
      }
    }
  }
  void expect_links(std::uint64_t n) override {
    sources.reserve(sources.size() + n);
    targets.reserve(targets.size() + n);
    if (weighted_) weights.reserve(weights.size() + n);
  }
  void flush() {
    if (queued_.empty()) return;
    ids_.resize(queued_.size());
    labels.intern_numbers(queued_.data(), queued_.size(), ids_.data());
    for (std::size_t i = 0; i < ids_.size(); i += 2) {
      sources.push_back(ids_[i]);
      targets.push_back(ids_[i + 1]);
    }
    queued_.clear();
  }
  // Crawled pages: their data goes to the page sections, their followed links to the web.
  void page_record(const PageRecord& r) override {
    flush();
    if (!page_data.add(r, [this](std::string_view l) { return labels.intern(l); })) return;
    for (const PageLink& l : r.links) {
      if (!l.nofollow) link(r.url, l.target, 1.0);
    }
  }

  LabelTable labels;
  PageDataCollector page_data;
  std::vector<PageId> sources, targets;
  std::vector<double> weights;

 private:
  static constexpr std::size_t kBatch = 1 << 16;
  bool weighted_;
  std::vector<std::uint32_t> queued_;
  std::vector<PageId> ids_;
};

void check_destination(const BuildOptions& o) {
  if (o.inputs.empty()) fail("build: no input given");
  if (o.output.empty()) fail("build: no output database given (-o DB)");
  std::error_code ec;
  if (!fs::exists(o.output, ec)) return;
  if (!o.force) {
    fail(o.output.string(),
         ": already exists; pass --force to replace it (the existing database "
         "is kept until the new one is complete)");
  }
  if (!fs::is_directory(o.output) || !fs::exists(o.output / layout::kManifest)) {
    fail(o.output.string(), ": exists and is not a webrank database; refusing to replace it");
  }
}

}  // namespace

BuildReport build_database(const BuildOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  check_destination(o);
  BuildReport report;
  Collector c(o.weighted);

  BuildProgress progress;
  for (const auto& in : o.inputs) progress.bytes_total += input_size(in);
  progress.stage = "reading";
  std::uint64_t done_before = 0;
  for (const auto& in : o.inputs) {
    const InputFormat& format = find_input_format(o.format, in);
    report.lines += format.read(in, o.weighted, c, [&](std::uint64_t bytes) {
      progress.bytes_read = done_before + bytes;
      if (o.on_progress) o.on_progress(progress);
    });
    done_before = progress.bytes_read;
  }
  c.flush();
  std::string names;
  for (const auto& in : o.inputs)
    names += (names.empty() ? "" : ", ") + (in == "-" ? "<stdin>" : in);
  if (c.labels.size() == 0) fail(names, ": no links or pages found (empty input?)");

  report.pages = c.labels.size();
  report.input_links = c.sources.size();
  progress.stage = "sorting";
  if (o.on_progress) o.on_progress(progress);
  CsrLinks csr =
      build_csr(c.labels.size(), std::move(c.sources), std::move(c.targets), std::move(c.weights));
  report.links = csr.out_ids.size();
  if (o.order != "input") {
    if (!c.page_data.empty()) {
      fail("--order ", o.order,
           " is not supported for crawled webs (their page data is kept in "
           "input order); build them with --order input");
    }
    progress.stage = "ordering";
    if (o.on_progress) o.on_progress(progress);
    const std::vector<PageId> new_id = page_order(o.order, csr, c.labels.size());
    csr = renumber(std::move(csr), new_id);
    c.labels.renumber(new_id);
  }

  DatabaseStats stats;
  stats.pages = report.pages;
  stats.links = report.links;
  stats.weighted = o.weighted;
  for (PageId u = 0; u < stats.pages; ++u) {
    double strength = 0;
    for (std::uint64_t i = csr.out_offsets[u]; i < csr.out_offsets[u + 1]; ++i) {
      if (csr.out_ids[i] == u) ++stats.self_links;
      strength += o.weighted ? csr.out_weights[i] : 1.0;
    }
    if (strength == 0) ++stats.dangling_pages;
  }
  report.self_links = stats.self_links;

  progress.stage = "writing";
  if (o.on_progress) o.on_progress(progress);
  TempPath tmp(o.output);
  tmp.make_directory();
  const fs::path dir = tmp.path();
  nlohmann::json manifest;
  manifest["format"] = layout::kFormatName;
  manifest["version"] = kDatabaseFormatVersion;
  manifest["pages"] = stats.pages;
  manifest["links"] = stats.links;
  manifest["dangling_pages"] = stats.dangling_pages;
  manifest["self_links"] = stats.self_links;
  manifest["weighted"] = stats.weighted;
  manifest["input_links"] = report.input_links;
  manifest["inputs"] = o.inputs;
  manifest["order"] = o.order;
  write_section(dir, layout::kFwdOffsets, csr.out_offsets, manifest);
  write_section(dir, layout::kFwdTargets, csr.out_ids, manifest);
  write_section(dir, layout::kBwdOffsets, csr.in_offsets, manifest);
  write_section(dir, layout::kBwdSources, csr.in_ids, manifest);
  if (o.weighted) {
    write_section(dir, layout::kFwdWeights, csr.out_weights, manifest);
    write_section(dir, layout::kBwdWeights, csr.in_weights, manifest);
  }
  write_section(dir, layout::kLabelOffsets, c.labels.offsets(), manifest);
  write_section(dir, layout::kLabelBytes, c.labels.bytes(), manifest);
  write_section(dir, layout::kLabelIndex, c.labels.slots(), manifest);
  if (!c.page_data.empty()) {
    progress.stage = "writing page data";
    if (o.on_progress) o.on_progress(progress);
    c.page_data.write(
        dir, stats.pages, [&](PageId id) { return c.labels.label(id); }, manifest);
  }
  {
    AtomicFileWriter w(dir / layout::kManifest);
    w.write(manifest.dump(2) + "\n");
    w.commit();
  }
  tmp.commit(/*replace_dir=*/o.force);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace webrank
