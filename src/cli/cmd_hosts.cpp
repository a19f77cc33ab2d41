// `webrank hosts DB -o HOSTS.db [--by host|domain]`: the host graph, weighted by the page links
// between hosts, as a database of its own, with HostRank stored in it
// (webrank/studies/host_graph.hpp).
#include <cstdio>

#include "common.hpp"
#include "interrupts.hpp"
#include "webrank/json.hpp"
#include "webrank/store/rank_store.hpp"
#include "webrank/studies/host_graph.hpp"

namespace webrank::cli {

void add_hosts_command(CLI::App& app) {
  struct Args {
    std::string db, out;
    HostGraphOptions o;
    std::size_t k = 20;
    bool json = false, quiet = false, no_verify = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "hosts",
      "Build the host graph (hosts or pay-level domains, links weighted by page links) "
      "with HostRank");
  cmd->add_option("DB", args->db, "Database directory (page labels are URLs)")->required();
  cmd->add_option("-o,--output", args->out, "The host database to write")->required();
  add_enum_option(cmd, "--by", &args->o.by,
                  {{"host", HostGrouping::kHost}, {"domain", HostGrouping::kDomain}},
                  "Group pages by host name, or by pay-level domain (Public Suffix List)");
  cmd->add_flag("--keep-internal", args->o.keep_internal,
                "Keep links within a host as self-links (dropped by default)");
  cmd->add_option("--damping", args->o.rank.damping, "Damping factor of HostRank")
      ->capture_default_str()
      ->check(number_check({0, false, 1, false}));
  cmd->add_option("--tol", args->o.rank.tol, "L1 tolerance of HostRank")
      ->capture_default_str()
      ->check(number_check(positive()));
  cmd->add_option("--name", args->o.rank_name, "Name of the HostRank vector")
      ->capture_default_str();
  cmd->add_option("-k", args->k, "Top hosts shown")
      ->capture_default_str()
      ->check(number_check(whole_at_least(1, 1e9)));
  cmd->add_flag("--force", args->o.force, "Replace an existing host database");
  add_run_flags(cmd, &args->o.rank.threads, &args->json, &args->quiet, &args->no_verify);
  cmd->callback([args] {
    check_rank_name(args->o.rank_name);
    Database db = open_database(args->db, args->no_verify);
    args->o.rank.stop = arm_interrupts();
    const HostGraphReport r = build_host_graph(db, args->out, args->o);
    disarm_interrupts();
    if (args->json) {
      nlohmann::json j;
      host_graph_json(j, r, args->k);
      j["output"] = args->out;
      std::printf("%s\n", json_text(j).c_str());
      return;
    }
    if (args->quiet) return;
    const char* unit = args->o.by == HostGrouping::kHost ? "hosts" : "domains";
    std::printf(
        "%llu pages -> %llu %s, %llu links between them (%llu page links; %llu within "
        "%s %s)\n",
        static_cast<unsigned long long>(r.pages), static_cast<unsigned long long>(r.hosts), unit,
        static_cast<unsigned long long>(r.host_links),
        static_cast<unsigned long long>(r.page_links_between),
        static_cast<unsigned long long>(r.page_links_within),
        args->o.by == HostGrouping::kHost ? "a host" : "a domain",
        args->o.keep_internal ? "kept as self-links" : "dropped");
    if (r.pages_without_host > 0) {
      std::printf("%llu pages whose label is not an http(s) URL were left out\n",
                  static_cast<unsigned long long>(r.pages_without_host));
    }
    std::printf("HostRank: %d iterations, stored as '%s' in %s\n", r.hostrank.iterations,
                args->o.rank_name.c_str(), args->out.c_str());
    std::printf("%5s  %12s  %7s  %9s  %9s  %s\n", "#", "hostrank", "pages", "links in", "links out",
                unit);
    for (std::size_t i = 0; i < std::min(args->k, r.hosts_by_rank.size()); ++i) {
      const HostSummary& h = r.hosts_by_rank[i];
      std::printf("%5zu  %12.6g  %7llu  %9llu  %9llu  %s\n", i + 1, h.hostrank,
                  static_cast<unsigned long long>(h.pages),
                  static_cast<unsigned long long>(h.links_in),
                  static_cast<unsigned long long>(h.links_out), h.host.c_str());
    }
    if (!r.hostrank.converged) {
      std::fprintf(stderr, "webrank: warning: HostRank did not converge (L1 change %.3e)\n",
                   r.hostrank.final_delta);
      exit_status() = kExitNotConverged;
    }
  });
}

}  // namespace webrank::cli
