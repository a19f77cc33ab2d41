// Link spam (docs/spam.md): trust (TrustRank and spam mass), seeds (candidates by inverse
// PageRank), spam-report (likely farms), plant-farm (farms for experiments). Options declared
// once in src/app/spam.cpp; results with their JSON form in webrank/app/app_json.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "webrank/app/operation.hpp"
#include "webrank/spam/spam.hpp"

namespace webrank::app {

// `trust`: TrustRank from trusted seeds and PageRank in one batch, the spam masses, all stored
// (trustrank, spam-mass, spam-mass-absolute); the k pages of highest relative spam mass among
// those whose PageRank is at least ten times the average.
struct TrustRequest {
  TrustOptions trust;  // damping, tol, max_iter, precision; good_fraction
  WeightsValue seeds;  // a file of pages, one a line, or a list of pages
  std::string out;     // LABEL<TAB>PAGERANK<TAB>TRUSTRANK<TAB>SPAM_MASS for every page
  bool absolute = false;
  std::uint64_t k = 20;
};
struct TrustPage {
  std::string label;
  double pagerank = 0, trustrank = 0, spam_mass = 0, spam_mass_absolute = 0;
};
struct TrustReport : ResultBase {
  std::uint64_t seeds = 0;
  int pagerank_iterations = 0, trustrank_iterations = 0;
  double good_fraction = 1;
  std::vector<TrustPage> pages;
  std::string database;
};
TrustReport trust(Session* session, const TrustRequest& request, const Run& run);

// `seeds`: candidates for trusted seeds by inverse PageRank, for a person to vet.
struct SeedsRequest {
  RankOptions rank;
  std::uint64_t k = 20;
  std::string out;  // their labels, one a line (a --seeds file)
};
struct SeedsReport : ResultBase {
  struct Candidate {
    std::string label;
    std::optional<std::string> title;
    double inverse_pagerank = 0;
    std::uint64_t out_links = 0, in_links = 0;
  };
  std::vector<Candidate> candidates;
};
SeedsReport seeds(Session* session, const SeedsRequest& request, const Run& run);

// `spam-report`: likely spam targets with the farms feeding them, from PageRank (computed, or
// the stored vector `ranks`, whose damping it uses) and, with seeds, spam mass.
struct SpamReportRequest {
  TrustOptions trust;  // the solves, when PageRank (and TrustRank) are computed
  SpamReportOptions report;
  WeightsValue seeds;
  std::string ranks;
  std::uint64_t k = 20;
};
struct SpamReportResult : ResultBase {
  SpamReport report;
  std::vector<std::string> target_labels;
  std::vector<std::vector<std::string>> supporter_labels, allied_labels;
  double min_scaled_pagerank = 0;
};
SpamReportResult spam_report(Session* session, const SpamReportRequest& request, const Run& run);

// `plant-farm`: a spam farm added to a web, written as a new database (or replacing it).
struct PlantRequest {
  PlantOptions plant;
  std::string output;  // default: replace the database (needs force when it has vectors)
};
struct PlantResult : ResultBase {
  PlantReport report;
  std::string shape, output;
};
PlantResult plant_farm(Session* session, const PlantRequest& request, const Run& run);

}  // namespace webrank::app
