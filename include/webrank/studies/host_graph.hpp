// The host graph (`webrank hosts`): pages grouped by host (or by pay-level domain, the
// registrable domain under the Public Suffix List: www.cs.example.ac.uk -> example.ac.uk), one
// page per group in a new database, a link between two groups weighted by the page links between
// them (summed weights on a weighted web). Links inside a group are dropped unless asked for.
// HostRank is PageRank on that weighted graph (Eiron, McCurley and Tomlin 2004), stored in the
// new database as `hostrank`.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "webrank/rank/rank.hpp"
#include "webrank/store/database.hpp"

#include "webrank/util/named.hpp"

namespace webrank {

enum class HostGrouping { kHost, kDomain };
std::span<const Named<HostGrouping>> names(HostGrouping);  // "host", "domain"

struct HostGraphOptions {
  HostGrouping by = HostGrouping::kHost;
  bool keep_internal = false;  // keep links within a host as self-links
  bool force = false;          // replace an existing output database
  RankOptions rank;            // HostRank (weighted PageRank); its `name` below
  std::string rank_name = "hostrank";
};

struct HostSummary {
  std::string host;
  std::uint64_t pages = 0;
  double hostrank = 0;
  std::uint64_t links_out = 0, links_in = 0;  // page links to and from other hosts
};

struct HostGraphReport {
  std::uint64_t pages = 0;                 // of the page web
  std::uint64_t hosts = 0;                 // groups: the host database's pages
  std::uint64_t pages_without_host = 0;    // labels that are not http(s) URLs: left out
  std::uint64_t host_links = 0;            // links of the host graph
  std::uint64_t page_links_between = 0;    // page links between different groups
  std::uint64_t page_links_within = 0;     // page links inside a group
  RankResult hostrank;                     // ranks by host id of the new database
  std::vector<HostSummary> hosts_by_rank;  // every host, highest HostRank first
};

// The host (or registrable domain) of a URL label, lower case; "" when the label is not an http(s)
// URL. A host that is an IP address, or a public suffix itself, is its own domain.
std::string host_group(std::string_view label, HostGrouping by);

// Builds the host graph of `db` into `output` (atomically, like `webrank build`) and stores
// HostRank in it. Throws Error: kInvalidInput when no label is an http(s) URL, kExists when
// `output` exists without `force`, and whatever building and ranking throw.
HostGraphReport build_host_graph(const Database& db, const std::filesystem::path& output,
                                 const HostGraphOptions& options);

}  // namespace webrank
