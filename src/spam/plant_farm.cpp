// Spam farms planted into a web for experiments (webrank/spam/spam.hpp): the web is written back as
// records with the farm's pages and links added, through the database writer, so the new
// database keeps every page id of the old one (pages are declared in id order first) and is
// written atomically.
#include <algorithm>
#include <random>
#include <unordered_set>

#include "util/atomic_file.hpp"
#include "webrank/spam/spam.hpp"
#include "webrank/util/error.hpp"
#include "writer/database_builder.hpp"

namespace webrank {

std::span<const Named<FarmShape>> names(FarmShape) {
  static constexpr Named<FarmShape> kNames[] = {{FarmShape::kStar, "star"},
                                                {FarmShape::kChain, "chain"},
                                                {FarmShape::kAlliance, "alliance"},
                                                {FarmShape::kHidden, "hidden"}};
  return kNames;
}

const char* to_string(FarmShape s) {
  return name_in(names(s), s);
}

PlantReport plant_farm(const Database& db, const PlantOptions& o) {
  if (o.target.empty()) fail_option("target", "is empty");
  if (o.supporters < 1) fail_option("supporters", "must be at least 1");
  if (o.shape == FarmShape::kAlliance && o.farms < 2)
    fail_option("farms", "an alliance needs at least 2 farms, got ", o.farms);
  const std::size_t farms = o.shape == FarmShape::kAlliance ? o.farms : 1;
  const GraphView& g = db.graph();
  const PageId n = db.num_pages();
  if (o.accessible > n)
    fail_option("accessible", "asks for ", o.accessible, " pages, the web has ", n);

  struct Farm {
    std::string target;
    std::vector<std::string> supporters;
  };
  std::vector<Farm> plan(farms);
  std::unordered_set<std::string> labels;
  for (std::size_t f = 0; f < farms; ++f) {
    plan[f].target = f == 0 ? o.target : cat(o.target, "~", f + 1);
    for (std::size_t i = 1; i <= o.supporters; ++i) {
      plan[f].supporters.push_back(cat(plan[f].target, "~s", i));
      if (db.find(plan[f].supporters.back())) {
        fail_option("target", "would add the page '", plan[f].supporters.back(),
                    "', which the web already has (plant each farm under its own target)");
      }
    }
    if (f > 0 && db.find(plan[f].target))
      fail_option("target", "would add the target '", plan[f].target, "', which exists");
  }

  std::mt19937_64 rng(o.seed);
  // Existing pages, not targets, chosen at random: the accessible pages.
  std::vector<PageId> accessible;
  {
    std::unordered_set<PageId> taken;
    if (const auto t = db.find(o.target)) taken.insert(*t);
    std::uniform_int_distribution<PageId> pick(0, n - 1);
    while (accessible.size() < std::min<std::size_t>(o.accessible, n - taken.size())) {
      const PageId u = pick(rng);
      if (taken.insert(u).second) accessible.push_back(u);
    }
  }
  // Popular pages for camouflage links: the 1,000 with the most in-links.
  std::vector<PageId> popular;
  if (o.shape == FarmShape::kHidden && o.camouflage > 0) {
    std::vector<PageId> ids(n);
    for (PageId u = 0; u < n; ++u) ids[u] = u;
    const std::size_t keep = std::min<std::size_t>(1000, n);
    std::partial_sort(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(keep), ids.end(),
                      [&](PageId a, PageId b) {
                        return g.in.degree(a) > g.in.degree(b) ||
                               (g.in.degree(a) == g.in.degree(b) && a < b);
                      });
    popular.assign(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(keep));
  }

  // The farm's links, as labels.
  std::vector<std::pair<std::string, std::string>> links;
  for (std::size_t f = 0; f < farms; ++f) {
    const Farm& farm = plan[f];
    const auto& s = farm.supporters;
    if (o.shape == FarmShape::kChain) {
      links.emplace_back(farm.target, s.front());
      for (std::size_t i = 0; i + 1 < s.size(); ++i) links.emplace_back(s[i], s[i + 1]);
      links.emplace_back(s.back(), farm.target);
    } else {
      for (const auto& sup : s) {
        links.emplace_back(farm.target, sup);
        links.emplace_back(sup, farm.target);
        if (o.shape == FarmShape::kHidden && !popular.empty()) {
          std::uniform_int_distribution<std::size_t> pick(0, popular.size() - 1);
          for (std::size_t c = 0; c < o.camouflage; ++c)
            links.emplace_back(sup, std::string(db.label(popular[pick(rng)])));
        }
      }
    }
    if (o.shape == FarmShape::kAlliance)
      links.emplace_back(farm.target, plan[(f + 1) % farms].target);
  }
  PlantReport report;
  for (std::size_t i = 0; i < accessible.size(); ++i) {
    const std::string from(db.label(accessible[i]));
    links.emplace_back(from, plan[i % farms].target);
    report.accessible.push_back(from);
  }

  BuildOptions bo;
  bo.inputs = {cat(db.path().string(), " with a planted ", to_string(o.shape), " farm")};
  bo.output = o.output;
  bo.weighted = g.weighted();
  bo.force = o.force;
  write_database(bo, [&](RecordSink& sink, BuildProgress&) {
    sink.expect_links(g.num_links + links.size());
    for (PageId u = 0; u < n; ++u) sink.page(db.label(u));  // ids stay as they were
    for (PageId u = 0; u < n; ++u) {
      const auto targets = g.out.neighbors(u);
      for (std::size_t i = 0; i < targets.size(); ++i) {
        sink.link(db.label(u), db.label(targets[i]),
                  g.weighted() ? g.out.neighbor_weights(u)[i] : 1.0);
      }
    }
    for (const Farm& farm : plan) {
      sink.page(farm.target);
      for (const auto& sup : farm.supporters) sink.page(sup);
    }
    for (const auto& [from, to] : links) sink.link(from, to, 1.0);
    return static_cast<std::uint64_t>(g.num_links + links.size());
  });

  for (const Farm& farm : plan) {
    report.targets.push_back(farm.target);
    report.pages_added += farm.supporters.size() + (db.find(farm.target) ? 0 : 1);
  }
  report.links_added = links.size();
  if (!o.truth.empty()) {
    AtomicFileWriter out(o.truth);
    std::string text;
    for (const Farm& farm : plan) {
      text += cat(farm.target, "\ttarget\t", farm.target, "\n");
      for (const auto& sup : farm.supporters) text += cat(sup, "\tsupporter\t", farm.target, "\n");
    }
    for (std::size_t i = 0; i < report.accessible.size(); ++i)
      text += cat(report.accessible[i], "\taccessible\t", plan[i % farms].target, "\n");
    out.write(text);
    out.commit();
  }
  return report;
}

}  // namespace webrank
