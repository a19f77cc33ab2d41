#include "crawl/crawler.hpp"
#include "crawl/fetcher.hpp"
#include "crawl/frontier.hpp"
#include "crawl/page_pipeline.hpp"
#include "webrank/crawl/crawl.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>
#include <unordered_map>

#include "crawl/robots.hpp"
#include "store/db_layout.hpp"
#include "util/input_stream.hpp"
#include "web/url.hpp"
#include "web/warc.hpp"
#include "webrank/util/error.hpp"
#include "writer/database_builder.hpp"

namespace webrank::crawl {
namespace fs = std::filesystem;
namespace {

constexpr const char* kDepthField = "X-Webrank-Depth";
constexpr const char* kRedirectsField = "X-Webrank-Redirects";
constexpr const char* kShapeDepthField = "X-Webrank-Shape-Depth";  // frontier.hpp: traps
constexpr std::uint64_t kRobotsTag = 1ull << 63;

fs::path journal_dir(const fs::path& db) {
  return fs::path(db.string() + ".crawl");
}

std::vector<fs::path> journal_files(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.starts_with("journal-") && name.ends_with(".warc.gz")) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// At most max_bytes of a file (util/input_stream.hpp); empty if it cannot be read, as an empty
// response would be.
std::string read_file(const fs::path& p, std::uint64_t max_bytes, bool* truncated) {
  try {
    return read_file_prefix(p.string(), max_bytes, truncated);
  } catch (const Error&) {
    *truncated = false;
    return {};
  }
}

// A directory without index.html is shown as a list of links, like a web server's listing.
std::string directory_listing(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string n = it->path().filename().string();
    if (it->is_directory(ec)) n += "/";
    names.push_back(n);
  }
  std::sort(names.begin(), names.end());
  std::string html = "<html><head><title>Index of " + dir.string() + "</title></head><body>";
  for (const auto& n : names) {
    std::string href;
    for (unsigned char c : n) {
      if (std::isalnum(c) || std::strchr("-._~/", c)) {
        href += static_cast<char>(c);
      } else {
        char b[4];
        std::snprintf(b, sizeof b, "%%%02X", c);
        href += b;
      }
    }
    html += "<a href=\"" + href + "\">" + n + "</a>\n";
  }
  return html + "</body></html>";
}

// The seeds and scope of a crawl, kept for --resume.
void save_settings(const CrawlOptions& o) {
  nlohmann::json j;
  j["seeds"] = o.seeds;
  j["prefixes"] = o.frontier.prefixes;
  j["hosts"] = o.frontier.hosts;
  std::ofstream(journal_dir(o.output) / "crawl.json") << j.dump(2) << "\n";
}

}  // namespace

void load_settings(CrawlOptions& o) {
  std::ifstream in(journal_dir(o.output) / "crawl.json");
  if (!in) return;
  std::stringstream text;
  text << in.rdbuf();
  try {
    const nlohmann::json j = nlohmann::json::parse(text.str());
    if (o.seeds.empty()) o.seeds = j.value("seeds", std::vector<std::string>{});
    if (o.frontier.prefixes.empty() && o.frontier.hosts.empty()) {
      o.frontier.prefixes = j.value("prefixes", std::vector<std::string>{});
      o.frontier.hosts = j.value("hosts", std::vector<std::string>{});
    }
  } catch (const nlohmann::json::exception&) {
  }
}

namespace {

// The transfer thread: frontier, robots.txt, politeness and libcurl's transfers. What is fetched
// goes to the page pipeline (page_pipeline.hpp), whose workers parse and journal it and hand the
// page records to the database builder (`sink`) in order; the links of committed pages come back
// to the frontier.
class Crawler {
 public:
  Crawler(const CrawlOptions& o, RecordSink& sink, const RecrawlPlan* plan)
      : o_(o),
        plan_(plan),
        on_progress_(o.on_progress),
        frontier_(scope(o)),
        fetcher_(o.fetcher),
        pipeline_(sink, worker_threads(o), [this] {
          if (waiting_for_pages_) fetcher_.wakeup();
        }) {
    frontier_.set_delay("file://", 0);  // file: URLs are read from disk: no politeness needed
  }

