// `webrank explain DB URL [--ranks NAME] [-k 10] [--format text|json]`: a page's rank split into
// the rank-source term, each backlink's contribution and the dangling term, its strongest
// two-hop paths, and what its rank would be without a backlink or a host
// (webrank/studies/explain.hpp).
#include <cmath>
#include <cstdio>

#include "common.hpp"
#include "webrank/json.hpp"
#include "webrank/studies/explain.hpp"

namespace webrank::cli {
namespace {

enum class Format { kText, kJson };

void print_text(const RankExplanation& e, std::size_t k) {
  auto percent = [&](double x) { return e.rank > 0 ? 100 * x / e.rank : 0.0; };
  std::printf("page      %s (id %u)\n", e.label.c_str(), e.page);
  std::printf("vector    %s (d = %g)\n", e.vector.c_str(), e.damping);
  std::printf("rank      %.17g\n", e.rank);
  std::printf("  = source term    %.17g  (%5.1f%%)\n", e.source_term, percent(e.source_term));
  std::printf("  + %zu backlinks%*s%.17g  (%5.1f%%)\n", e.backlinks.size(),
              std::max(0, 13 - static_cast<int>(std::to_string(e.backlinks.size()).size())), "",
              e.backlinks_term, percent(e.backlinks_term));
  std::printf("  + dangling term  %.17g  (%5.1f%%)\n", e.dangling_term, percent(e.dangling_term));
  std::printf("  sum %.17g, residual %.3g (the stored vector's own, at this page)\n", e.sum,
              e.residual);
  if (!e.backlinks.empty()) {
    std::printf("\ntop contributors (%zu of %zu backlinks; --format json lists all)\n",
                std::min(k, e.backlinks.size()), e.backlinks.size());
    std::printf("%5s  %13s  %6s  %13s  %9s  %s\n", "#", "contribution", "share", "its rank",
                "out-links", "backlink");
    for (std::size_t i = 0; i < std::min(k, e.backlinks.size()); ++i) {
      const BacklinkContribution& b = e.backlinks[i];
      std::printf("%5zu  %13.6g  %5.1f%%  %13.6g  %9llu  %s\n", i + 1, b.contribution,
                  percent(b.contribution), b.rank, static_cast<unsigned long long>(b.out_links),
                  b.label.c_str());
    }
  }
  if (!e.paths.empty()) {
    std::printf("\ntwo-hop paths carrying the most rank (in two steps, from the current ranks)\n");
    for (std::size_t i = 0; i < e.paths.size(); ++i) {
      std::printf("%5zu  %13.6g  %5.1f%%  %s -> %s\n", i + 1, e.paths[i].contribution,
                  percent(e.paths[i].contribution), e.paths[i].first_label.c_str(),
                  e.paths[i].via_label.c_str());
    }
  }
  if (!e.what_if.empty()) std::printf("\nwhat if (one local re-solve each)\n");
  for (const WhatIf& w : e.what_if) {
    std::printf(
        "  without %s (%llu link%s): rank %.10g (%+.2f%%), within %.2g%s; %llu pushes, "
        "%.3f s\n",
        w.without.c_str(), static_cast<unsigned long long>(w.links_removed),
        w.links_removed == 1 ? "" : "s", w.rank, percent(w.change), w.error_bound,
        w.within_tolerance ? "" : " (time ran out first)",
        static_cast<unsigned long long>(w.pushes), w.seconds);
  }
}

}  // namespace

void add_explain_command(CLI::App& app) {
  struct Args {
    std::string db, url;
    ExplainOptions o;
    Format format = Format::kText;
    bool no_what_if = false, no_verify = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd =
      app.add_subcommand("explain",
                         "Why a page ranks where it does: its rank split term by term, backlink by "
                         "backlink, and what-ifs");
  cmd->add_option("DB", args->db, "Database directory")->required();
  cmd->add_option("URL", args->url, "The page (its label)")->required();
  cmd->add_option("--ranks", args->o.ranks, "Which stored vector")->capture_default_str();
  cmd->add_option("-k", args->o.k, "Top contributors and two-hop paths listed")
      ->capture_default_str()
      ->check(number_check(whole_at_least(1, 1e9)));
  add_enum_option(cmd, "--format", &args->format,
                  {{"text", Format::kText}, {"json", Format::kJson}},
                  "text, or json (every backlink's contribution)");
  cmd->add_option("--without", args->o.without_pages,
                  "What-if: the page's rank without the link from this page (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--without-host", args->o.without_hosts,
                  "What-if: without the links from every page of this host (repeatable)")
      ->allow_extra_args(false);
  cmd->add_flag("--no-what-if", args->no_what_if,
                "Skip the default what-if (without the top contributor)");
  cmd->add_option("--what-if-seconds", args->o.what_if_seconds,
                  "Time bound of one what-if re-solve")
      ->capture_default_str()
      ->check(number_check(positive()));
  cmd->add_option("--what-if-tol", args->o.what_if_tolerance,
                  "Error bound a what-if aims at, relative to the page's rank")
      ->capture_default_str()
      ->check(number_check(positive()));
  cmd->add_flag("--no-verify", args->no_verify, "Skip checksum verification of the database");
  cmd->callback([args] {
    Database db = open_database(args->db, args->no_verify);
    const PageId page = find_page(db, args->db, args->url);
    args->o.what_if_top_backlink = !args->no_what_if;
    const RankExplanation e = explain_rank(db, page, args->o);
    if (args->format == Format::kJson) {
      std::printf("%s\n", json_text(nlohmann::json(e)).c_str());
    } else {
      print_text(e, args->o.k);
    }
  });
}

}  // namespace webrank::cli
