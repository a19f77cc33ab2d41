// Trust and spam (webrank/spam/spam.hpp, docs/spam.md):
//   webrank trust DB --seeds FILE [--out FILE]     TrustRank and spam mass
//   webrank seeds DB -k N                          seed candidates by inverse PageRank
//   webrank spam-report DB [--seeds FILE]          likely spam targets and their farms
//   webrank plant-farm DB --target URL --supporters M [--accessible X]   farms for experiments
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "common.hpp"
#include "interrupts.hpp"
#include "webrank/ingest/rank_sources.hpp"
#include "webrank/json.hpp"
#include "webrank/rank/presentation.hpp"
#include "webrank/spam/spam.hpp"
#include "webrank/store/rank_store.hpp"

namespace webrank::cli {
namespace {

PageWeights read_seeds(const Database& db, const std::string& path) {
  return read_page_list(db, path, /*allow_missing=*/false).pages;
}

// P and T in one batch with the command's options and progress line.
TrustResult trust_of(const Database& db, const PageWeights& seeds, TrustOptions o, bool quiet,
                     ProgressMode progress) {
  ProgressLine line(quiet ? ProgressMode::kNever : progress);
  o.batch.on_iteration = batch_progress(line, progress);
  o.batch.rank.stop = arm_interrupts();
  TrustResult t = compute_trust(db.graph(), seeds, o);
  disarm_interrupts();
  line.finish();
  report_convergence(t.pagerank, "PageRank ", o.batch.rank);
  report_convergence(t.trustrank, "TrustRank ", o.batch.rank);
  return t;
}

void add_trust_command(CLI::App& app) {
  struct Args {
    std::string db, seeds, out;
    TrustOptions o;
    std::size_t k = 20;
    bool absolute = false, quiet = false, json = false, no_verify = false;
    ProgressMode progress = ProgressMode::kAuto;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "trust",
      "TrustRank (E uniform over trusted seeds) and spam mass (P - T)/P; stores trustrank, "
      "spam-mass and spam-mass-absolute");
  cmd->add_option("DB", args->db, "Database directory")->required();
  cmd->add_option("--seeds", args->seeds,
                  "File of trusted pages, one label or URL a line (see `webrank seeds`)")
      ->required();
  cmd->add_option("--out", args->out,
                  "Write label<TAB>pagerank<TAB>trustrank<TAB>spam_mass for every page (a header "
                  "line, then id order; - = standard output)");
  cmd->add_option("--good-fraction", args->o.good_fraction,
                  "Estimated fraction of good pages, the good core's scaling: spam mass is "
                  "(P - g*T)/P (1: the article's (P - T)/P)")
      ->capture_default_str()
      ->check(number_check({.low = 0, .low_open = true, .high = 1}));
  cmd->add_flag("--absolute", args->absolute,
                "The table's spam_mass column holds the absolute mass P - g*T");
  add_batch_rank_options(cmd, &args->o.batch.rank);
  cmd->add_option("-k", args->k, "Pages listed (highest relative spam mass first)")
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "Print the listed pages as JSON");
  cmd->add_flag("-q,--quiet", args->quiet, "Print nothing but errors and warnings");
  cmd->add_flag("--no-verify", args->no_verify, "Skip checksum verification of the database");
  add_progress_option(cmd, &args->progress);
  cmd->callback([args] {
    Database db = open_database(args->db, args->no_verify);
    const PageWeights seeds = read_seeds(db, args->seeds);
    const TrustResult t = trust_of(db, seeds, args->o, args->quiet || args->json, args->progress);
    save_trust(db, t, seeds, args->o);
    if (!args->out.empty()) write_trust_table(db, t, args->out, args->absolute);
    // The pages of highest relative spam mass among those whose PageRank is at least ten
    // times the average (Gyöngyi et al.'s candidates: mass matters where rank is high).
    const double n = db.num_pages();
    std::vector<PageId> pages;
    for (PageId u = 0; u < db.num_pages(); ++u) {
      if (t.pagerank.ranks[u] * n >= 10) pages.push_back(u);
    }
    std::sort(pages.begin(), pages.end(), [&](PageId a, PageId b) {
      return t.relative_mass[a] > t.relative_mass[b] ||
             (t.relative_mass[a] == t.relative_mass[b] && a < b);
    });
    if (pages.size() > args->k) pages.resize(args->k);
    if (args->json) {
      nlohmann::json j = nlohmann::json::array();
      for (PageId u : pages) {
        j.push_back({{"label", std::string(db.label(u))},
                     {"pagerank", t.pagerank.ranks[u]},
                     {"trustrank", t.trustrank.ranks[u]},
                     {"spam_mass", t.relative_mass[u]},
                     {"spam_mass_absolute", t.absolute_mass[u]}});
      }
      std::printf("%s\n", json_text(j).c_str());
      return;
    }
    if (args->quiet) return;
    std::printf("%4s  %-12s %-12s %9s  %s\n", "#", "pagerank", "trustrank", "spam mass", "page");
    int i = 0;
    for (PageId u : pages) {
      std::printf("%4d  %-12.6g %-12.6g %9.4f  %s\n", ++i, t.pagerank.ranks[u],
                  t.trustrank.ranks[u], t.relative_mass[u], std::string(db.label(u)).c_str());
    }
    std::fprintf(stderr,
                 "TrustRank from %zu seeds (%d iterations), PageRank (%d iterations) in one "
                 "batch; spam mass with good fraction %g; stored trustrank, spam-mass and "
                 "spam-mass-absolute in %s\n",
                 seeds.size(), t.trustrank.iterations, t.pagerank.iterations, args->o.good_fraction,
                 args->db.c_str());
  });
}

void add_seeds_command(CLI::App& app) {
  struct Args {
    std::string db, out;
    std::size_t k = 20;
    RankOptions o;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "seeds",
      "Propose trusted-seed candidates for TrustRank by inverse PageRank (pages from which much "
      "of the web is reached), for a person to vet");
  cmd->add_option("DB", args->db, "Database directory")->required();
  cmd->add_option("-k", args->k, "How many candidates")
      ->capture_default_str()
      ->check(number_check(whole_at_least(1)));
  cmd->add_option("--out", args->out,
                  "Also write the candidates' labels, one a line (a --seeds file to vet)");
  add_batch_rank_options(cmd, &args->o);
  cmd->add_flag("--json", args->json, "Print the candidates as JSON");
  cmd->callback([args] {
    const Database db = Database::open(args->db);
    const auto seeds = propose_seeds(db.graph(), args->k, args->o);
    const GraphView& g = db.graph();
    if (!args->out.empty()) write_seed_list(db, seeds, args->out);
    if (args->json) {
      nlohmann::json j = nlohmann::json::array();
      for (const auto& s : seeds) {
        j.push_back({{"label", std::string(db.label(s.page))},
                     {"inverse_pagerank", s.inverse_pagerank},
                     {"out_links", g.out.degree(s.page)},
                     {"in_links", g.in.degree(s.page)}});
      }
      std::printf("%s\n", json_text(j).c_str());
      return;
    }
    std::printf("%4s  %-14s %9s %9s  %s\n", "#", "inverse rank", "out-links", "in-links", "page");
    int i = 0;
    for (const auto& s : seeds) {
      std::string page(db.label(s.page));
      if (const auto title = db.title(s.page); title && !title->empty())
        page += "  \"" + std::string(*title) + "\"";
      std::printf("%4d  %-14.6g %9llu %9llu  %s\n", ++i, s.inverse_pagerank,
                  static_cast<unsigned long long>(g.out.degree(s.page)),
                  static_cast<unsigned long long>(g.in.degree(s.page)), page.c_str());
    }
  });
}

void add_spam_report_command(CLI::App& app) {
  struct Args {
    std::string db, seeds, ranks;
    TrustOptions trust;
    SpamReportOptions o;
    std::size_t k = 20, show = 5;
    bool json = false, quiet = false, no_verify = false;
    ProgressMode progress = ProgressMode::kAuto;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "spam-report",
      "Likely spam targets, each with the farm feeding it: its supporting pages, the share of "
      "the target's PageRank they carry, their in/out structure");
  cmd->add_option("DB", args->db, "Database directory")->required();
  auto* seeds = cmd->add_option("--seeds", args->seeds,
                                "Trusted pages (one a line): use spam mass as evidence too");
  cmd->add_option("--good-fraction", args->trust.good_fraction,
                  "With --seeds: the good core's scaling (see `webrank trust`)")
      ->capture_default_str()
      ->check(number_check({.low = 0, .low_open = true, .high = 1}));
  cmd->add_option("--ranks", args->ranks,
                  "Use this stored PageRank vector (uniform E) instead of computing it")
      ->excludes(seeds);
  add_batch_rank_options(cmd, &args->trust.batch.rank);
  cmd->add_option("--min-scaled-pagerank", args->o.min_scaled_pagerank,
                  "Candidate targets: PageRank at least this many times the average")
      ->capture_default_str()
      ->check(number_check(non_negative()));
  cmd->add_option("--min-supporters", args->o.min_supporters, "Smallest farm reported")
      ->capture_default_str()
      ->check(number_check(whole_at_least(1)));
  cmd->add_option("--min-share", args->o.min_farm_share,
                  "Smallest share of the target's PageRank its farm must carry")
      ->capture_default_str()
      ->check(number_check({.low = 0, .high = 1}));
  cmd->add_option("--min-out-share", args->o.min_out_share,
                  "A page joins a farm when this share of its out-links go into it")
      ->capture_default_str()
      ->check(number_check({.low = 0, .high = 1}));
  cmd->add_option("--min-mass", args->o.min_relative_mass,
                  "With --seeds: smallest relative spam mass of a reported target")
      ->capture_default_str();
  cmd->add_option("-k", args->k, "Farms listed")->capture_default_str();
  cmd->add_option("--show", args->show, "Supporting pages shown per farm (all with --json)")
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "Print the report as JSON");
  cmd->add_flag("-q,--quiet", args->quiet, "Print nothing but errors and warnings");
  cmd->add_flag("--no-verify", args->no_verify, "Skip checksum verification of the database");
  add_progress_option(cmd, &args->progress);
  cmd->callback([args] {
    Database db = open_database(args->db, args->no_verify);
    std::vector<double> pagerank, mass;
    if (!args->ranks.empty()) {
      const StoredRanks s = load_ranks(db, args->ranks);
      pagerank = s.values;
      if (!s.record.is_pagerank() || !s.record.damping)
        fail(ErrorKind::kInvalidArgument, "--ranks: '", args->ranks, "' is not a PageRank vector (",
             s.record.algorithm, ")");
      args->o.damping = *s.record.damping;
    } else if (!args->seeds.empty()) {
      const TrustResult t = trust_of(db, read_seeds(db, args->seeds), args->trust,
                                     args->quiet || args->json, args->progress);
      pagerank = t.pagerank.ranks;
      mass = t.relative_mass;
      args->o.damping = args->trust.batch.rank.damping;
    } else {
      ProgressLine line(args->quiet || args->json ? ProgressMode::kNever : args->progress);
      RankOptions o = args->trust.batch.rank;
      o.stop = arm_interrupts();
      const RankResult r = compute_rank(db.graph(), o);
      disarm_interrupts();
      report_convergence(r, "PageRank ", o);
      pagerank = r.ranks;
      args->o.damping = o.damping;
    }
    args->o.max_reports = args->k;
    const SpamReport report = spam_report(db, pagerank, mass, args->o);
    if (args->json) {
      nlohmann::json j = report;
      for (std::size_t i = 0; i < report.farms.size(); ++i) {
        const SpamFarm& f = report.farms[i];
        j["farms"][i]["label"] = std::string(db.label(f.target));
        nlohmann::json sup = nlohmann::json::array();
        for (PageId v : f.supporters) sup.push_back(std::string(db.label(v)));
        j["farms"][i]["supporter_labels"] = sup;
        nlohmann::json allies = nlohmann::json::array();
        for (PageId v : f.allied_targets) allies.push_back(std::string(db.label(v)));
        j["farms"][i]["allied_target_labels"] = allies;
      }
      std::printf("%s\n", json_text(j).c_str());
      return;
    }
    if (args->quiet) return;
    std::printf("%zu likely spam target%s among %zu pages with PageRank >= %g x average%s\n",
                report.farms.size(), report.farms.size() == 1 ? "" : "s", report.candidates,
                args->o.min_scaled_pagerank, report.used_trust ? " (with spam mass)" : "");
    int i = 0;
    for (const SpamFarm& f : report.farms) {
      const FarmStructure& s = f.structure;
      std::printf("\n%d. %s\n", ++i, std::string(db.label(f.target)).c_str());
      std::printf("   PageRank %.4g (%.1f x average); its farm carries %.1f%% of it", f.pagerank,
                  f.scaled_pagerank, 100 * f.farm_share);
      if (f.relative_mass >= -0.5) {
        std::printf("; relative spam mass %.3f (of the whole farm %.3f)", f.relative_mass,
                    f.farm_mass);
      }
      std::printf(
          "\n   %zu supporting pages: %.1f out-links each, %.0f%% of them into the farm; "
          "%.1f in-links each, %.0f%% from the farm; the target links back to %zu; "
          "%zu host%s\n",
          s.supporters, s.mean_out_degree, 100 * s.out_share_to_farm, s.mean_in_degree,
          100 * s.in_share_from_farm, s.reciprocal, s.hosts, s.hosts == 1 ? "" : "s");
      if (s.duplicate_content || s.hosts_sharing_a_title > 1) {
        std::printf(
            "   crawl evidence: %zu supporters with duplicate content; %zu hosts share "
            "one page title\n",
            s.duplicate_content, s.hosts_sharing_a_title);
      }
      if (!f.allied_targets.empty()) {
        std::printf("   linked from %zu other reported target%s (an alliance)\n",
                    f.allied_targets.size(), f.allied_targets.size() == 1 ? "" : "s");
      }
      for (std::size_t j = 0; j < std::min(args->show, f.supporters.size()); ++j)
        std::printf("     %s\n", std::string(db.label(f.supporters[j])).c_str());
      if (f.supporters.size() > args->show)
        std::printf("     ... and %zu more (--json lists all)\n", f.supporters.size() - args->show);
    }
  });
}

