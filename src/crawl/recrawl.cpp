// `webrank crawl --recrawl DB` (webrank/crawl/crawl.hpp's contract): the crawl's transfer loop over
// the database's pages with conditional requests, the pages it fetched compared with the stored
// ones, the differences made one WebEdit and folded in by `update`'s merge (commit_web_edit).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <set>
#include <unordered_set>

#include "crawl/crawler.hpp"
#include "ingest/update_database.hpp"
#include "web/url.hpp"
#include "webrank/crawl/crawl.hpp"
#include "webrank/store/database.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace fs = std::filesystem;
namespace {

// The page records of a recrawl, as the page pipeline commits them (in journal order).
class RecordList : public RecordSink {
 public:
  std::vector<PageRecord> records;
  void page(std::string_view) override {}
  void link(std::string_view, std::string_view, double) override {}
  void page_record(const PageRecord& r) override { records.push_back(r); }
};

bool is_gone(int status) {
  return status == 404 || status == 410;
}

// Whether a fetch gave nothing to go by: the page keeps what it had (a transport failure or
// robots.txt: status 0; a server error after the retries; a 304 to a request without
// validators).
bool is_failure(int status) {
  return status == 0 || status == 304 || status >= 500;
}

// The followed links of `r` as edit ids, ascending and unique.
std::vector<PageId> followed_links(const PageRecord& r, EditIds& ids) {
  std::vector<PageId> out;
  for (const PageLink& l : r.links) {
    const PageId t = ids.resolve(l.target);  // nofollow targets are pages too
    if (!l.nofollow) out.push_back(t);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

RecrawlReport recrawl_web(const RecrawlOptions& options) {
  const Database db = Database::open(options.database, {.verify = options.verify});
  if (!db.has_page_data()) {
    fail(ErrorKind::kInvalidArgument, options.database.string(),
         ": has no page data (it was not built by a crawl, a WARC or an HTML directory), so it "
         "has no pages to fetch again; crawl it with `webrank crawl SEED -o DB`");
  }
  RecrawlReport rep;
  CrawlOptions o = options.crawl;
  o.output = options.database;
  o.resume = o.force = false;
  o.seeds.clear();
  crawl::load_settings(o);
  const bool scoped = !o.seeds.empty() || !o.frontier.prefixes.empty() || !o.frontier.hosts.empty();
  std::set<std::string> prefixes, hosts;  // without settings: those of the fetched pages

  // Every page again, the fetched ones conditionally.
  crawl::RecrawlPlan plan;
  const PageId n = db.num_pages();
  for (PageId u = 0; u < n; ++u) {
    const std::string url(db.label(u));
    const std::optional<web::Url> parsed = web::parse_url(url);
    if (!parsed) continue;  // not a URL: nothing to fetch
    plan.known.push_back(url);
    if (db.status(u).value_or(0) == 0) continue;
    if (!scoped && parsed->scheme == "file") {
      prefixes.insert(parsed->origin() + parsed->path.substr(0, parsed->path.rfind('/') + 1));
    } else if (!scoped) {
      hosts.insert(parsed->authority());
    }
    const std::optional<PageValidators> v = db.validators(u);
    if (!v || (v->etag.empty() && v->last_modified.empty())) continue;
    std::vector<std::string>& fields = plan.conditions[url];
    if (!v->etag.empty()) fields.push_back("If-None-Match: " + std::string(v->etag));
    if (!v->last_modified.empty())
      fields.push_back("If-Modified-Since: " + std::string(v->last_modified));
    ++rep.conditional;
  }
  rep.known = plan.known.size();
  if (!scoped) {
    o.frontier.prefixes.assign(prefixes.begin(), prefixes.end());
    o.frontier.hosts.assign(hosts.begin(), hosts.end());
  }
  // The recrawl's journal: a new file beside the crawl's.
  const fs::path dir = o.output.string() + ".crawl";
  for (int k = 1; plan.journal.empty() || fs::exists(plan.journal); ++k) {
    char name[32];
    std::snprintf(name, sizeof name, "recrawl-%05d.warc.gz", k);
    plan.journal = dir / name;
  }
  rep.journal = plan.journal.string();
  // --max-pages counts the new pages: the known ones are queued first on every host.
  o.max_pages = std::min<std::uint64_t>(o.max_pages, std::uint64_t{1} << 62) + plan.known.size();

  RecordList fetched;
  std::uint64_t journaled = 0;
  rep.crawl = crawl::run_crawler(o, fetched, &plan, journaled);

  // The differences, as one edit (ids: webrank/ingest/update.hpp's EditIds).
  WebEdit edit;
  const std::vector<bool> removed(n, false);
  EditIds ids(db, edit, removed);
  std::unordered_set<std::string> seen;
  for (PageRecord& r : fetched.records) {
    if (!seen.insert(r.url).second) continue;  // only the first record of a URL counts
    const std::optional<PageId> known = db.find(r.url);
    const int old_status = known ? db.status(*known).value_or(0) : 0;
    if (old_status != 0 && is_failure(r.status)) {
      if (r.status == 304 && plan.conditions.count(r.url)) {
        ++rep.unchanged;
        ++rep.not_modified;
        rep.bytes_saved += db.validators(*known)->body_bytes;
      } else {
        ++rep.failed;
      }
      continue;
    }
    if (r.status == 0) {  // known or not, a page without known links
      ids.resolve(r.url);
      continue;
    }
    const PageId id = known ? *known : ids.resolve(r.url);
    const std::vector<PageId> now = followed_links(r, ids);
    if (old_status == r.status &&
        db.content_hash(*known) == (r.content_hash ? r.content_hash : 1)) {
      ++rep.unchanged;  // the same body: the same links; the validators are refreshed
      edit.refetched.emplace_back(id, std::move(r));
      continue;
    }
    if (old_status == 0) {
      ++rep.new_pages;
    } else if (is_gone(r.status)) {
      ++rep.gone;
    } else {
      ++rep.changed;
    }
    const std::span<const PageId> before =
        known ? db.graph().out.neighbors(*known) : std::span<const PageId>();
    std::vector<PageId> gone, added;
    std::set_difference(before.begin(), before.end(), now.begin(), now.end(),
                        std::back_inserter(gone));
    std::set_difference(now.begin(), now.end(), before.begin(), before.end(),
                        std::back_inserter(added));
    for (PageId t : gone) edit.removed_links.emplace_back(id, t);
    for (PageId t : added) edit.added_links.push_back({id, t, 1.0});
    edit.refetched.emplace_back(id, std::move(r));
  }
  if (edit.refetched.empty() && edit.new_pages.empty() && edit.added_links.empty() &&
      edit.removed_links.empty()) {
    // Nothing answered but 304s and failures: the database stays as it is, not a new version.
    rep.update.pages_before = rep.update.pages = n;
    rep.update.links_before = rep.update.links = db.num_links();
    return rep;
  }
  nlohmann::json change = {
      {"recrawl", rep.journal}, {"unchanged", rep.unchanged}, {"not_modified", rep.not_modified},
      {"changed", rep.changed}, {"gone", rep.gone},           {"new", rep.new_pages}};
  const auto start = std::chrono::steady_clock::now();
  // Not stopped by the crawl's stop request: what was fetched is folded in, as a crawl builds it.
  commit_web_edit(options.database, db, edit, change, rep.update, options.on_update_progress, {},
                  options.before_publish);
  rep.updated = true;
  rep.update.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return rep;
}

}  // namespace webrank
