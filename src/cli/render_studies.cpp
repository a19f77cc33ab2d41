// Text for people of the commands that make databases (build, import, crawl, update, generate,
// export, partition: what they did is said on stderr by their operations) and of the studies:
// explain, usage, crawl-order, hosts, centrality, report. Each renders its operation's JSON
// form (webrank/app/making.hpp, webrank/app/studies.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "commands.hpp"
#include "common.hpp"
#include "render_text.hpp"

namespace webrank::cli {
namespace {

using nlohmann::json;

// j[key] as a number: NaN when it is null (a correlation of constant values), 0 when absent.
double num(const json& j, const char* key) {
  if (!j.contains(key)) return 0.0;
  return j[key].is_number() ? j[key].get<double>() : NAN;
}

// What the command did is said on stderr by its operation; nothing goes to stdout.
void said(const Rendered&) {}

void explain(const Rendered& r) {
  const json& e = r.out.json;
  const double rank = num(e, "rank");
  const auto percent = [&](double x) { return rank > 0 ? 100 * x / rank : 0.0; };
  const std::size_t k = given_or(r, "k").get<std::size_t>();
  const json& backlinks = e.at("backlinks");
  std::printf("page      %s (id %u)\n", str(e, "label").c_str(), e.at("page").get<unsigned>());
  std::printf("vector    %s (d = %g)\n", str(e, "vector").c_str(), num(e, "damping"));
  std::printf("rank      %.17g\n", rank);
  std::printf("  = source term    %.17g  (%5.1f%%)\n", num(e, "source_term"),
              percent(num(e, "source_term")));
  std::printf("  + %zu backlinks%*s%.17g  (%5.1f%%)\n", backlinks.size(),
              std::max(0, 13 - static_cast<int>(std::to_string(backlinks.size()).size())), "",
              num(e, "backlinks_term"), percent(num(e, "backlinks_term")));
  std::printf("  + dangling term  %.17g  (%5.1f%%)\n", num(e, "dangling_term"),
              percent(num(e, "dangling_term")));
  std::printf("  sum %.17g, residual %.3g (the stored vector's own, at this page)\n", num(e, "sum"),
              num(e, "residual"));
  if (!backlinks.empty()) {
    std::printf("\ntop contributors (%zu of %zu backlinks; --format json lists all)\n",
                std::min(k, backlinks.size()), backlinks.size());
    std::printf("%5s  %13s  %6s  %13s  %9s  %s\n", "#", "contribution", "share", "its rank",
                "out-links", "backlink");
    for (std::size_t i = 0; i < std::min(k, backlinks.size()); ++i) {
      const json& b = backlinks[i];
      std::printf("%5zu  %13.6g  %5.1f%%  %13.6g  %9llu  %s\n", i + 1, num(b, "contribution"),
                  percent(num(b, "contribution")), num(b, "rank"),
                  b.at("out_links").get<unsigned long long>(), str(b, "label").c_str());
    }
  }
  if (!e.at("paths").empty()) {
    std::printf("\ntwo-hop paths carrying the most rank (in two steps, from the current ranks)\n");
    std::size_t i = 0;
    for (const json& p : e.at("paths")) {
      std::printf("%5zu  %13.6g  %5.1f%%  %s -> %s\n", ++i, num(p, "contribution"),
                  percent(num(p, "contribution")), str(p, "first").c_str(), str(p, "via").c_str());
    }
  }
  if (!e.at("what_if").empty()) std::printf("\nwhat if (one local re-solve each)\n");
  for (const json& w : e.at("what_if")) {
    const auto links = w.at("links_removed").get<unsigned long long>();
    std::printf(
        "  without %s (%llu link%s): rank %.10g (%+.2f%%), within %.2g%s; %llu pushes, %.3f s\n",
        str(w, "without").c_str(), links, links == 1 ? "" : "s", num(w, "rank"),
        percent(num(w, "change")), num(w, "error_bound"),
        w.at("within_tolerance").get<bool>() ? "" : " (time ran out first)",
        w.at("pushes").get<unsigned long long>(), num(w, "seconds"));
  }
}

void usage_list(const char* title, const json& pages) {
  std::printf("\n%s\n", title);
  if (pages.empty()) {
    std::printf("  (none: the two orders agree on every page)\n");
    return;
  }
  std::printf("%5s  %10s  %7s  %13s  %7s  %s\n", "#", "visits", "usage%", "rank", "rank%", "page");
  std::size_t i = 0;
  for (const json& p : pages) {
    std::printf("%5zu  %10.6g  %7.2f  %13.6g  %7.2f  %s\n", ++i, num(p, "visits"),
                num(p, "usage_percentile"), num(p, "rank"), num(p, "rank_percentile"),
                str(p, "label").c_str());
  }
}

void usage_comparison(const json& c, const std::string& what) {
  std::printf("\n'%s'%s against usage, on all %llu pages (no visit = 0):\n",
              str(c, "vector").c_str(), what.c_str(), c.at("pages").get<unsigned long long>());
  std::printf("Spearman %.6f\n", num(c, "spearman"));
  std::printf("Kendall %.6f\n", num(c, "kendall"));
  std::printf("on the %llu visited pages only: Spearman %.6f, Kendall %.6f\n",
              c.at("visited_pages").get<unsigned long long>(), num(c, "spearman_visited"),
              num(c, "kendall_visited"));
  usage_list("high usage, low rank (largest usage percentile - rank percentile)",
             c.at("high_usage_low_rank"));
  usage_list("high rank, low usage (largest rank percentile - usage percentile)",
             c.at("high_rank_low_usage"));
}

void usage(const Rendered& r) {
  const json& u = r.out.json;
  const std::string from = r.given.contains("counts") ? given_or(r, "counts").get<std::string>()
                                                      : given_or(r, "log").get<std::string>();
  std::printf("usage: %.15g visits on %llu of %llu pages, from %s\n", num(u, "visits"),
              u.at("visited_pages").get<unsigned long long>(),
              u.at("pages").get<unsigned long long>(), from.c_str());
  if (u.contains("log")) {
    const json& l = u.at("log");
    std::printf(
        "log: %llu lines (%llu in the Combined format), site %s: %llu visits counted; skipped "
        "%llu not GET, %llu not 2xx/304, %llu robots, %llu unknown paths\n",
        l.at("lines").get<unsigned long long>(), l.at("combined_lines").get<unsigned long long>(),
        str(l, "site").c_str(), l.at("counted").get<unsigned long long>(),
        l.at("not_get").get<unsigned long long>(), l.at("not_success").get<unsigned long long>(),
        l.at("bots").get<unsigned long long>(), l.at("unknown_urls").get<unsigned long long>());
    for (const json& t : l.at("top_unknown")) {
      std::printf("  unknown: %s (%llu requests)\n", str(t, "path").c_str(),
                  t.at("requests").get<unsigned long long>());
    }
  }
  usage_comparison(u.at("comparisons")[0], "");
  if (u.contains("source_rank")) {
    usage_comparison(u.at("comparisons")[1],
                     cat(" (PageRank with the usage as rank source, ",
                         u.at("source_rank").at("iterations").get<int>(), " iterations; stored)"));
  }
}

void crawl_order(const Rendered& r) {
  if (r.quiet) return;
  const json& s = r.out.json;
  std::printf(
      "crawls from %s: %llu of %llu pages reachable; hot: the top %g%% (%llu pages) by final %s\n",
      str(s, "seed_label").c_str(), s.at("reachable").get<unsigned long long>(),
      s.at("pages").get<unsigned long long>(), 100 * num(s, "hot_fraction"),
      s.at("hot_pages").get<unsigned long long>(), str(s, "hot_by").c_str());
  std::printf(
      "fraction of the hot pages found after crawling 10%%, 20%%, 50%% of the pages, and on "
      "average over the crawl:\n");
  std::printf("%-10s  %7s  %7s  %7s  %7s  %9s  %8s\n", "order", "10%", "20%", "50%", "mean",
              "PR runs", "seconds");
  bool pagerank = false;
  for (const json& c : s.at("curves")) {
    pagerank = pagerank || str(c, "order") == "pagerank";
    std::printf("%-10s  %7.3f  %7.3f  %7.3f  %7.3f  %9llu  %8.2f\n", str(c, "order").c_str(),
                num(c, "hot_at_10"), num(c, "hot_at_20"), num(c, "hot_at_50"), num(c, "mean_hot"),
                c.at("pagerank_computations").get<unsigned long long>(), num(c, "seconds"));
  }
  const json& ideal = s.at("ideal");
  std::printf("%-10s  %7.3f  %7.3f  %7.3f  %7.3f\n", "ideal", num(ideal, "hot_at_10"),
              num(ideal, "hot_at_20"), num(ideal, "hot_at_50"), num(ideal, "mean_hot"));
  if (pagerank) {
    std::printf("(PageRank of the graph seen recomputed every %llu pages)\n",
                s.at("recompute_every").get<unsigned long long>());
  }
}

void hosts(const Rendered& r) {
  if (r.quiet) return;
  const json& h = r.out.json;
  const bool by_host = given_or(r, "by") == "host";
  const char* unit = by_host ? "hosts" : "domains";
  std::printf(
      "%llu pages -> %llu %s, %llu links between them (%llu page links; %llu within %s %s)\n",
      h.at("pages").get<unsigned long long>(), h.at("hosts").get<unsigned long long>(), unit,
      h.at("host_links").get<unsigned long long>(),
      h.at("page_links_between").get<unsigned long long>(),
      h.at("page_links_within").get<unsigned long long>(), by_host ? "a host" : "a domain",
      given_or(r, "keep_internal").get<bool>() ? "kept as self-links" : "dropped");
  if (h.at("pages_without_host").get<unsigned long long>() > 0) {
    std::printf("%llu pages whose label is not an http(s) URL were left out\n",
                h.at("pages_without_host").get<unsigned long long>());
  }
  std::printf("HostRank: %d iterations, stored as '%s' in %s\n",
              h.at("hostrank").at("iterations").get<int>(),
              given_or(r, "name").get<std::string>().c_str(), str(h, "output").c_str());
  std::printf("%5s  %12s  %7s  %9s  %9s  %s\n", "#", "hostrank", "pages", "links in", "links out",
              unit);
  std::size_t i = 0;
  for (const json& x : h.at("top")) {
    std::printf("%5zu  %12.6g  %7llu  %9llu  %9llu  %s\n", ++i, num(x, "hostrank"),
                x.at("pages").get<unsigned long long>(), x.at("links_in").get<unsigned long long>(),
                x.at("links_out").get<unsigned long long>(), str(x, "host").c_str());
  }
}

void centrality(const Rendered& r) {
  if (r.quiet) return;
  const json& c = r.out.json;
  const bool exact = c.at("exact").get<bool>();
  std::printf(
      "harmonic centrality of %llu pages: %s, %d distances, %.3f s; stored as '%s'\n",
      static_cast<unsigned long long>(r.session->database()->num_pages()),
      exact ? "exact" : cat("HyperLogLog with 2^", c.at("log2m").get<int>(), " registers").c_str(),
      c.at("iterations").get<int>(), num(c, "seconds"), str(c, "name").c_str());
  std::printf("%5s  %14s  %s\n", "#", "harmonic", "page");
  std::size_t i = 0;
  for (const json& p : c.at("top")) {
    std::printf("%5zu  %14.6g  %s\n", ++i, num(p, "rank"), str(p, "label").c_str());
  }
  if (c.contains("comparison")) {
    const json& k = c.at("comparison");
    std::printf("against '%s': Spearman %.6f  Kendall %.6f", str(c, "compared_with").c_str(),
                num(k, "spearman"), num(k, "kendall_tau"));
    for (const json& t : k.at("top")) {
      std::printf("  top-%llu shared %.1f%%", t.at("k").get<unsigned long long>(),
                  100 * num(t, "fraction"));
    }
    std::printf("\n");
  }
}

// --json with -o: the data is what the file holds (`-o -`: standard output, once).
void report_before(json& given, RunFlags& flags) {
  if (!flags.json || !given.contains("output")) return;
  given["format"] = "json";
  flags.json = false;
}

}  // namespace

void add_making_commands(std::vector<Command>& table) {
  for (const char* op : {"build", "import", "crawl", "update", "generate", "export"})
    table.push_back({op, &said});
}

void add_studies_commands(std::vector<Command>& table) {
  app::OptionSpec format;
  format.name = "format";
  format.type = app::ValueType::kChoice;
  format.choices = {"text", "json"};
  format.default_value = "text";
  format.help = "text, or json (every backlink's contribution)";
  table.push_back({"explain", &explain, {format}});
  table.push_back({"usage", &usage});
  table.push_back({"crawl-order", &crawl_order});
  table.push_back({"hosts", &hosts});
  table.push_back({"centrality", &centrality});
  Command report{"report", &said};
  report.before = &report_before;
  table.push_back(report);
  table.push_back({"partition", &said});
}

}  // namespace webrank::cli
