// `webrank update` (webrank/ingest/update.hpp): the changes read from edge lists into a WebEdit,
// merged into a new version of the database (build/database_update.hpp), put in place atomically.
#include "ingest/update_database.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <string>
#include <unordered_map>

#include "ingest/edge_list_reader.hpp"
#include "store/database_version.hpp"
#include "store/db_layout.hpp"
#include "store/manifest_seal.hpp"
#include "util/atomic_file.hpp"
#include "util/error.hpp"
#include "util/input_stream.hpp"
#include "util/parallel.hpp"
#include "util/regular_file.hpp"
#include "webrank/store/rank_store.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace fs = std::filesystem;
namespace {

void stop_if_asked(const std::stop_token& stop) {
  if (stop.stop_requested()) fail(ErrorKind::kCancelled, "update stopped by request");
}

// Labels of the change files resolved to edit ids (webrank/ingest/update.hpp's rules).
class EditSink : public RecordSink {
 public:
  EditSink(const Database& db, WebEdit& edit, std::vector<bool>& removed)
      : db_(db), edit_(edit), removed_(removed), ids_(db, edit, removed) {}

  void removing(bool on) { removing_ = on; }
  std::uint64_t not_found() const { return not_found_; }

  void page(std::string_view label) override {
    if (!removing_) {
      ids_.resolve(label);
      return;
    }
    const auto id = db_.find(label);
    if (!id || removed_[*id]) {
      ++not_found_;
      return;
    }
    removed_[*id] = true;
    edit_.removed_pages.push_back(*id);
  }

  void link(std::string_view source, std::string_view target, double weight) override {
    if (!removing_) {
      const PageId s = ids_.resolve(source);
      edit_.added_links.push_back({s, ids_.resolve(target), weight});
      return;
    }
    const auto s = db_.find(source), t = db_.find(target);
    const auto targets = s ? db_.graph().out.neighbors(*s) : std::span<const PageId>();
    if (!s || !t || !std::binary_search(targets.begin(), targets.end(), *t)) {
      ++not_found_;
      return;
    }
    edit_.removed_links.emplace_back(*s, *t);
  }

 private:
  const Database& db_;
  WebEdit& edit_;
  std::vector<bool>& removed_;
  bool removing_ = true;
  std::uint64_t not_found_ = 0;
  EditIds ids_;
};

}  // namespace

PageId EditIds::resolve(std::string_view label) {
  if (const auto id = db_.find(label); id && !removed_[*id]) return *id;
  const auto it = new_pages_.find(std::string(label));
  if (it != new_pages_.end()) return it->second;
  const PageId id = db_.num_pages() + static_cast<PageId>(edit_.new_pages.size());
  edit_.new_pages.emplace_back(label);
  new_pages_.emplace(edit_.new_pages.back(), id);
  return id;
}

namespace {

nlohmann::json read_json(const fs::path& file) {
  const std::optional<std::string> text = read_regular_file(file);
  if (!text) fail_errno(file.string(), "cannot read");
  nlohmann::json j = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object())
    fail(ErrorKind::kCorrupt, file.string(), ": damaged (not a JSON object)");
  return j;
}

}  // namespace

