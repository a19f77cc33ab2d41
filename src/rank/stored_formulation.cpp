#include "rank/stored_formulation.hpp"

#include "webrank/util/error.hpp"

namespace webrank {
namespace {

// A distribution from stored {"pages": [...], "weights": [...]}, normalized to sum 1.
std::vector<double> stored_distribution(const nlohmann::json& j, PageId n, const char* what,
                                        const std::string& name) {
  const auto pages = j.at("pages").get<std::vector<std::uint64_t>>();
  const auto weights = j.at("weights").get<std::vector<double>>();
  if (pages.size() != weights.size()) {
    fail(ErrorKind::kCorrupt, "rank vector '", name, "': its ", what, " has ", pages.size(),
         " pages and ", weights.size(), " weights");
  }
  std::vector<double> d(n, 0.0);
  double sum = 0;
  for (std::size_t i = 0; i < pages.size(); ++i) {
    if (pages[i] >= n) {
      fail(ErrorKind::kCorrupt, "rank vector '", name, "': its ", what, " names page ", pages[i],
           " of ", n);
    }
    d[pages[i]] += weights[i];
    sum += weights[i];
  }
  if (!(sum > 0)) fail(ErrorKind::kCorrupt, "rank vector '", name, "': its ", what, " is zero");
  for (double& x : d) x /= sum;
  return d;
}

}  // namespace

StoredFormulation stored_formulation(const nlohmann::json& meta, PageId n,
                                     const std::string& name) {
  StoredFormulation f;
  f.pages = n;
  f.damping = meta.value("damping", 0.85);
  const std::string algorithm = meta.value("algorithm", "pagerank");
  if (algorithm != "pagerank") {
    f.not_a_fixed_point = "it is not a PageRank vector (algorithm " + algorithm + ")";
    return f;
  }
  const std::string dangling = meta.value("dangling", "source");
  if (dangling == "remove") {
    f.not_a_fixed_point =
        "computed with dangling pages removed and added back (--dangling remove): not the fixed "
        "point of an iteration over the whole web";
    return f;
  }
  if (meta.value("personalized", false)) {
    if (!meta.contains("source_weights")) {
      f.not_a_fixed_point = "its rank source is not stored (more pages than the metadata keeps)";
      return f;
    }
    f.source = stored_distribution(meta["source_weights"], n, "rank source", name);
  }
  if (dangling == "custom") {
    if (!meta.contains("dangling_weights")) {
      f.not_a_fixed_point =
          "its dangling weights are not stored (more pages than the metadata keeps)";
      return f;
    }
    f.dangling_to = stored_distribution(meta["dangling_weights"], n, "dangling weights", name);
  } else if (dangling == "uniform") {
    f.dangling_to.assign(n, 1.0 / n);
  }
  f.leak = dangling == "leak";
  return f;
}

}  // namespace webrank