  CrawlReport run();
  // Records journaled in all, by this run and before it.
  std::uint64_t journaled() const { return rep_.resumed + rep_.fetched_now + unfetched_journaled_; }

 private:
  static FrontierOptions scope(const CrawlOptions& o);
  static int worker_threads(const CrawlOptions& o) {
    return o.threads > 0 ? o.threads
                         : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  }
  void open_journal();
  void read_back(const std::vector<fs::path>& files);
  void repair(const fs::path& file);
  void offer(const std::string& url, int depth, int redirects, const FrontierItem* from);
  void journal(FrontierItem item, web::WarcRecord record);
  void follow_links(const CommittedPage& c);
  void take_committed();
  void defer_or_offer(const std::string& url, int depth, int redirects, const FrontierItem& from);
  // The journal record's fields that put a page back in the frontier on --resume.
  static std::vector<std::pair<std::string, std::string>> item_fields(const FrontierItem& item);
  void fetch_file(const FrontierItem& item);
  void on_result(FetchResult r);
  void on_robots(const FetchResult& r);
  bool robots_ready(const std::string& host);
  void journal_error(const FrontierItem& item, const std::string& error, bool fetched = true);
  void report(bool force);
  // A recrawl's conditional-request fields for `url` (none for a crawl).
  const std::vector<std::string>& request_fields(const std::string& url) const {
    static const std::vector<std::string> none;
    if (!plan_) return none;
    const auto it = plan_->conditions.find(url);
    return it == plan_->conditions.end() ? none : it->second;
  }
  // Records why a seed (depth 0: the seed or one of its redirect hops) gave no page.
  void seed_failed(const FrontierItem& item, const std::string& reason);

