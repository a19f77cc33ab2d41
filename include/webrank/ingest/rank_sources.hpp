// Rank sources named by people rather than computed: the root pages of every host (the paper's
// compromise between a uniform E and one home page), bookmarks, trusted seeds, the rank sources of
// a batch and the topic assignments of topic-sensitive PageRank, each turned into page ids of a
// database (PageWeights, webrank/util/graph.hpp). File formats are in README.md; every file follows
// the field rule of edge lists (a line with a tab is split on tabs, otherwise on blanks; `#` lines
// and blank lines are skipped) and may be gzip- or zstd-compressed.
//
// Errors: Error(kInvalidInput) naming FILE:LINE and what was expected, kNotFound for a file that
// does not exist. Threads: each function reads only the database and its file; any number may run
// at once.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "webrank/store/database.hpp"
#include "webrank/util/graph.hpp"

namespace webrank {

// The page labelled `label`, or, failing that, labelled by `label` read as a URL and normalized
// as the crawler normalizes links (case of scheme and host, default port, dot segments,
// percent-encoding, no fragment: `HTTP://Example.org:80/a#top` finds `http://example.org/a`);
// nullopt if neither exists. Used by every command that takes a URL (search, backlinks, ppr).
std::optional<PageId> find_page(const Database& db, std::string_view label);

// E uniform over the root page of every host. A page's host is the authority (host[:port]) of its
// label read as an http(s) URL; the root page of a host is its page `scheme://host[:port]/`, or,
// when the web has no such page, the host's page with the fewest path segments (then the shortest
// label, then the smallest id). Labels that are not http(s) URLs belong to no host. Throws
// Error(kInvalidArgument) when no label is such a URL.
PageWeights root_pages(const Database& db);

// A list of pages, one a line: `LABEL` (the whole trimmed line, blanks included) or
// `LABEL<TAB>WEIGHT`. Each label is looked up as it is and, failing that, as a normalized URL
// (`HTTP://Example.org:80/a#top` finds `http://example.org/a`).
struct PageList {
  PageWeights pages;                 // in file order; weight 1 unless given
  std::vector<std::string> missing;  // "FILE:LINE: LABEL" of lines naming no page
};
// With allow_missing false a line naming no page is an error; with true it is listed in
// `missing` (bookmarks name pages a crawl never saw). Either way a list naming no page at all
// is an error.
PageList read_page_list(const Database& db, const std::string& path, bool allow_missing);

// `rank --batch FILE`: one vector a line, `NAME` then the pages of its rank source: labels (E
// uniform over them), or `@FILE` for a weights file (`LABEL<TAB>WEIGHT`, as `--source`; a path
// relative to the batch file's folder). A name alone is a uniform E (plain PageRank). A label
// that itself starts with '@' is written with a second one (`@@name`). Names are rank-vector
// names ([A-Za-z0-9._-]) and distinct.
struct BatchEntry {
  std::string name;
  PageWeights source;  // empty = uniform
};
std::vector<BatchEntry> read_batch_file(const Database& db, const std::string& path);
// The same lines held in memory, each split into its fields (`NAME`, then labels or `@FILE`, a
// path relative to the working folder); errors are Error(kInvalidArgument) about option `field`,
// naming the line (1, 2, ...).
std::vector<BatchEntry> batch_entries(const Database& db,
                                      const std::vector<std::vector<std::string>>& lines,
                                      const std::string& field);

// `topics --assign FILE`: `LABEL<TAB>TOPIC` lines; a page may have several topics. Topic names
// become part of rank-vector names (topic.NAME), so they are [A-Za-z0-9._-]. Topics are listed
// in order of first appearance, each with its pages (weight 1: E uniform over them).
struct TopicAssignment {
  std::vector<std::string> topics;
  std::vector<PageWeights> pages;  // parallel to topics
};
TopicAssignment read_topic_assignment(const Database& db, const std::string& path);

}  // namespace webrank
