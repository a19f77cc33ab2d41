// Link spam (webrank/app/spam.hpp): the use cases, their option declarations and their entries
// in the table of operations.
#include "webrank/app/spam.hpp"

#include <algorithm>
#include <cstdio>

#include "app/registry.hpp"
#include "app/solver_options.hpp"
#include "webrank/app/app_json.hpp"
#include "webrank/ingest/rank_sources.hpp"
#include "webrank/store/rank_store.hpp"

namespace webrank::app {
namespace {

// Trusted pages as given: a file of pages, one a line, or a list of labels (or URLs). Every one
// must be a page of `db`.
PageWeights seed_pages(const Database& db, const WeightsValue& seeds, const std::string& what) {
  if (!seeds.file.empty()) return read_page_list(db, seeds.file, /*allow_missing=*/false).pages;
  PageWeights out;
  for (const auto& [label, weight] : seeds.labels) {
    out.emplace_back(find_page_or_fail(db, db.path().string(), label, what), 1.0);
  }
  if (out.empty()) fail_option(what, "names no page");
  return out;
}

// P and T in one batch, with the run's threads, stop and progress; the convergence of each said.
TrustResult trust_of(const Database& db, const PageWeights& seeds, TrustOptions o, const Run& run,
                     Notices& notices) {
  o.batch = batch_options(o.batch.rank, run);
  TrustResult t = compute_trust(db.graph(), seeds, o);
  note_convergence(t.pagerank, "PageRank ", o.batch.rank, notices);
  note_convergence(t.trustrank, "TrustRank ", o.batch.rank, notices);
  return t;
}

const OptionSet<TrustRequest>& trust_options() {
  static const OptionSet<TrustRequest> set = [] {
    OptionSet<TrustRequest> s;
    s.add("seeds", WR_FIELD(seeds),
          "File of trusted pages, one label or URL a line (see `webrank seeds`)")
        .as("FILE")
        .needed();
    s.add("out", WR_FIELD(out),
          "Write label<TAB>pagerank<TAB>trustrank<TAB>spam_mass for every page (a header line, "
          "then id order; - = standard output)")
        .as("FILE");
    s.add("good_fraction", WR_FIELD(trust.good_fraction),
          "Estimated fraction of good pages, the good core's scaling: spam mass is (P - g*T)/P "
          "(1: the article's (P - T)/P)")
        .in(open_closed(0, 1));
    s.add("absolute", WR_FIELD(absolute),
          "The table's spam_mass column holds the absolute mass P - g*T");
    add_solver_options(s, [](TrustRequest& r) -> RankOptions& { return r.trust.batch.rank; });
    s.add("k", WR_FIELD(k),
          "Pages listed: of those whose PageRank is at least 10x the average, the highest "
          "relative spam mass first")
        .as("N", "pages");
    return s;
  }();
  return set;
}

const OptionSet<SeedsRequest>& seeds_options() {
  static const OptionSet<SeedsRequest> set = [] {
    OptionSet<SeedsRequest> s;
    s.add("k", WR_FIELD(k), "How many candidates").in(closed(1, 1e18)).as("N", "pages");
    s.add("out", WR_FIELD(out),
          "Also write the candidates' labels, one a line (a --seeds file to vet)")
        .as("FILE");
    add_solver_options(s, [](SeedsRequest& r) -> RankOptions& { return r.rank; });
    return s;
  }();
  return set;
}

const OptionSet<SpamReportRequest>& spam_report_options() {
  static const OptionSet<SpamReportRequest> set = [] {
    OptionSet<SpamReportRequest> s;
    s.add("seeds", WR_FIELD(seeds), "Trusted pages (one a line): use spam mass as evidence too")
        .as("FILE")
        .without("ranks");
    s.add("good_fraction", WR_FIELD(trust.good_fraction),
          "With --seeds: the good core's scaling (see `webrank trust`)")
        .in(open_closed(0, 1));
    s.add("ranks", WR_FIELD(ranks),
          "Use this stored PageRank vector (uniform E) instead of computing it; its damping "
          "factor is the one its record states")
        .as("NAME");
    add_solver_options(s, [](SpamReportRequest& r) -> RankOptions& { return r.trust.batch.rank; });
    s.add("min_scaled_pagerank", WR_FIELD(report.min_scaled_pagerank),
          "Candidate targets: PageRank at least this many times the average")
        .in(at_least(0));
    s.add("min_supporters", WR_FIELD(report.min_supporters), "Smallest farm reported")
        .in(closed(1, 1e18))
        .as("N", "pages");
    s.add("min_share", WR_FIELD(report.min_farm_share),
          "Smallest share of the target's PageRank its farm must carry")
        .in(closed(0, 1));
    s.add("min_out_share", WR_FIELD(report.min_out_share),
          "A page joins a farm when this share of its out-links go into it")
        .in(closed(0, 1));
    s.add("min_mass", WR_FIELD(report.min_relative_mass),
          "With --seeds: smallest relative spam mass of a reported target");
    s.add("k", WR_FIELD(k), "Farms listed").in(closed(1, 1e18)).as("N");
    return s;
  }();
  return set;
}

const OptionSet<PlantRequest>& plant_options() {
  static const OptionSet<PlantRequest> set = [] {
    OptionSet<PlantRequest> s;
    s.add("target", WR_FIELD(plant.target),
          "Label of the target (an existing page to boost, or a new one)")
        .as("LABEL")
        .needed();
    s.add("supporters", WR_FIELD(plant.supporters), "Supporting pages (new) per farm")
        .in(closed(1, 1e18))
        .as("N", "pages")
        .needed();
    s.add("accessible", WR_FIELD(plant.accessible),
          "Existing pages, chosen at random, given a link to the target")
        .as("N", "pages");
    s.add("shape", WR_FIELD(plant.shape),
          "star (target <-> each supporter), chain (target -> s1 -> ... -> sM -> target), "
          "alliance (--farms stars whose targets link in a ring), hidden (a star whose "
          "supporters also link to --camouflage popular pages)");
    s.add("farms", WR_FIELD(plant.farms), "alliance: how many farms").as("N");
    s.add("camouflage", WR_FIELD(plant.camouflage), "hidden: honest-looking links per supporter")
        .as("N");
    s.add("seed", WR_FIELD(plant.seed), "Random seed (accessible and camouflage pages)").as("N");
    s.add("output", WR_FIELD(output),
          "Write the new web here (default: replace DB, which needs --force if DB has rank "
          "vectors or page data, as they are not carried over)")
        .as("DB")
        .letter('o');
    s.add("truth", WR_FIELD(plant.truth),
          "Also write the planted pages: LABEL<TAB>target|supporter|accessible<TAB>TARGET")
        .as("FILE");
    s.add("force", WR_FIELD(plant.force), "Replace an existing output");
    return s;
  }();
  return set;
}

}  // namespace

TrustReport trust(Session* session, const TrustRequest& req, const Run& run) {
  const auto db = session->database();
  const PageWeights seeds = seed_pages(*db, req.seeds, "seeds");
  TrustReport r;
  const TrustResult t = trust_of(*db, seeds, req.trust, run, r.notices);
  save_trust(*db, t, seeds, req.trust);
  if (!req.out.empty()) write_trust_table(*db, t, req.out, req.absolute);
  // The pages of highest relative spam mass among those whose PageRank is at least ten times
  // the average (Gyöngyi et al.'s candidates: mass matters where rank is high).
  const double n = db->num_pages();
  std::vector<PageId> pages;
  double highest = 0;
  for (PageId u = 0; u < db->num_pages(); ++u) {
    if (t.pagerank.ranks[u] * n >= 10) pages.push_back(u);
    highest = std::max(highest, t.pagerank.ranks[u] * n);
  }
  if (pages.empty()) {
    char times[32];
    std::snprintf(times, sizeof times, "%.2f", highest);
    r.notices.warnings.push_back(
        cat("no page of ", session->path().string(),
            " has PageRank at least 10x the average (the highest has ", times,
            "x), so the table of spam mass is empty: it lists only such pages, where mass matters; "
            "--out FILE writes every page's, and the vectors are stored"));
  }
  std::sort(pages.begin(), pages.end(), [&](PageId a, PageId b) {
    return t.relative_mass[a] > t.relative_mass[b] ||
           (t.relative_mass[a] == t.relative_mass[b] && a < b);
  });
  if (pages.size() > req.k) pages.resize(req.k);
  for (PageId u : pages) {
    r.pages.push_back({std::string(db->label(u)), t.pagerank.ranks[u], t.trustrank.ranks[u],
                       t.relative_mass[u], t.absolute_mass[u]});
  }
  r.seeds = seeds.size();
  r.pagerank_iterations = t.pagerank.iterations;
  r.trustrank_iterations = t.trustrank.iterations;
  r.good_fraction = req.trust.good_fraction;
  r.database = session->path().string();
  r.notices.said.push_back(cat(
      "TrustRank from ", r.seeds, " seeds (", r.trustrank_iterations, " iterations), PageRank (",
      r.pagerank_iterations, " iterations) in one batch; spam mass with good fraction ",
      r.good_fraction, "; stored trustrank, spam-mass and spam-mass-absolute in ", r.database));
  return r;
}

SeedsReport seeds(Session* session, const SeedsRequest& req, const Run& run) {
  const auto db = session->database();
  RankOptions o = req.rank;
  o.threads = run.threads;
  o.stop = run.stop;
  const auto seeds = propose_seeds(db->graph(), req.k, o);
  if (!req.out.empty()) write_seed_list(*db, seeds, req.out);
  const GraphView& g = db->graph();
  SeedsReport r;
  for (const auto& s : seeds) {
    const auto title = db->title(s.page);
    r.candidates.push_back({std::string(db->label(s.page)),
                            title ? std::optional<std::string>(*title) : std::nullopt,
                            s.inverse_pagerank, g.out.degree(s.page), g.in.degree(s.page)});
  }
  return r;
}

SpamReportResult spam_report(Session* session, const SpamReportRequest& req, const Run& run) {
  const auto db = session->database();
  SpamReportResult r;
  SpamReportOptions o = req.report;
  std::vector<double> pagerank, mass;
  if (!req.ranks.empty()) {
    StoredRanks s = load_ranks(*db, req.ranks);
    if (!s.record.is_pagerank() || !s.record.damping) {
      fail_option("ranks", "'", req.ranks, "' is not a PageRank vector (", s.record.algorithm,
                  "): its record states no damping factor");
    }
    o.damping = *s.record.damping;
    pagerank = std::move(s.values);
  } else if (req.seeds.given()) {
    const TrustResult t =
        trust_of(*db, seed_pages(*db, req.seeds, "seeds"), req.trust, run, r.notices);
    pagerank = t.pagerank.ranks;
    mass = t.relative_mass;
    o.damping = req.trust.batch.rank.damping;
  } else {
    RankOptions ro = req.trust.batch.rank;
    ro.threads = run.threads;
    ro.stop = run.stop;
    const RankResult p = compute_rank(db->graph(), ro);
    note_convergence(p, "PageRank ", ro, r.notices);
    pagerank = p.ranks;
    o.damping = ro.damping;
  }
  o.max_reports = req.k;
  r.report = webrank::spam_report(*db, pagerank, mass, o);
  r.min_scaled_pagerank = o.min_scaled_pagerank;
  for (const SpamFarm& f : r.report.farms) {
    r.target_labels.emplace_back(db->label(f.target));
    r.supporter_labels.emplace_back();
    for (PageId v : f.supporters) r.supporter_labels.back().emplace_back(db->label(v));
    r.allied_labels.emplace_back();
    for (PageId v : f.allied_targets) r.allied_labels.back().emplace_back(db->label(v));
  }
  return r;
}

PlantResult plant_farm(Session* session, const PlantRequest& req, const Run&) {
  const auto db = session->database();
  PlantOptions o = req.plant;
  if (req.output.empty()) {
    if (!o.force && (!db->rank_names().empty() || db->has_page_data())) {
      fail(ErrorKind::kExists, session->path().string(), " has ",
           db->has_page_data() ? "page data" : "rank vectors",
           " that a planted copy would not keep; write it elsewhere with -o NEW.db, or replace it "
           "with --force");
    }
    o.output = session->path();
    o.force = true;
  } else {
    o.output = req.output;
  }
  PlantResult r;
  r.report = webrank::plant_farm(*db, o);
  r.shape = to_string(o.shape);
  r.output = o.output.string();
  r.notices.said.push_back(cat("planted a ", r.shape, " farm on ", r.report.targets.front(), ": ",
                               r.report.pages_added, " pages and ", r.report.links_added,
                               " links added, ", r.report.accessible.size(),
                               " accessible pages; written to ", r.output));
  return r;
}

void add_spam_operations(std::vector<Operation>& table) {
  const std::string group = "Link spam";
  table.push_back(make_operation(
      {.name = "trust",
       .group = group,
       .summary = "TrustRank (E uniform over trusted seeds) and spam mass (P - T)/P; stores "
                  "trustrank, spam-mass and spam-mass-absolute",
       .access = Access::kWrite},
      trust_options(), &trust));
  table.push_back(make_operation(
      {.name = "seeds",
       .group = group,
       .summary = "Propose trusted-seed candidates for TrustRank by inverse PageRank (pages from "
                  "which much of the web is reached), for a person to vet",
       .verifies = false},
      seeds_options(), &seeds));
  table.push_back(make_operation(
      {.name = "spam-report",
       .group = group,
       .summary = "Likely spam targets, each with the farm feeding it: its supporting pages, the "
                  "share of the target's PageRank they carry, their in/out structure"},
      spam_report_options(), &spam_report));
  table.push_back(make_operation(
      {.name = "plant-farm",
       .group = group,
       .summary = "Add a spam farm to a web, for experiments: a target, M supporting pages and "
                  "links from X accessible pages (the article's model)",
       .access = Access::kWrite},
      plant_options(), &plant_farm));
}

}  // namespace webrank::app