void add_plant_farm_command(CLI::App& app) {
  struct Args {
    std::string db, output, shape = "star";
    PlantOptions o;
    bool quiet = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "plant-farm",
      "Add a spam farm to a web, for experiments: a target, M supporting pages and links from "
      "X accessible pages (the article's model)");
  cmd->add_option("DB", args->db, "Database directory")->required();
  cmd->add_option("--target", args->o.target,
                  "Label of the target (an existing page to boost, or a new one)")
      ->required();
  cmd->add_option("--supporters", args->o.supporters, "Supporting pages (new) per farm")
      ->required()
      ->check(number_check(whole_at_least(1)));
  cmd->add_option("--accessible", args->o.accessible,
                  "Existing pages, chosen at random, given a link to the target")
      ->capture_default_str();
  cmd->add_option("--shape", args->shape,
                  "star (target <-> each supporter), chain (target -> s1 -> ... -> sM -> "
                  "target), alliance (--farms stars whose targets link in a ring), hidden (a "
                  "star whose supporters also link to --camouflage popular pages)")
      ->check(CLI::IsMember({"star", "chain", "alliance", "hidden"}))
      ->capture_default_str();
  cmd->add_option("--farms", args->o.farms, "alliance: how many farms")->capture_default_str();
  cmd->add_option("--camouflage", args->o.camouflage, "hidden: honest-looking links per supporter")
      ->capture_default_str();
  cmd->add_option("--seed", args->o.seed, "Random seed (accessible and camouflage pages)")
      ->capture_default_str();
  cmd->add_option("-o,--output", args->output,
                  "Write the new web here (default: replace DB, which needs --force if DB has "
                  "rank vectors or page data, as they are not carried over)");
  cmd->add_option("--truth", args->o.truth,
                  "Also write the planted pages: LABEL<TAB>target|supporter|accessible<TAB>TARGET");
  cmd->add_flag("--force", args->o.force, "Replace an existing output");
  cmd->add_flag("-q,--quiet", args->quiet, "Print nothing but errors and warnings");
  cmd->callback([args] {
    Database db = open_database(args->db, false);
    PlantOptions& o = args->o;
    o.shape = args->shape == "chain"      ? FarmShape::kChain
              : args->shape == "alliance" ? FarmShape::kAlliance
              : args->shape == "hidden"   ? FarmShape::kHidden
                                          : FarmShape::kStar;
    if (args->output.empty()) {
      if (!o.force && (!db.rank_names().empty() || db.has_page_data())) {
        fail(ErrorKind::kExists, args->db, " has ",
             db.has_page_data() ? "page data" : "rank vectors",
             " that a planted copy would not keep; write it elsewhere with -o NEW.db, or "
             "replace it with --force");
      }
      o.output = args->db;
      o.force = true;
    } else {
      o.output = args->output;
    }
    const PlantReport r = plant_farm(db, o);
    if (!args->quiet) {
      std::fprintf(stderr,
                   "planted a %s farm on %s: %zu pages and %zu links added, %zu "
                   "accessible pages; written to %s\n",
                   args->shape.c_str(), r.targets.front().c_str(), r.pages_added, r.links_added,
                   r.accessible.size(), o.output.string().c_str());
    }
  });
}

}  // namespace

void add_spam_commands(CLI::App& app) {
  add_trust_command(app);
  add_seeds_command(app);
  add_spam_report_command(app);
  add_plant_farm_command(app);
}

}  // namespace webrank::cli