  const CrawlOptions& o_;
  const RecrawlPlan* plan_;  // null: a crawl
  const std::function<void(const CrawlProgress&)>& on_progress_;
  Frontier frontier_;
  Fetcher fetcher_;
  std::unique_ptr<web::WarcWriter> journal_;
  // The transfer loop waits for the pipeline alone: a commit must wake it (otherwise the loop
  // runs anyway, for the transfers, and a wakeup per page would only cost a context switch).
  std::atomic<bool> waiting_for_pages_{false};
  PagePipeline pipeline_;  // after fetcher_ and journal_: its workers stop before they go
  // robots.txt per host key (scheme://host[:port]): wanted -> fetching -> known.
  enum class RobotsState { kWanted, kFetching, kKnown };
  std::unordered_map<std::string, RobotsState> robots_state_;
  std::deque<std::string> robots_wanted_;  // in the order they were wanted
  std::unordered_map<std::string, Robots> robots_;
  std::unordered_map<std::string, std::string> robots_failure_;
  std::unordered_map<std::uint64_t, std::pair<std::string, int>>
      robots_fetches_;                     // host, hops  // hosts whose robots.txt failed
  std::uint64_t unfetched_journaled_ = 0;  // robots.txt said no
  std::unordered_map<std::uint64_t, FrontierItem> in_flight_;
  std::uint64_t next_tag_ = 1;
  struct Deferred {
    std::string url;
    int depth, redirects;
    FrontierItem from;  // its shape and shape depth
  };
  bool reading_back_ = false;
  std::vector<Deferred> deferred_;
  CrawlReport rep_;
  Clock::time_point start_ = Clock::now(), last_report_{};
};

FrontierOptions Crawler::scope(const CrawlOptions& o) {
  FrontierOptions f = o.frontier;
  if (f.prefixes.empty() && f.hosts.empty()) {
    for (const auto& s : o.seeds) {
      const std::optional<web::Url> u = web::parse_url(s);
      if (!u) continue;
      if (u->scheme == "file") {
        f.prefixes.push_back(u->origin() + u->path.substr(0, u->path.rfind('/') + 1));
      } else {
        f.hosts.push_back(u->authority());
      }
    }
  }
  return f;
}

void Crawler::offer(const std::string& url, int depth, int redirects, const FrontierItem* from) {
  switch (frontier_.add(url, depth, redirects, from)) {
    case AddResult::kTrap:
      ++rep_.trapped;
      break;
    case AddResult::kTooDeep:
      ++rep_.too_deep;
      break;
    case AddResult::kOutOfScope:
      ++rep_.out_of_scope;
      break;
    default:
      break;
  }
}

void Crawler::follow_links(const CommittedPage& c) {
  const FrontierItem& item = c.item;
  for (const std::string& target : c.links) {
    if (c.redirect) {
      if (item.redirects + 1 <= o_.max_redirects) {
        defer_or_offer(target, item.depth, item.redirects + 1, item);
      } else if (item.depth == 0 && !reading_back_) {
        rep_.seed_failures.push_back(
            {target, cat("not fetched: a redirect hop past --max-redirects (", o_.max_redirects,
                         ") from ", item.url)});
      }
    } else {
      defer_or_offer(target, item.depth + 1, 0, item);
    }
  }
}

void Crawler::take_committed() {
  for (const CommittedPage& c : pipeline_.take()) {
    if (c.journaled) {  // this run's pages were counted as they were fetched
      rep_.bytes += c.body_bytes;
      if (c.status >= 200 && c.status < 300) ++rep_.ok_pages;
    }
    follow_links(c);
  }
}

void Crawler::defer_or_offer(const std::string& url, int depth, int redirects,
                             const FrontierItem& from) {
  if (reading_back_) {
    FrontierItem shape;
    shape.shape = from.shape;
    shape.shape_depth = from.shape_depth;
    deferred_.push_back({url, depth, redirects, std::move(shape)});
  } else {
    offer(url, depth, redirects, &from);
  }
}

std::vector<std::pair<std::string, std::string>> Crawler::item_fields(const FrontierItem& item) {
  return {{kDepthField, std::to_string(item.depth)},
          {kRedirectsField, std::to_string(item.redirects)},
          {kShapeDepthField, std::to_string(item.shape_depth)}};
}

// Hands a record to the pipeline: journaled, then its page to the database, then its links back.
void Crawler::journal(FrontierItem item, web::WarcRecord record) {
  PageJob job{std::move(item),  std::move(record),    false,
              journal_->path(), o_.fetcher.max_bytes, o_.frontier.max_url_length};
  pipeline_.submit(std::move(job));
}

// Journal records handed to the pipeline and not yet committed, at most, while reading back.
constexpr std::size_t kReadBackQueue = 256;

void Crawler::read_back(const std::vector<fs::path>& files) {
  // Links are offered only once every journaled URL is marked seen: a page journaled after a
  // page that links to it must not be queued again.
  reading_back_ = true;
  for (const fs::path& f : files) {
    bool truncated = false;
    {
      web::WarcReader reader(f.string(), /*tolerate_truncated_tail=*/true);
      web::WarcRecord rec;
      while (reader.next(rec)) {
        FrontierItem item;
        item.url = rec.target_uri();
        item.depth = std::atoi(std::string(rec.field(kDepthField)).c_str());
        item.redirects = std::atoi(std::string(rec.field(kRedirectsField)).c_str());
        item.shape_depth = std::atoi(std::string(rec.field(kShapeDepthField)).c_str());
        item.shape = shape_of(item.url);
        frontier_.mark_seen(item.url);
        ++rep_.resumed;
        pipeline_.submit({std::move(item), std::move(rec), true, f.string(), o_.fetcher.max_bytes,
                          o_.frontier.max_url_length});
        // The journal is read faster than its pages are parsed: a bounded queue, not the journal
        // in memory.
        pipeline_.wait_below(kReadBackQueue);
      }
      truncated = reader.truncated();
    }
    if (truncated) repair(f);
  }
  pipeline_.drain();
  pipeline_.rethrow();
  take_committed();
  reading_back_ = false;
  for (const Deferred& d : deferred_) offer(d.url, d.depth, d.redirects, &d.from);
  deferred_.clear();
}

// Rewrites a journal file without the record that was being written when the crawl died.
void Crawler::repair(const fs::path& f) {
  const std::string tmp = f.string() + ".repair";
  {
    web::WarcReader reader(f.string(), /*tolerate_truncated_tail=*/true);
    web::WarcWriter w(tmp);
    web::WarcRecord r;
    while (reader.next(r)) {
      std::vector<std::pair<std::string, std::string>> fields;
      for (const auto& [k, v] : r.fields) {
        if (k != "WARC-Type" && k != "WARC-Record-ID" && k != "WARC-Date" &&
            k != "WARC-Target-URI" && k != "Content-Type" && k != "Content-Length")
          fields.emplace_back(k, v);
      }
      w.write(r.type(), r.target_uri(), r.field("Content-Type"), r.block, fields);
    }
  }
  fs::rename(tmp, f);
}

void Crawler::open_journal() {
  const fs::path dir = journal_dir(o_.output);
  std::error_code ec;
  const bool exists = fs::exists(dir, ec);
  if (plan_) {  // a recrawl: its own journal file beside the crawl's
    fs::create_directories(plan_->journal.parent_path(), ec);
    if (ec)
      fail(ErrorKind::kIo, plan_->journal.parent_path().string(),
           ": cannot create: ", ec.message());
    journal_ = std::make_unique<web::WarcWriter>(plan_->journal.string());
    frontier_.set_spill_file(plan_->journal.parent_path() / "frontier.spill");
    pipeline_.set_journal(journal_.get());
    return;
  }
  if (exists && !o_.resume) {
    if (!o_.force) {
      fail(ErrorKind::kExists, dir.string(), ": a crawl journal is already there; pass ",
           option_ref("resume"), " to continue that crawl, or ", option_ref("force"),
           " to start over");
    }
    fs::remove_all(dir, ec);
  }
  if (!exists && o_.resume && !fs::exists(dir, ec))
    fail(ErrorKind::kNotFound, dir.string(),
         ": no crawl journal to resume (start the crawl without --resume)");
  fs::create_directories(dir, ec);
  if (ec) fail(ErrorKind::kIo, dir.string(), ": cannot create: ", ec.message());
  if (!o_.resume) save_settings(o_);
  const std::vector<fs::path> files = journal_files(dir);
  char name[32];
  std::snprintf(name, sizeof name, "journal-%05zu.warc.gz", files.size() + 1);
  journal_ = std::make_unique<web::WarcWriter>((dir / name).string());
  frontier_.set_spill_file(dir / "frontier.spill");
  pipeline_.set_journal(journal_.get());
  if (o_.resume) read_back(files);
}

bool Crawler::robots_ready(const std::string& host) {
  if (!o_.robots || host == "file://") return true;
  auto [it, inserted] = robots_state_.try_emplace(host, RobotsState::kWanted);
  if (inserted) robots_wanted_.push_back(host);
  return it->second == RobotsState::kKnown;
}

void Crawler::on_robots(const FetchResult& r) {
  const auto fetch = robots_fetches_.find(r.tag);
  if (fetch == robots_fetches_.end()) return;
  const auto [host, hops] = fetch->second;
  robots_fetches_.erase(fetch);
  // Redirects of robots.txt are followed (RFC 9309 §2.3.1.2: at least five hops).
  if (r.error.empty() && r.status >= 300 && r.status < 400 && !r.location.empty() && hops < 5) {
    if (const std::optional<std::string> to = web::resolve_url(r.url, r.location)) {
      const std::uint64_t tag = kRobotsTag | next_tag_++;
      robots_fetches_[tag] = {host, hops + 1};
      fetcher_.start(*to, tag);
      return;
    }
  }
  Robots rb;
  if (!r.error.empty() || r.status >= 500) {
    rb = Robots::disallow_all();
    robots_failure_[host] = "robots.txt unreachable (" +
                            (r.error.empty() ? "HTTP " + std::to_string(r.status) : r.error) +
                            "): the host is not crawled";
  } else if (r.status >= 200 && r.status < 300) {
    rb = Robots::parse(r.body);
  } else {
    rb = Robots::allow_all();
  }
  if (rb.crawl_delay()) frontier_.set_delay(host, *rb.crawl_delay());
  robots_[host] = std::move(rb);
  robots_state_[host] = RobotsState::kKnown;
  // The fetch of robots.txt was a request to the host: its first page waits for the delay too.
  frontier_.fetched(host, Clock::now());
  frontier_.unhold(host);
}

void Crawler::seed_failed(const FrontierItem& item, const std::string& reason) {
  if (item.depth != 0) return;
  const std::string retried = item.attempts > 0 ? cat(" (after ", item.attempts, " retr",
                                                      item.attempts == 1 ? "y" : "ies", ")")
                                                : "";
  rep_.seed_failures.push_back({item.url, reason + retried});
}

void Crawler::journal_error(const FrontierItem& item, const std::string& error, bool fetched) {
  seed_failed(item, error);
  // A page that was not fetched: journaled so that --resume does not try it again and so that
  // it is a page of the web even when nothing links to it (a seed).
  journal(item, web::make_warc_record("metadata", item.url, "text/plain",
                                      "webrank-fetch-error: " + error + "\n", item_fields(item)));
  if (fetched) {
    ++rep_.errors;
    ++rep_.fetched_now;
  } else {
    ++unfetched_journaled_;
  }
}

void Crawler::fetch_file(const FrontierItem& item) {
  const std::optional<std::string> path = web::file_path(item.url);
  std::error_code ec;
  fs::path p = path ? fs::path(*path) : fs::path();
  std::string body, type;
  bool truncated = false;
  if (path && fs::is_directory(p, ec)) {
    if (fs::is_regular_file(p / "index.html", ec)) {
      body = read_file(p / "index.html", o_.fetcher.max_bytes, &truncated);
      type = "text/html";
    } else {
      body = directory_listing(p);
      type = "text/html";
    }
  } else if (path && fs::is_regular_file(p, ec)) {
    body = read_file(p, o_.fetcher.max_bytes, &truncated);
    std::string ext = p.extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (ext == ".html" || ext == ".htm") type = "text/html";
  } else {
    journal_error(item, "no such file");
    return;
  }
  std::vector<std::pair<std::string, std::string>> fields = item_fields(item);
  if (truncated) fields.emplace_back("WARC-Truncated", "length");
  ++rep_.fetched_now;
  ++rep_.ok_pages;
  rep_.bytes += body.size();
  journal(item, web::make_warc_record("resource", item.url, type, std::move(body), fields));
}

void Crawler::on_result(FetchResult r) {
  const auto it = in_flight_.find(r.tag);
  if (it == in_flight_.end()) return;
  FrontierItem item = std::move(it->second);
  in_flight_.erase(it);
  const auto now = Clock::now();
  const std::string host = host_key(item.url);
  frontier_.done(host, now);
  const bool transient = !r.error.empty() || r.status == 429 || r.status == 500 ||
                         r.status == 502 || r.status == 503 || r.status == 504;
  if (transient && item.attempts < o_.retries && !o_.stop.stop_requested()) {
    const double wait = o_.backoff * static_cast<double>(1 << item.attempts);
    ++item.attempts;
    ++rep_.retries;
    frontier_.retry(std::move(item),
                    now + std::chrono::microseconds(static_cast<std::int64_t>(wait * 1e6)));
    return;
  }
  if (!r.error.empty()) {
    journal_error(item, r.error);
    return;
  }
  std::vector<std::pair<std::string, std::string>> fields = item_fields(item);
  if (r.truncated) fields.emplace_back("WARC-Truncated", "length");
  ++rep_.fetched_now;
  if (r.status >= 500) ++rep_.errors;
  if (r.status >= 200 && r.status < 300) ++rep_.ok_pages;
  if (r.status >= 400 || r.status < 200) seed_failed(item, cat("HTTP ", r.status));
  rep_.bytes += r.body.size();
  r.header_block += "\r\n";
  r.header_block += r.body;
  web::WarcRecord record =
      web::make_warc_record("response", item.url, "application/http; msgtype=response",
                            std::move(r.header_block), fields);
  journal(std::move(item), std::move(record));
}

void Crawler::report(bool force) {
  const auto now = Clock::now();
  if (!on_progress_ || (!force && now - last_report_ < std::chrono::milliseconds(200))) return;
  last_report_ = now;
  CrawlProgress p;
  p.pages = rep_.resumed + rep_.fetched_now;
  p.queued = frontier_.queued();
  p.spilled = frontier_.spilled();
  p.in_flight = fetcher_.active();
  p.errors = rep_.errors;
  p.bytes = rep_.bytes;
  p.seconds = std::chrono::duration<double>(now - start_).count();
  on_progress_(p);
}

CrawlReport Crawler::run() {
  open_journal();
  if (plan_) {
    for (const std::string& url : plan_->known) offer(url, 0, 0, nullptr);
  }
  for (const auto& s : plan_ ? std::vector<std::string>() : o_.seeds) {
    const std::optional<std::string> u = web::normalize_url(s);
    if (!u)
      fail(ErrorKind::kInvalidArgument, "crawl: seed '", s, "' is not an http, https or file URL");
    const AddResult added = frontier_.add(*u, 0, 0);
    if (added != AddResult::kQueued && added != AddResult::kSeen) {
      rep_.seed_failures.push_back({*u, cat("not fetched: ", to_string(added))});
    }
    if (added == AddResult::kTrap) ++rep_.trapped;
    if (added == AddResult::kOutOfScope) ++rep_.out_of_scope;
  }
  auto pages = [&] { return rep_.resumed + rep_.fetched_now; };
  auto host_ok = [&](const std::string& h) { return robots_ready(h); };
  // Pages fetched and not yet journaled, at most: enough to keep every worker busy while the
  // transfers go on, few enough to bound the bodies held in memory.
  const std::size_t max_pending =
      2 * static_cast<std::size_t>(o_.fetcher.max_connections) + 4 * worker_threads(o_);
  while (!o_.stop.stop_requested()) {
    pipeline_.rethrow();
    take_committed();
    const auto now = Clock::now();
    // Robots.txt first for every host that has URLs waiting (its pages are held until then).
    while (!robots_wanted_.empty() &&
           fetcher_.active() < static_cast<std::size_t>(o_.fetcher.max_connections)) {
      const std::string host = std::move(robots_wanted_.front());
      robots_wanted_.pop_front();
      robots_state_[host] = RobotsState::kFetching;
      const std::uint64_t tag = kRobotsTag | next_tag_++;
      robots_fetches_[tag] = {host, 0};
      fetcher_.start(host + "/robots.txt", tag);
    }
    while (fetcher_.active() < static_cast<std::size_t>(o_.fetcher.max_connections) &&
           pages() + in_flight_.size() < o_.max_pages && pipeline_.pending() < max_pending) {
      std::optional<FrontierItem> item = frontier_.next(now, host_ok);
      if (!item) break;
      const std::optional<web::Url> u = web::parse_url(item->url);
      const std::string host = host_key(item->url);
      if (u && u->scheme == "file") {
        fetch_file(*item);
        frontier_.release(host);
        continue;
      }
      if (o_.robots && u && !robots_[host].allowed(u->path_and_query())) {
        const auto failure = robots_failure_.find(host);
        if (failure == robots_failure_.end()) {
          ++rep_.robots_blocked;
          journal_error(*item, "disallowed by robots.txt", /*fetched=*/false);
        } else {
          journal_error(*item, failure->second, /*fetched=*/true);
        }
        frontier_.release(host);
        continue;
      }
      const std::uint64_t tag = next_tag_++;
      fetcher_.start(item->url, tag, request_fields(item->url), frontier_.queued(host) > 0);
      in_flight_.emplace(tag, std::move(*item));
    }
    if (pages() >= o_.max_pages && in_flight_.empty()) {
      rep_.page_limit = frontier_.queued() > 0 || pipeline_.pending() > 0;
      break;
    }
    const bool robots_wait = !robots_wanted_.empty() || !robots_fetches_.empty();
    if (fetcher_.active() == 0 && !robots_wait) {
      const bool parsing = pipeline_.pending() > 0;
      if (!parsing) {
        // Everything fetched is committed: its links decide whether the crawl is over.
        take_committed();
        if (frontier_.queued() == 0) break;
      }
      // Wait for the pipeline's next page, or until the first queued URL is due (politeness,
      // back-off); a commit wakes the wait.
      const auto due =
          parsing ? now + std::chrono::milliseconds(100) : frontier_.next_ready().value_or(now);
      const auto wait = std::min<Clock::duration>(std::max<Clock::duration>(due - now, {}),
                                                  std::chrono::milliseconds(100));
      waiting_for_pages_ = true;
      if (!pipeline_.has_committed()) {  // else a commit came before the flag was up
        fetcher_.poll(
            static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(wait).count()));
      }
      waiting_for_pages_ = false;
      report(false);
      continue;
    }
    for (FetchResult& r : fetcher_.poll(50)) {
      if (r.tag & kRobotsTag) {
        on_robots(r);
      } else {
        on_result(std::move(r));
      }
    }
    report(false);
  }
  if (o_.stop.stop_requested()) {
    rep_.interrupted = true;
    fetcher_.abort_all();
    in_flight_.clear();
  }
  // What was fetched is journaled and built, also when stopped.
  pipeline_.drain();
  pipeline_.rethrow();
  take_committed();
  report(true);
  rep_.pages = pages();
  rep_.crawl_seconds = std::chrono::duration<double>(Clock::now() - start_).count();
  return rep_;
}

}  // namespace

