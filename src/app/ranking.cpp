// Computing vectors over a database (webrank/app/ranking.hpp): the use cases, their option
// declarations and their entries in the table of operations.
#include "webrank/app/ranking.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <list>
#include <mutex>

#include "app/registry.hpp"
#include "app/solver_options.hpp"
#include "webrank/app/app_json.hpp"
#include "webrank/ingest/page_weights_file.hpp"
#include "webrank/ingest/rank_sources.hpp"
#include "webrank/rank/batch.hpp"
#include "webrank/rank/presentation.hpp"
#include "webrank/rank/topics.hpp"
#include "webrank/store/rank_store.hpp"
#include "webrank/store/summary.hpp"
#include "webrank/util/units.hpp"

namespace webrank::app {
namespace {

// Weights a front end gave (a file, labels, {label: weight}, one per page) as weights over the
// pages of `db`; `what` names the option in errors. Empty when not given.
PageWeights weights_of(const Database& db, const WeightsValue& w, const std::string& what) {
  if (!w.file.empty()) return read_page_weights(db, w.file);
  PageWeights out;
  if (!w.labels.empty()) {
    for (const auto& [label, weight] : w.labels) {
      const PageId id = find_page_or_fail(db, db.path().string(), label, what);
      if (!(weight >= 0) || !std::isfinite(weight))
        fail_option(what, "must hold finite weights >= 0, got ", weight, " for '", label, "'");
      out.emplace_back(id, weight);
    }
  } else if (!w.dense.empty()) {
    out = dense_page_weights(w.dense, db.num_pages(), what);
  } else {
    return out;
  }
  // All zero is no distribution: the same refusal every front end gives (a file's reader says
  // so for files).
  if (out.empty() ||
      std::none_of(out.begin(), out.end(), [](const auto& p) { return p.second > 0; }))
    fail_option(what, "gives no page a positive weight");
  return out;
}

RankedVector ranked(const RankOptions& o, const RankResult& r, const std::string& name,
                    const Database& db, bool stored) {
  RankedVector v;
  v.record = rank_record(o, r);
  v.record.name = name;
  v.record.precision = r.precision;
  v.record.pages = db.num_pages();
  v.stored = stored;
  return v;
}

// --method's help: each solver's part, from the table of solvers.
std::string method_help() {
  std::string help;
  for (const SolverInfo& s : solvers()) help += (help.empty() ? "" : ", ") + std::string(s.help);
  return help;
}

const OptionSet<RankRequest>& rank_options_set() {
  static const OptionSet<RankRequest> set = [] {
    OptionSet<RankRequest> s;
    add_solver_options(s, [](RankRequest& r) -> RankOptions& { return r.rank; });
    s.add("dangling", WR_FIELD(rank.dangling),
          "Where the rank of pages without out-links goes: source (along E), uniform, leak "
          "(dropped), remove (the paper's remove-and-add-back)");
    s.add("dangling_weights", WR_FIELD(dangling_weights),
          "File of LABEL<TAB>WEIGHT: where dangling rank goes (normalized)")
        .as("FILE");
    s.add("personalize", WR_FIELD(personalize),
          "Rank source E uniform over these pages (repeatable)")
        .as("URL")
        .without("source")
        .without("root_pages")
        .without("bookmarks")
        .without("batch");
    s.add("source", WR_FIELD(source), "File of LABEL<TAB>WEIGHT: the rank source E (normalized)")
        .as("FILE")
        .alias("personalization")
        .without("root_pages")
        .without("bookmarks")
        .without("batch");
    s.add("root_pages", WR_FIELD(root_pages),
          "Rank source E uniform over the root page of every host (the paper's compromise "
          "between uniform and one home page)")
        .without("bookmarks")
        .without("batch");
    s.add("bookmarks", WR_FIELD(bookmarks),
          "File of URLs, one a line: E uniform over these pages (URLs not in the database are "
          "skipped with a warning)")
        .as("FILE")
        .without("batch");
    s.add("start", WR_FIELD(start), "File of LABEL<TAB>VALUE: the start vector (normalized)")
        .as("FILE");
    s.add("method", WR_FIELD(rank.method), method_help());
    s.add("sweep", WR_FIELD(rank.summation),
          "How power iterations sum backlinks (same result): pull, blocked (propagation "
          "blocking, for webs larger than the caches), auto (blocked above 8 MiB of "
          "contributions, unweighted webs)")
        .alias("summation")
        .without("batch");
    s.add("block_pages", WR_FIELD(rank.block_pages),
          "Pages per block of a blocked sweep (power of two in [64, 32768]; 0 = 32768, sized for "
          "a 1 MiB L2 cache)")
        .in(at_least(0))
        .as("N", "pages")
        .without("batch");
    s.size("memory_budget", WR_FIELD(rank.memory_budget),
           "Out of core: keep the rank vectors in memory and stream the links from disk, so the "
           "process stays within SIZE of memory (4G, 512M, 1.5G; " +
               solver_names(&SolverInfo::out_of_core) + ")")
        .without("batch");
    s.add("warm_start", WR_FIELD(rank.warm_start),
          "Start from the stored vector NAME (after `webrank update`, the vector of the previous "
          "version, mapped onto the new pages) and report the iterations saved")
        .as("NAME")
        .without("batch");
    s.add("warm_start_db", WR_FIELD(warm_start_db),
          "Take the --warm-start vector from this database, mapped by label (e.g. the web before "
          "a full rebuild)")
        .as("DB");
    s.add("name", WR_FIELD(name), "Name of the stored rank vector").as("NAME").without("batch");
    s.add("save", WR_FIELD(save), "Store the vector in the database (--no-save: compute only)");
    s.add("replace_unconverged", WR_FIELD(replace_unconverged),
          "Let a run that did not converge replace a converged vector of the same name (by "
          "default it is stored beside it, as NAME.unconverged)");
    s.add("out", WR_FIELD(out), "Also write LABEL<TAB>RANK per page, in id order").as("FILE");
    s.add("scale", WR_FIELD(scale),
          "Values in --out: unit (ranks sum to 1) or pages (multiplied by the number of pages, "
          "so they average 1, as GraphX and GraphChi print them)");
    s.add("batch", WR_FIELD(batch),
          "File of NAME [LABEL... | @WEIGHTS_FILE] lines: compute one vector per line in one "
          "pass (a k-wide vector per page), each stopped at its own tolerance and stored under "
          "its NAME; --out is then a folder of NAME.tsv files (Python: the lines themselves, "
          "as lists of fields, may stand for the file)")
        .as("FILE");
    return s;
  }();
  return set;
}

// `rank --batch FILE`: every vector of the file in one pass, each stored under its name.
void rank_batch(const Database& db, const RankRequest& req, const RankOptions& o, const Run& run,
                RankReport& report) {
  const std::vector<BatchEntry> entries = req.batch.file.empty()
                                              ? batch_entries(db, req.batch.lines, "batch")
                                              : read_batch_file(db, req.batch.file);
  std::vector<PageWeights> sources;
  for (const auto& e : entries) sources.push_back(e.source);
  const auto start = std::chrono::steady_clock::now();
  std::vector<RankResult> results = compute_rank_batch(db.graph(), sources, batch_options(o, run));
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report.batch = true;
  if (!req.out.empty()) std::filesystem::create_directories(req.out);
  for (std::size_t j = 0; j < entries.size(); ++j) {
    RankOptions vo = o;
    vo.source = entries[j].source;
    const std::string stored =
        name_to_store(db, entries[j].name, entries[j].name, results[j].converged,
                      req.replace_unconverged, report.notices);
    if (req.save) save_ranks(db, stored, results[j], vo);
    if (!req.out.empty()) {
      write_rank_tsv(db, results[j].ranks,
                     (std::filesystem::path(req.out) / (entries[j].name + ".tsv")).string(),
                     req.scale == Scale::kPages ? static_cast<double>(db.num_pages()) : 1.0);
    }
    report.vectors.push_back(ranked(vo, results[j], stored, db, req.save));
    note_convergence(results[j], cat("'", entries[j].name, "' "), o, report.notices);
    report.arrays.emplace_back(entries[j].name, std::move(results[j].ranks));
  }
}

const OptionSet<HitsRequest>& hits_options() {
  static const OptionSet<HitsRequest> set = [] {
    OptionSet<HitsRequest> s;
    s.add("tol", WR_FIELD(hits.tol), "Stop when the L1 change of authorities plus hubs is <= this")
        .in(positive());
    s.add("max_iter", WR_FIELD(hits.max_iter), kMaxIterHelp)
        .in(closed(1, 2147483647))
        .as("N", "iterations");
    s.add("name", WR_FIELD(name), "Stored as NAME.authority and NAME.hub").as("NAME");
    s.add("replace_unconverged", WR_FIELD(replace_unconverged),
          "Let a run that did not converge replace converged vectors of the same name");
    s.add("out", WR_FIELD(out),
          "Also write LABEL<TAB>AUTHORITY<TAB>HUB per page, in id order (- = stdout)")
        .as("FILE");
    return s;
  }();
  return set;
}

const OptionSet<TopicsRequest>& topics_options() {
  static const OptionSet<TopicsRequest> set = [] {
    OptionSet<TopicsRequest> s;
    s.add("assign", WR_FIELD(assign),
          "File of LABEL<TAB>TOPIC lines (a page may have several topics); without it, list the "
          "topics computed")
        .as("FILE");
    add_solver_options(s, [](TopicsRequest& r) -> RankOptions& { return r.rank; });
    s.add("k", WR_FIELD(k), "Top pages of each topic checked for membership in the summary")
        .in(closed(1, 1e18))
        .as("N", "pages");
    return s;
  }();
  return set;
}

const OptionSet<PprRequest>& ppr_options() {
  static const OptionSet<PprRequest> set = [] {
    OptionSet<PprRequest> s;
    s.add("pages", WR_FIELD(pages),
          "The page (label or URL) whose point of view ranks the web; several pages share it "
          "equally")
        .as("URL")
        .at(0)
        .needed()
        .http("url")
        .serve_at_most(16);
    s.add("k", WR_FIELD(push.k), "How many pages")
        .in(closed(1, 1e18))
        .serve_in(closed(1, kServedMaxResults))
        .as("N", "pages");
    // The work grows as 1/(eps (1 - d)): a server takes what answers in a fraction of a second
    // on a web of a few million links.
    s.add("eps", WR_FIELD(push.eps),
          "Push threshold: a page passes its residual on while it exceeds eps times its "
          "out-degree (smaller: tighter bound, more work)")
        .in(positive())
        .serve_in(at_least(1e-8));
    s.add("damping", WR_FIELD(push.damping), "Damping factor d in [0, 1)")
        .in(half_open(0, 1))
        .serve_in(closed(0, 0.95));
    s.add("store", WR_FIELD(store),
          "Also store the estimate as this rank vector (webrank check --ranks verifies it)")
        .as("NAME")
        .only(kCli | kPython);
    return s;
  }();
  return set;
}

const OptionSet<CompareRequest>& compare_options() {
  static const OptionSet<CompareRequest> set = [] {
    OptionSet<CompareRequest> s;
    s.add("views", WR_FIELD(views), "Stored rank vectors to compare, A,B[,C...]")
        .as("NAME")
        .split_at(',')
        .without("homes")
        .serve_at_most(8);
    // Each home page is a solve over the whole web (kept afterwards): a server computes a few.
    s.add("homes", WR_FIELD(homes),
          "Or: home pages (labels or URLs), each giving the view of PageRank personalized on it "
          "(the paper's Table 2)")
        .as("URL")
        .serve_at_most(4);
    s.add("pages", WR_FIELD(pages),
          "File of pages to show, one label or URL a line (default: the -k highest of each view)")
        .as("FILE")
        .only(kCli | kPython);
    s.add("k", WR_FIELD(k), "Without --pages: the top pages of each view shown")
        .in(closed(1, 1e18))
        .serve_in(closed(1, kServedMaxResults))
        .as("N", "pages");
    return s;
  }();
  return set;
}

// PageRank personalized on one home page, kept by the session for later calls: at most
// `max_bytes` of them, least recently used out first, keyed by the database they were computed
// on. One computation runs at a time: a flood of new home pages queues instead of taking every
// core from other calls.
class PersonalizedViews {
 public:
  explicit PersonalizedViews(std::size_t max_bytes) : max_bytes_(max_bytes) {}