void commit_web_edit(const fs::path& path, const Database& old, const WebEdit& edit,
                     const nlohmann::json& change, UpdateReport& report,
                     const std::function<void(const UpdateProgress&)>& on_progress,
                     const std::stop_token& stop, const BeforePublish& before_publish) {
  auto stage = [&](const std::string& s) {
    if (on_progress) on_progress({s, 0, 0});
    stop_if_asked(stop);
  };
  // Everything is written into a temporary sibling: a failure or a kill at any point leaves the
  // database as it was; the rename at the end swaps the whole directory.
  TempPath tmp(path);
  tmp.make_directory();
  nlohmann::json manifest = read_json(path / layout::kManifest);
  manifest.erase("sections");
  manifest.erase("page_data");
  manifest.erase("page_html");  // set again by the page data's writer when it writes the copies
  manifest.erase("page_validators");
  const UpdateCounts c = write_updated_web(old, edit, tmp.path(), manifest, stage);
  report.pages_before = old.num_pages();
  report.links_before = old.num_links();
  report.pages = c.pages;
  report.pages_added = c.pages_added;
  report.pages_removed = c.pages_removed;
  report.links = c.links;
  report.links_added = c.links_added;
  report.links_removed = c.links_removed;
  nlohmann::json entry = change;
  entry["time"] = static_cast<std::int64_t>(std::time(nullptr));
  entry["pages_added"] = c.pages_added;
  entry["pages_removed"] = c.pages_removed;
  entry["links_added"] = c.links_added;
  entry["links_removed"] = c.links_removed;
  if (!manifest.contains("updates")) manifest["updates"] = nlohmann::json::array();
  manifest["updates"].push_back(entry);
  manifest[kGenerationKey] = generation_for(manifest);
  seal_manifest(manifest);  // last: the checksum covers every other member
  {
    AtomicFileWriter w(tmp.path() / layout::kManifest);
    w.write(manifest.dump(2) + "\n");
    w.commit();
  }

  // From here to the exchange of names the database is locked (store/database_version.hpp): the
  // vectors carried are all those stored into the version updated, and none is stored into it
  // after they were read. Another update that came first is a conflict.
  const DatabaseLock lock(path);
  check_still_current(old, lock, "the update was not made");
  // Stored vectors, mapped onto the new pages (a new page gets 1/N), flagged stale.
  const Database fresh = Database::open(tmp.path());
  const std::vector<std::string> names = old.rank_names();
  if (!names.empty()) stage("rank vectors");
  for (const std::string& name : names) {
    const StoredRanks s = load_ranks(old, name);
    std::vector<double> values(c.pages, 1.0 / c.pages);
    for (PageId u = 0; u < old.num_pages(); ++u) {
      if (c.new_id[u] != kNoPage) values[c.new_id[u]] = s.values[u];
    }
    VectorRecord record = s.record;
    // An edit that changed no page, no link and no weight (a recrawl that found only new text)
    // leaves the vector as exact as it was.
    if (c.pages_added + c.pages_removed + c.links_added + c.links_removed > 0 ||
        (old.stats().weighted && !edit.added_links.empty())) {
      record.stale = StaleNote{
          "computed before an update of the web; rank again, e.g. with --warm-start " + name,
          c.pages_added, c.pages_removed, c.links_added, c.links_removed};
    }
    write_rank_vector(fresh, name, values, s.precision, std::move(record));
    report.vectors_carried.push_back(name);
  }
  if (before_publish) before_publish(fresh);
  stop_if_asked(stop);
  tmp.commit(/*replace_dir=*/true);
}

UpdateReport update_database(const fs::path& path, const UpdateOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const ThreadCount threads(o.threads);
  if (o.add.empty() && o.remove.empty())
    fail_option("add", "and ", option_ref("remove"), " are both empty: nothing to update");
  const Database old = Database::open(path, {.verify = o.verify});
  const bool weighted = old.stats().weighted;

  WebEdit edit;
  std::vector<bool> removed(old.num_pages(), false);
  EditSink sink(old, edit, removed);
  UpdateProgress progress{"reading", 0, 0};
  for (const auto& in : o.remove) progress.bytes_total += input_size(in);
  for (const auto& in : o.add) progress.bytes_total += input_size(in);
  std::uint64_t done = 0;
  auto read = [&](const std::vector<std::string>& files) {
    for (const auto& in : files) {
      read_edge_list(in, weighted, sink, [&](std::uint64_t bytes) {
        progress.bytes_read = done + bytes;
        if (o.on_progress) o.on_progress(progress);
        stop_if_asked(o.stop);
      });
      done = progress.bytes_read;
    }
  };
  read(o.remove);  // removals first: a page removed and added again is a new page
  sink.removing(false);
  read(o.add);

  UpdateReport report;
  report.removals_not_found = sink.not_found();
  report.additions_read = edit.added_links.size();
  commit_web_edit(path, old, edit, {{"add", o.add}, {"remove", o.remove}}, report, o.on_progress,
                  o.stop, o.before_publish);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace webrank