CrawlReport run_crawler(const CrawlOptions& o, RecordSink& sink, const RecrawlPlan* plan,
                        std::uint64_t& journaled) {
  Crawler c(o, sink, plan);
  CrawlReport rep = c.run();
  journaled = c.journaled();
  return rep;
}

}  // namespace webrank::crawl

namespace webrank {

CrawlReport crawl_web(const CrawlOptions& options) {
  using namespace crawl;
  CrawlOptions o = options;
  std::error_code ec;
  if (o.resume && !fs::exists(journal_dir(o.output), ec)) {
    fail(ErrorKind::kNotFound, journal_dir(o.output).string(),
         ": no crawl journal to resume (start the crawl without ", option_ref("resume"), ")");
  }
  if (o.resume) load_settings(o);
  if (o.seeds.empty()) fail(ErrorKind::kInvalidArgument, "crawl: no seed URL given");
  // --force replaces databases only, and --resume needs a journal: each is suggested only where
  // it would work.
  if (fs::exists(o.output, ec) &&
      (!fs::is_directory(o.output) || !fs::exists(o.output / layout::kManifest))) {
    fail(ErrorKind::kExists, o.output.string(),
         ": exists and is not a webrank database; refusing to replace it (choose another "
         "output path)");
  }
  if (o.resume && fs::exists(o.output / layout::kManifest, ec)) {
    // --resume builds the database again from the crawl's journal: an update or a recrawl
    // since would be lost.
    std::ifstream in(o.output / layout::kManifest);
    const nlohmann::json m = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (m.is_object() && m.contains("updates") && !m["updates"].empty()) {
      fail(ErrorKind::kInvalidArgument, o.output.string(),
           ": was updated since its crawl (webrank update or crawl --recrawl); ",
           option_ref("resume"),
           " would build it again from the crawl's journal and lose that: fetch its pages "
           "again with --recrawl ",
           o.output.string(), " instead");
    }
  }
  if (!o.resume && !o.force && fs::exists(o.output, ec)) {
    const bool journal = fs::exists(journal_dir(o.output), ec);
    fail(ErrorKind::kExists, o.output.string(), ": already exists; pass ",
         journal ? option_ref("resume") + " to continue the crawl journaled in " +
                       journal_dir(o.output).string() + " if it was interrupted, or "
                 : std::string(),
         option_ref("force"), " to replace it (it is replaced once the new crawl is built)");
  }
  // The database is built as the crawl goes: each page record goes to the builder as it is
  // journaled (page_pipeline.hpp); once fetching ends, the links are sorted and written.
  BuildOptions b;
  b.inputs = {journal_dir(o.output).string()};
  b.format = "warc";
  b.output = o.output;
  b.force = fs::exists(o.output, ec);
  b.on_progress = o.on_build_progress;
  b.threads = o.threads;
  CrawlReport rep;
  Clock::time_point fetched;
  const BuildReport built = write_database(b, [&](RecordSink& sink, BuildProgress& progress) {
    std::uint64_t journaled = 0;
    rep = run_crawler(o, sink, nullptr, journaled);
    if (journaled == 0) {
      fail(ErrorKind::kInvalidArgument,
           "crawl: nothing was fetched (every seed was out of scope or trapped); the journal is "
           "in ",
           journal_dir(o.output).string());
    }
    fetched = Clock::now();
    progress.stage = "reading";
    return journaled;
  });
  rep.build = built;
  // The build's own time: what the user waits for once fetching is over.
  rep.build.seconds = std::chrono::duration<double>(Clock::now() - fetched).count();
  return rep;
}

}  // namespace webrank
