// A page's neighbours on the rank scales: the pages linking to it ordered by their rank (the
// paper's §7.4, "backlinks sorted by PageRank") and the pages it links to, each with the
// target's rank and log-scale bar (what the paper's proxy, §7.3, draws before every link).
//
// Threads: pure functions of their arguments; call them from any number of threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "webrank/rank/presentation.hpp"
#include "webrank/store/database.hpp"

namespace webrank {

struct Backlinks {
  std::uint64_t total = 0;  // pages linking to the page (ranked links: nofollow ones do not vote)
  std::vector<RankedPage> pages;  // the k of highest rank after `offset`, rank descending
};

// The pages linking to `page`, ordered by rank (ties: smaller page id first), from position
// `offset` on, at most k. A page linking to itself is not listed (its link counts in its rank;
// describe_page() reports it as self_link). Precondition: page < pages.
Backlinks backlinks(const Database& db, const PresentedRanks& ranks, PageId page, std::size_t k,
                    std::size_t offset = 0);

struct ForwardLink {
  RankedPage target;
  bool nofollow = false;  // recorded in the page data, does not vote
};

// The pages `page` links to, ranked links first by the target's rank descending (ties: smaller
// id), then its nofollow links (crawled webs) the same way. Precondition: page < pages.
std::vector<ForwardLink> forward_links(const Database& db, const PresentedRanks& ranks,
                                       PageId page);

}  // namespace webrank
