// Writing a link database: its options (where, in which page order, within which memory), its
// progress and its report. build_database (webrank/ingest/build.hpp) and the crawler read their
// inputs into the writer with these.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <stop_token>
#include <string>
#include <vector>

#include "webrank/util/named.hpp"

namespace webrank {

enum class PageOrder {
  kInput,   // first appearance
  kDegree,  // decreasing out-degree (ties in input order): faster ranking of large webs
  kUrl,     // by URL with the host reversed, as the paper's link database: a site's pages together
};
// "input", "degree", "url" (the names manifest.json records).
const char* to_string(PageOrder order);
std::span<const Named<PageOrder>> names(PageOrder);  // webrank/util/named.hpp

struct BuildProgress {
  // Bytes of the input files consumed so far (compressed bytes for compressed inputs), to compare
  // with bytes_total, the sum of their sizes if known (0 = unknown, e.g. stdin).
  std::uint64_t bytes_read = 0;
  std::uint64_t bytes_total = 0;
  std::uint64_t lines = 0;
  // "reading", then "sorting" (in memory) or "merging" and "backlinks" (past the memory budget:
  // bytes_read/bytes_total then count the spilled runs and the scans of the forward links),
  // "ordering", "writing"
  std::string stage;
};

struct BuildOptions {
  std::vector<std::string> inputs;  // paths or "-"
  std::string format = "auto";      // an input format (src/ingest/input_formats.cpp) or "auto"
  // A page list (`--pages`): the first field of every line is a page label, declared before the
  // inputs in file order, so pages that no link mentions are kept (isolated) and page ids follow
  // the list. An `id<TAB>label` file lists its ids. Empty: none.
  std::string pages_file;
  // A label file (`--labels`): `ID<TAB>LABEL` lines; the page labelled ID is stored as LABEL
  // (URLs for the ids of a numeric graph). IDs that are no page are counted, not added (with
  // pages_file naming the same file, every listed id is a page). Labels must stay distinct.
  std::string labels_file;
  std::filesystem::path output;
  bool weighted = false;  // read a third column as the link weight
  // Page id order (locality orders: src/writer/page_order.hpp). Labels, links and ranks are the
  // same whichever is chosen.
  PageOrder order = PageOrder::kInput;
  bool force = false;  // replace an existing database (only once the new one is complete)
  // Bytes the links may take in memory; past it they are sorted in runs on disk and merged.
  // 0 = default_memory_budget(): 3/4 of the physical memory. Not a hard limit: labels and
  // per-page arrays (about 40 bytes per page) must fit in memory whatever the budget.
  std::uint64_t memory_budget = 0;
  std::function<void(const BuildProgress&)> on_progress;  // called every few MB; may be empty
  int threads = 0;  // threads of this call (0 = OpenMP's default); other calls keep their own
  // A stop request abandons the build (Error kCancelled, nothing left behind), checked as the
  // inputs are read and between stages.
  std::stop_token stop;
};

struct BuildReport {
  std::uint32_t pages = 0;
  std::uint64_t links = 0;        // distinct links stored
  std::uint64_t input_links = 0;  // link lines read, duplicates included
  std::uint64_t self_links = 0;
  std::uint64_t lines = 0;
  std::uint64_t spilled_runs = 0;  // runs of links sorted on disk (0: built in memory)
  std::uint64_t listed_pages = 0;  // lines of the page list
  std::uint64_t relabeled_pages = 0, unused_labels = 0;  // of the label file
  std::vector<std::string> notes;  // how the readers read their inputs, when that matters
  double seconds = 0;
};

}  // namespace webrank
