// The host graph and HostRank (webrank/studies/host_graph.hpp).
#include "webrank/studies/host_graph.hpp"

#include <libpsl.h>

#include <algorithm>
#include <memory>
#include <unordered_map>

#include "algo/quotient_graph.hpp"
#include "web/url.hpp"
#include "webrank/util/error.hpp"
#include "writer/database_builder.hpp"

namespace webrank {
namespace {

// The Public Suffix List: Debian's current copy (package publicsuffix) when present, else the
// one built into libpsl. Loaded once, read-only afterwards.
const psl_ctx_t* suffix_list() {
  static const std::unique_ptr<psl_ctx_t, void (*)(psl_ctx_t*)> ctx(psl_latest(nullptr), psl_free);
  return ctx ? ctx.get() : psl_builtin();
}

}  // namespace

std::string host_group(std::string_view label, HostGrouping by) {
  const auto url = web::parse_url(label);
  if (!url || (url->scheme != "http" && url->scheme != "https") || url->host.empty()) return "";
  if (by == HostGrouping::kHost) return url->host;
  const psl_ctx_t* psl = suffix_list();
  const char* domain = psl ? psl_registrable_domain(psl, url->host.c_str()) : nullptr;
  return domain ? std::string(domain) : url->host;
}

HostGraphReport build_host_graph(const Database& db, const std::filesystem::path& output,
                                 const HostGraphOptions& o) {
  const GraphView& g = db.graph();
  HostGraphReport r;
  r.pages = db.num_pages();
  std::vector<std::uint32_t> group(db.num_pages(), kNoGroup);
  std::vector<std::string> names;
  std::vector<std::uint64_t> pages_of;
  {
    std::unordered_map<std::string, std::uint32_t> id;
    for (PageId u = 0; u < db.num_pages(); ++u) {
      std::string h = host_group(db.label(u), o.by);
      if (h.empty()) {
        ++r.pages_without_host;
        continue;
      }
      auto [it, added] = id.emplace(std::move(h), static_cast<std::uint32_t>(names.size()));
      if (added) {
        names.push_back(it->first);
        pages_of.push_back(0);
      }
      group[u] = it->second;
      ++pages_of[it->second];
    }
  }
  if (names.empty()) {
    fail(ErrorKind::kInvalidInput, db.path().string(), ": no page label is an http(s) URL (e.g. '",
         db.num_pages() ? db.label(0) : "", "'): a host graph needs URLs");
  }
  r.hosts = names.size();
  std::vector<GroupLink> links = quotient_links(g, group, true);
  for (const GroupLink& l : links) {
    (l.source == l.target ? r.page_links_within : r.page_links_between) += l.links;
  }
  if (!o.keep_internal) {
    std::erase_if(links, [](const GroupLink& l) { return l.source == l.target; });
  }
  r.host_links = links.size();

  BuildOptions b;
  b.output = output;
  b.inputs = {cat(o.by == HostGrouping::kHost ? "hosts" : "domains", " of ", db.path().string())};
  b.weighted = true;
  b.force = o.force;
  b.threads = o.rank.threads;
  b.stop = o.rank.stop;
  write_database(b, [&](RecordSink& sink, BuildProgress&) {
    for (const std::string& h : names) sink.page(h);
    for (const GroupLink& l : links) sink.link(names[l.source], names[l.target], l.weight);
    return static_cast<std::uint64_t>(names.size() + links.size());
  });

  const Database hosts = Database::open(output);
  r.hostrank = compute_rank(hosts.graph(), o.rank);
  save_ranks(hosts, o.rank_name, r.hostrank, o.rank);

  std::vector<std::uint64_t> out(names.size(), 0), in(names.size(), 0);
  for (const GroupLink& l : links) {
    if (l.source == l.target) continue;
    out[l.source] += l.links;
    in[l.target] += l.links;
  }
  for (std::uint32_t h = 0; h < names.size(); ++h) {
    r.hosts_by_rank.push_back({names[h], pages_of[h], r.hostrank.ranks[h], out[h], in[h]});
  }
  std::stable_sort(
      r.hosts_by_rank.begin(), r.hosts_by_rank.end(),
      [](const HostSummary& a, const HostSummary& b) { return a.hostrank > b.hostrank; });
  return r;
}

std::span<const Named<HostGrouping>> names(HostGrouping) {
  static constexpr Named<HostGrouping> kNames[] = {{HostGrouping::kHost, "host"},
                                                   {HostGrouping::kDomain, "domain"}};
  return kNames;
}

}  // namespace webrank