  std::shared_ptr<const PresentedRanks> of(const std::shared_ptr<const Database>& db, PageId home,
                                           const Run& run) {
    const Key key{db.get(), home};
    if (auto hit = find(key)) return hit;
    // Waiting for another computation ends when this call is stopped (a server's deadline).
    std::unique_lock computing(compute_, std::defer_lock);
    while (!computing.try_lock_for(std::chrono::milliseconds(20))) {
      if (run.stop.stop_requested()) fail(ErrorKind::kCancelled, "stopped by request");
    }
    if (auto hit = find(key)) return hit;  // computed while this call waited
    RankOptions o;
    o.source = {{home, 1.0}};
    o.threads = run.threads;
    o.stop = run.stop;
    RankResult r = compute_rank(db->graph(), o);
    auto ranks =
        std::make_shared<const PresentedRanks>(std::move(r.ranks), std::string(db->label(home)));
    std::lock_guard lock(mutex_);
    lru_.push_front({key, db, ranks});
    // A presented vector holds its values and a sorted copy: 16 bytes a page.
    const std::size_t each = 16 * std::max<std::size_t>(1, db->num_pages());
    while (lru_.size() > 2 && lru_.size() * each > max_bytes_) lru_.pop_back();
    return ranks;
  }

 private:
  using Key = std::pair<const Database*, PageId>;
  std::shared_ptr<const PresentedRanks> find(const Key& key) {
    std::lock_guard lock(mutex_);
    for (auto it = lru_.begin(); it != lru_.end(); ++it) {
      if (it->key == key) {
        lru_.splice(lru_.begin(), lru_, it);
        return it->ranks;
      }
    }
    return nullptr;
  }

