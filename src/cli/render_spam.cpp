// Text for people of the link-spam commands: trust, seeds, spam-report, plant-farm. Each renders
// its operation's JSON form (webrank/app/spam.hpp).
#include <algorithm>
#include <cstdio>

#include "commands.hpp"
#include "common.hpp"
#include "render_text.hpp"

namespace webrank::cli {
namespace {

using nlohmann::json;

void trust(const Rendered& r) {
  if (r.quiet) return;
  std::printf("%4s  %-12s %-12s %9s  %s\n", "#", "pagerank", "trustrank", "spam mass", "page");
  int i = 0;
  for (const json& p : r.out.json) {
    std::printf("%4d  %-12.6g %-12.6g %9.4f  %s\n", ++i, p.at("pagerank").get<double>(),
                p.at("trustrank").get<double>(), p.at("spam_mass").get<double>(),
                str(p, "label").c_str());
  }
  if (i == 0) {
    std::printf(
        "(none: only pages with PageRank at least 10x the average are listed; --out FILE "
        "writes every page)\n");
  }
}

void seeds(const Rendered& r) {
  std::printf("%4s  %-14s %9s %9s  %s\n", "#", "inverse rank", "out-links", "in-links", "page");
  int i = 0;
  for (const json& s : r.out.json) {
    std::string page = str(s, "label");
    const std::string title = str(s, "title");
    if (!title.empty()) page += "  \"" + title + "\"";
    std::printf("%4d  %-14.6g %9llu %9llu  %s\n", ++i, s.at("inverse_pagerank").get<double>(),
                s.at("out_links").get<unsigned long long>(),
                s.at("in_links").get<unsigned long long>(), page.c_str());
  }
}

void spam_report(const Rendered& r) {
  if (r.quiet) return;
  const json& report = r.out.json;
  const std::size_t show = given_or(r, "show").get<std::size_t>();
  const std::size_t farms = report.at("farms").size();
  std::printf("%zu likely spam target%s among %zu pages with PageRank >= %g x average%s\n", farms,
              farms == 1 ? "" : "s", report.at("candidates").get<std::size_t>(),
              given_or(r, "min_scaled_pagerank").get<double>(),
              report.at("used_trust").get<bool>() ? " (with spam mass)" : "");
  int i = 0;
  for (const json& f : report.at("farms")) {
    const json& s = f.at("structure");
    std::printf("\n%d. %s\n", ++i, str(f, "label").c_str());
    std::printf("   PageRank %.4g (%.1f x average); its farm carries %.1f%% of it",
                f.at("pagerank").get<double>(), f.at("scaled_pagerank").get<double>(),
                100 * f.at("farm_share").get<double>());
    if (f.contains("relative_mass")) {
      std::printf("; relative spam mass %.3f (of the whole farm %.3f)",
                  f.at("relative_mass").get<double>(), f.at("farm_mass").get<double>());
    }
    const auto hosts = s.at("hosts").get<std::size_t>();
    std::printf(
        "\n   %zu supporting pages: %.1f out-links each, %.0f%% of them into the farm; %.1f "
        "in-links each, %.0f%% from the farm; the target links back to %zu; %zu host%s\n",
        s.at("supporters").get<std::size_t>(), s.at("mean_out_degree").get<double>(),
        100 * s.at("out_share_to_farm").get<double>(), s.at("mean_in_degree").get<double>(),
        100 * s.at("in_share_from_farm").get<double>(), s.at("reciprocal").get<std::size_t>(),
        hosts, hosts == 1 ? "" : "s");
    const auto duplicates = s.at("duplicate_content").get<std::size_t>();
    const auto sharing = s.at("hosts_sharing_a_title").get<std::size_t>();
    if (duplicates || sharing > 1) {
      std::printf(
          "   crawl evidence: %zu supporters with duplicate content; %zu hosts share one page "
          "title\n",
          duplicates, sharing);
    }
    const std::size_t allies = f.at("allied_targets").size();
    if (allies) {
      std::printf("   linked from %zu other reported target%s (an alliance)\n", allies,
                  allies == 1 ? "" : "s");
    }
    const json& supporters = f.at("supporter_labels");
    for (std::size_t j = 0; j < std::min(show, supporters.size()); ++j)
      std::printf("     %s\n", supporters[j].get<std::string>().c_str());
    if (supporters.size() > show)
      std::printf("     ... and %zu more (--json lists all)\n", supporters.size() - show);
  }
}

void plant_farm(const Rendered&) {
  // What was planted is said on stderr (the operation's notices).
}

}  // namespace

void add_spam_commands(std::vector<Command>& table) {
  app::OptionSpec show;
  show.name = "show";
  show.type = app::ValueType::kWhole;
  show.default_value = 5;
  show.range = app::at_least(0);
  show.help = "Supporting pages shown per farm (all with --json)";
  table.push_back({"trust", &trust});
  table.push_back({"seeds", &seeds});
  table.push_back({"spam-report", &spam_report, {show}});
  table.push_back({"plant-farm", &plant_farm});
}

}  // namespace webrank::cli
