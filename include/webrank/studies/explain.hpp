// Why a page ranks where it does (`webrank explain`). A stored PageRank vector R is the fixed
// point of
//   R(u) = (1 − d)·E(u) + Σ_{v→u} d·R(v)·w(v,u)/W(v) + d·(Σ_{v dangling} R(v))·D(u)
// (docs/ranking.md), so a page's rank splits exactly into the rank-source term, one contribution
// per backlink (its rank × d / its out-degree, or × its weight share on a weighted web) and the
// dangling term. The terms are computed from the stored vector and the formulation its metadata
// records; their sum differs from the stored rank only by the vector's own residual at the page
// (below 1e-12 for a double vector ranked to the default --tol), which is reported.
//
// Two-hop paths w → v → u carry d·R(w)·w(w,v)/W(w) · d·w(v,u)/W(v) of u's rank in two steps.
// What-if: the page's rank on the web without some links into it (those of one page, or of every
// page of one host) is found by one local re-solve: the change Δ of the vector solves
// Δ = r₀ + d·M′Δ, where r₀ = T′(R) − T(R) is non-zero only next to the removed links; it is pushed
// from page to page (forward push, Andersen–Chung–Lang) until the unpushed residual bounds the
// error below the asked tolerance or the time runs out; the bound d·‖r‖₁/(1 − d) is reported.
#pragma once

#include <cstdint>
#include <stop_token>
#include <string>
#include <vector>

#include "webrank/store/database.hpp"

namespace webrank {

struct BacklinkContribution {
  PageId page = kNoPage;
  std::string label;
  double rank = 0;              // R(v)
  std::uint64_t out_links = 0;  // L(v)
  double share = 0;             // w(v,u)/W(v): 1/L(v) on an unweighted web
  double contribution = 0;      // d·R(v)·share
};

struct RankPath {
  PageId first = kNoPage, via = kNoPage;  // first → via → the page
  std::string first_label, via_label;
  double contribution = 0;
};

struct WhatIf {
  std::string without;  // "link from LABEL" or "host HOST"
  std::uint64_t links_removed = 0;
  double rank = 0;         // the page's rank without them
  double change = 0;       // rank − the stored rank
  double error_bound = 0;  // |rank − exact| <= this
  std::uint64_t pushes = 0;
  bool within_tolerance = true;  // false: the time ran out first (error_bound says how far)
  double seconds = 0;
};

struct RankExplanation {
  PageId page = kNoPage;
  std::string label;
  std::string vector;  // the stored vector explained
  double damping = 0;
  double rank = 0;  // stored
  double source_term = 0, dangling_term = 0, backlinks_term = 0;
  double sum = 0;       // source_term + backlinks_term + dangling_term
  double residual = 0;  // rank − sum: the vector's own residual at the page
  std::vector<BacklinkContribution> backlinks;  // all of them, largest contribution first
  std::vector<RankPath> paths;                  // the k two-hop paths carrying the most rank
  std::vector<WhatIf> what_if;
};

struct ExplainOptions {
  std::string ranks = "pagerank";
  std::size_t k = 10;                      // two-hop paths kept
  std::vector<std::string> without_pages;  // what-if: without the links from these pages
  std::vector<std::string> without_hosts;  // what-if: without the links from these hosts' pages
  bool what_if_top_backlink = false;       // what-if: without the top contributor, if no other
  double what_if_seconds = 2;              // per what-if
  double what_if_tolerance = 1e-6;         // of the error bound, relative to the page's rank
  std::stop_token stop;                    // checked as often as the time: Error(kCancelled)
};

// Throws Error: kNotFound (vector, or a page or host of the what-ifs that does not link to the
// page), kInvalidArgument for a vector that is not a fixed point (HITS, --dangling remove, a
// rank source not kept in the metadata).
RankExplanation explain_rank(const Database& db, PageId page, const ExplainOptions& options);

}  // namespace webrank