  std::size_t max_bytes_;
  std::mutex mutex_;
  std::timed_mutex compute_;
  struct Entry {
    Key key;
    std::shared_ptr<const Database> db;  // held: its address stays unique while cached
    std::shared_ptr<const PresentedRanks> ranks;
  };
  std::list<Entry> lru_;
};

// Memory a session gives personalized views.
constexpr std::size_t kPersonalizedViewBytes = std::size_t{256} << 20;

}  // namespace

std::span<const Named<Scale>> names(Scale) {
  static constexpr Named<Scale> kNames[] = {{Scale::kUnit, "unit"}, {Scale::kPages, "pages"}};
  return kNames;
}

const OptionSet<RankRequest>& rank_request_options() {
  return rank_options_set();
}

std::vector<OptionSpec> graph_rank_option_specs() {
  // The solver's own options: the rest of rank's name pages or files of a database, or store.
  static const char* const kSolver[] = {"damping", "tol",       "max_iter",        "dangling",
                                        "method",  "precision", "sweep",           "block_pages",
                                        "source",  "start",     "dangling_weights"};
  std::vector<OptionSpec> out;
  for (const OptionSpec& s : rank_options_set().specs()) {
    if (std::find(std::begin(kSolver), std::end(kSolver), s.name) != std::end(kSolver))
      out.push_back(s);
  }
  return out;
}

RankOptions graph_rank_options(const nlohmann::json& given, PageId pages) {
  if (given.is_object()) {
    const std::vector<OptionSpec> all = rank_options_set().specs();
    const std::vector<OptionSpec> solver = graph_rank_option_specs();
    for (const auto& [key, value] : given.items()) {
      if (key == "threads") continue;
      const OptionSpec& spec = find_option(all, key, "rank()");
      if (std::none_of(solver.begin(), solver.end(),
                       [&](const OptionSpec& s) { return s.name == spec.name; }))
        fail_option(key, "needs a database: it is an option of Database.rank()");
    }
  }
  nlohmann::json solver = given;
  if (solver.is_object()) solver.erase("threads");
  const RankRequest req = rank_options_set().parse(solver, "rank()");
  RankOptions o = req.rank;
  // One weight per page, by id.
  const auto dense = [pages](const WeightsValue& w, const char* what) {
    PageWeights out;
    if (!w.given()) return out;
    if (!w.file.empty() || !w.labels.empty())
      fail_option(what, "must be one weight per page here (labels and files need a database)");
    out = dense_page_weights(w.dense, pages, what);
    if (out.empty()) fail_option(what, "gives no page a positive weight");
    return out;
  };
  o.source = dense(req.source, "source");
  o.start = dense(req.start, "start");
  o.dangling_weights = dense(req.dangling_weights, "dangling_weights");
  return o;
}

RankOptions resolve_rank_request(const Database& db, const RankRequest& req, const Run& run,
                                 Notices& notices) {
  if (req.save && !req.batch.given()) check_rank_name(req.name);
  RankOptions o = req.rank;
  if (!req.warm_start_db.empty()) {
    if (o.warm_start.empty())
      fail_option("warm_start_db", "needs ", option_ref("warm_start"), " NAME");
    o.warm_start_db = req.warm_start_db;
  }
  for (const auto& label : req.personalize) {
    o.source.emplace_back(find_page_or_fail(db, db.path().string(), label, "personalize"), 1.0);
  }
  if (req.source.given()) o.source = weights_of(db, req.source, "source");
  if (req.root_pages) o.source = root_pages(db);
  if (!req.bookmarks.empty()) {
    const PageList list = read_page_list(db, req.bookmarks, /*allow_missing=*/true);
    if (!list.missing.empty()) {
      notices.warnings.push_back(cat(
          req.bookmarks, ": ", list.missing.size(), " of ", list.missing.size() + list.pages.size(),
          " lines name no page of the database (first: ", list.missing.front(), ")"));
    }
    o.source = list.pages;
  }
  if (req.start.given()) o.start = weights_of(db, req.start, "start");
  if (req.dangling_weights.given())
    o.dangling_weights = weights_of(db, req.dangling_weights, "dangling_weights");
  return with_run(o, run);
}

void finish_rank(const Database& db, const std::string& db_name, const RankRequest& req,
                 const RankOptions& o, RankResult r, RankReport& report) {
  const std::string stored = req.save ? name_to_store(db, req.name, req.name, r.converged,
                                                      req.replace_unconverged, report.notices)
                                      : req.name;
  if (req.save) save_ranks(db, stored, r, o);
  if (!req.out.empty()) {
    write_rank_tsv(db, r.ranks, req.out,
                   req.scale == Scale::kPages ? static_cast<double>(db.num_pages()) : 1.0);
  }
  report.seconds = r.seconds;
  report.database = db_name;
  report.vectors.push_back(ranked(o, r, stored, db, req.save));
  note_convergence(r, "", o, report.notices);
  report.arrays.emplace_back(stored, std::move(r.ranks));
}

RankReport rank(Session* session, const RankRequest& req, const Run& run) {
  const auto db = session->database();
  RankReport report;
  report.database = session->path().string();
  const RankOptions o = resolve_rank_request(*db, req, run, report.notices);
  if (req.batch.given()) {
    rank_batch(*db, req, o, run, report);
    return report;
  }
  finish_rank(*db, session->path().string(), req, o, compute_rank(*db, o), report);
  return report;
}

HitsReport hits(Session* session, const HitsRequest& req, const Run& run) {
  const auto db = session->database();
  check_rank_name(req.name + ".authority");
  HitsOptions o = req.hits;
  o.threads = run.threads;
  o.stop = run.stop;
  if (run.on_progress) o.on_iteration = [&run](const IterationInfo& i) { run.on_progress(i); };
  HitsReport r;
  r.database = session->path().string();
  r.result = compute_hits(db->graph(), o);
  r.stored = name_to_store(*db, req.name, req.name + ".authority", r.result.converged,
                           req.replace_unconverged, r.notices);
  save_hits(*db, r.stored, r.result, o);
  if (!req.out.empty()) write_rank_tsv(*db, {r.result.authorities, r.result.hubs}, req.out);
  if (!r.result.converged) {
    r.notices.not_converged = true;
    r.notices.warnings.push_back(
        cat("not converged: the L1 change is ", scientific(r.result.final_delta), " after ",
            r.result.iterations, " iterations, above ", option_ref("tol"), " ", o.tol,
            r.result.stalled ? " (stalled at the rounding level of double)" : "",
            "; the vectors were stored and flagged as not converged"));
  }
  r.arrays.emplace_back(r.stored + ".authority", std::move(r.result.authorities));
  r.arrays.emplace_back(r.stored + ".hub", std::move(r.result.hubs));
  return r;
}

TopicsReport topics(Session* session, const TopicsRequest& req, const Run& run) {
  const auto db = session->database();
  TopicsReport report;
  report.k = req.k;
  report.database = session->path().string();
  if (req.assign.empty()) {
    report.stored_topics = stored_topics(*db);
    return report;
  }
  const TopicAssignment a = read_topic_assignment(*db, req.assign);
  const TopicRanks ranks = compute_topic_ranks(*db, a.topics, a.pages, batch_options(req.rank, run),
                                               /*with_pagerank=*/true);
  const auto pagerank_top = top_pages(ranks.pagerank.ranks, req.k);
  // How topical each vector's top pages are: the share that carry the topic themselves.
  for (std::size_t t = 0; t < a.topics.size(); ++t) {
    const RankResult& result = ranks.topics[t];
    TopicSummary s;
    s.topic = a.topics[t];
    s.vector = topic_vector_name(a.topics[t]);
    s.pages = a.pages[t].size();
    s.iterations = result.iterations;
    s.converged = result.converged;
    const auto in_topic = [&](PageId page) {
      return std::binary_search(a.pages[t].begin(), a.pages[t].end(),
                                std::pair<PageId, double>(page, 1.0));
    };
    for (const RankedPage& p : top_ranked_pages(*db, result.ranks, req.k)) {
      s.top.push_back({p.label, p.rank, in_topic(p.page)});
      s.top_in_topic += s.top.back().in_topic;
    }
    for (const TopEntry& e : pagerank_top) s.pagerank_top_in_topic += in_topic(e.page);
    report.topics.push_back(std::move(s));
    note_convergence(result, cat("topic '", a.topics[t], "' "), req.rank, report.notices);
  }
  return report;
}

PprReport ppr(Session* session, const PprRequest& req, const Run& run) {
  if (!req.store.empty()) check_rank_name(req.store);
  const auto db = session->database();
  PageWeights source;
  for (const auto& url : req.pages) {
    source.emplace_back(find_page_or_fail(*db, session->path().string(), url), 1.0);
  }
  PushOptions o = req.push;
  o.stop = run.stop;
  PprReport r;
  r.top = personalized_top(db->graph(), source, o);
  if (!req.store.empty()) save_push_ranks(*db, req.store, r.top.push, source, o);
  for (const PprEntry& e : r.top.top) {
    r.labels.emplace_back(db->label(e.page));
    const auto title = db->title(e.page);
    r.titles.push_back(title ? std::optional<std::string>(*title) : std::nullopt);
  }
  r.damping = o.damping;
  r.eps = o.eps;
  return r;
}

std::shared_ptr<const PresentedRanks> personalized_view(const Session& session, PageId home,
                                                        const Run& run) {
  const auto views = session.keep<PersonalizedViews>("personalized-views", [] {
    return std::make_shared<PersonalizedViews>(kPersonalizedViewBytes);
  });
  return views->of(session.database(), home, run);
}

CompareReport compare(Session* session, const CompareRequest& req, const Run& run) {
  const auto db = session->database();
  if (req.views.empty() == req.homes.empty())
    fail_option("views", "or ", option_ref("homes"), ": give one of them");
  std::vector<std::string> names;
  std::vector<std::vector<double>> stored;
  std::vector<std::shared_ptr<const PresentedRanks>> personalized;
  std::vector<std::span<const double>> vectors;
  if (!req.views.empty()) {
    for (const auto& v : req.views) {
      stored.push_back(load_ranks(*db, v).values);
      names.push_back(v);
    }
    for (const auto& s : stored) vectors.emplace_back(s);
  } else {
    for (const auto& home : req.homes) {
      personalized.push_back(
          personalized_view(*session, find_page_or_fail(*db, session->path().string(), home), run));
      names.push_back(personalized.back()->name());
    }
    for (const auto& p : personalized) vectors.push_back(p->values());
  }
  std::vector<PageId> pages;
  if (!req.pages.empty()) {
    for (const auto& [page, w] : read_page_list(*db, req.pages, false).pages) pages.push_back(page);
  } else {
    pages = top_pages_of_views(vectors, req.k);
  }
  CompareReport r;
  r.table = compare_views(*db, names, vectors, pages);
  std::vector<RankScale> scales;
  for (const auto& v : vectors) scales.push_back(make_rank_scale(v));
  for (const ViewComparison::Row& row : r.table.rows) {
    std::vector<RankedPage>& cells = r.cells.emplace_back();
    for (std::size_t v = 0; v < vectors.size(); ++v) {
      cells.push_back({.page = row.page,
                       .label = row.label,
                       .title = row.title,
                       .rank = row.ranks[v],
                       .percentile = row.percentiles[v],
                       .bar = scales[v].bar_percent(row.ranks[v]),
                       .toolbar = scales[v].toolbar(row.ranks[v])});
    }
  }
  return r;
}

void add_ranking_operations(std::vector<Operation>& table) {
  const std::string group = "Rank";
  table.push_back(make_operation({.name = "rank",
                                  .group = group,
                                  .summary = "Compute PageRank and store it in the database",
                                  .access = Access::kWrite},
                                 rank_options_set(), &rank));
  table.push_back(make_operation(
      {.name = "hits",
       .group = group,
       .summary = "Compute HITS hubs and authorities (Kleinberg) and store them beside PageRank",
       .access = Access::kWrite},
      hits_options(), &hits));
  table.push_back(make_operation(
      {.name = "topics",
       .group = group,
       .summary = "Topic-sensitive PageRank: one vector per topic (E uniform over its pages) in "
                  "one pass, stored as topic.NAME; mix them with `top --topics`",
       .access = Access::kWrite},
      topics_options(), &topics));
  table.push_back(make_operation(
      {.name = "ppr",
       .group = group,
       .summary = "Personalized PageRank of one page (or a few) answered interactively by "
                  "forward push, with the error bound of the answer",
       .served = true,
       .verifies = false,
       .cost = Cost::kSolve},
      ppr_options(), &ppr));
  table.push_back(make_operation(
      {.name = "compare",
       .group = group,
       .summary = "Rank vectors side by side as percentiles (the paper's Table 2: one web seen "
                  "from two points of view)",
       .served = true,
       .verifies = false,
       .cost = Cost::kSolve},
      compare_options(), &compare));
}

}  // namespace webrank::app
