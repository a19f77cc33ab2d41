#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "cli/common.hpp"
#include "webrank/rank_store.hpp"

namespace webrank::cli {
namespace {

struct DegreeStats {
  std::uint64_t min = 0, max = 0, median = 0, zero = 0;
  double mean = 0;
};

DegreeStats degree_stats(const Adjacency& a, PageId n) {
  std::vector<std::uint64_t> deg(n);
  for (PageId u = 0; u < n; ++u) deg[u] = a.degree(u);
  DegreeStats s;
  s.zero = static_cast<std::uint64_t>(std::count(deg.begin(), deg.end(), 0));
  s.mean = static_cast<double>(a.offsets[n]) / n;
  std::nth_element(deg.begin(), deg.begin() + n / 2, deg.end());
  s.median = deg[n / 2];
  auto [lo, hi] = std::minmax_element(deg.begin(), deg.end());
  s.min = *lo;
  s.max = *hi;
  return s;
}

nlohmann::json to_json(const DegreeStats& s) {
  return {{"min", s.min}, {"max", s.max}, {"mean", s.mean}, {"median", s.median}, {"zero", s.zero}};
}

}  // namespace

void add_info_command(CLI::App& app) {
  struct Args {
    std::string db;
    bool json = false, no_verify = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd =
      app.add_subcommand("info", "Show a database's pages, links and degree statistics");
  cmd->add_option("DB", args->db, "Database directory")->required();
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->add_flag("--no-verify", args->no_verify, "Skip checksum verification");
  cmd->callback([args] {
    Database db = open_database(args->db, args->no_verify);
    const DatabaseStats& st = db.stats();
    const GraphView& g = db.graph();
    const DegreeStats out = degree_stats(g.out, st.pages);
    const DegreeStats in = degree_stats(g.in, st.pages);
    std::uint64_t isolated = 0;
    for (PageId u = 0; u < st.pages; ++u) isolated += g.out.degree(u) == 0 && g.in.degree(u) == 0;
    std::uint64_t bytes = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(db.path())) {
      if (e.is_regular_file()) bytes += e.file_size();
    }
    nlohmann::json j;
    j["database"] = args->db;
    j["pages"] = st.pages;
    j["links"] = st.links;
    j["dangling_pages"] = st.dangling_pages;
    j["self_links"] = st.self_links;
    j["isolated_pages"] = isolated;
    j["weighted"] = st.weighted;
    j["out_degree"] = to_json(out);
    j["in_degree"] = to_json(in);
    j["bytes_on_disk"] = bytes;
    if (db.has_page_data()) {
      // Crawled webs: how much of the web was fetched, and what came back.
      std::uint64_t fetched = 0, ok = 0, titled = 0, duplicates = 0;
      std::map<int, std::uint64_t> by_class;  // 2xx, 3xx, 4xx, 5xx
      std::unordered_map<std::uint64_t, int> seen_hashes;
      for (PageId u = 0; u < st.pages; ++u) {
        const int status = db.status(u).value_or(0);
        if (status == 0) continue;
        ++fetched;
        ++by_class[status / 100 * 100];
        ok += status >= 200 && status < 300;
        if (const auto t = db.title(u); t && !t->empty()) ++titled;
        if (const auto h = db.content_hash(u); h && *h != 0 && seen_hashes[*h]++ > 0) ++duplicates;
      }
      nlohmann::json classes = nlohmann::json::object();
      for (const auto& [c, n] : by_class) classes[std::to_string(c / 100) + "xx"] = n;
      j["crawl"] = {{"fetched_pages", fetched},
                    {"not_fetched_pages", st.pages - fetched},
                    {"status", classes},
                    {"pages_with_title", titled},
                    {"exact_duplicates", duplicates},
                    {"nofollow_links", db.num_nofollow_links()}};
    }
    nlohmann::json ranks = nlohmann::json::array();
    for (const auto& name : db.rank_names()) {
      nlohmann::json r{{"name", name}};
      try {
        auto meta = nlohmann::json::parse(load_ranks(db, name).metadata_json);
        for (const char* k : {"precision", "method", "solved_by", "damping", "dangling",
                              "iterations", "converged", "final_delta"}) {
          if (meta.contains(k)) r[k] = meta[k];
        }
      } catch (const std::exception& e) {
        r["error"] = e.what();
      }
      ranks.push_back(r);
    }
    j["ranks"] = ranks;
    if (args->json) {
      std::printf("%s\n", j.dump(2).c_str());
      return;
    }
    std::printf("database        %s (%s on disk)\n", args->db.c_str(),
                format_bytes(static_cast<double>(bytes)).c_str());
    std::printf("pages           %u\n", st.pages);
    std::printf("links           %llu%s\n", static_cast<unsigned long long>(st.links),
                st.weighted ? " (weighted)" : "");
    std::printf("dangling pages  %u (%.1f%%)\n", st.dangling_pages,
                100.0 * st.dangling_pages / st.pages);
    std::printf("self-links      %llu\n", static_cast<unsigned long long>(st.self_links));
    if (j.contains("crawl")) {
      const auto& c = j["crawl"];
      std::string classes;
      for (const auto& [k, v] : c["status"].items()) {
        classes += (classes.empty() ? "" : ", ") + k + " " + std::to_string(v.get<std::uint64_t>());
      }
      std::printf(
          "crawled         %llu pages fetched (%s), %llu known but not fetched; %llu with "
          "a title, %llu exact duplicates, %llu nofollow links (not ranked)\n",
          c["fetched_pages"].get<unsigned long long>(), classes.c_str(),
          c["not_fetched_pages"].get<unsigned long long>(),
          c["pages_with_title"].get<unsigned long long>(),
          c["exact_duplicates"].get<unsigned long long>(),
          c["nofollow_links"].get<unsigned long long>());
    }
    std::printf("isolated pages  %llu\n", static_cast<unsigned long long>(isolated));
    for (auto [name, s] : {std::pair{"out-degree", out}, std::pair{"in-degree", in}}) {
      std::printf("%-15s min %llu, median %llu, mean %.2f, max %llu; %llu pages with none\n", name,
                  static_cast<unsigned long long>(s.min), static_cast<unsigned long long>(s.median),
                  s.mean, static_cast<unsigned long long>(s.max),
                  static_cast<unsigned long long>(s.zero));
    }
    for (const auto& r : ranks) {
      if (r.contains("error")) {
        std::printf("ranks           %s: %s\n", r["name"].get<std::string>().c_str(),
                    r["error"].get<std::string>().c_str());
        continue;
      }
      std::string method = r.value("method", "?");
      if (r.contains("solved_by")) method += " (" + r.value("solved_by", "?") + ")";
      std::printf("ranks           %s: %s, %s, d=%g, dangling %s, %d iterations%s\n",
                  r["name"].get<std::string>().c_str(), method.c_str(),
                  r.value("precision", "?").c_str(), r.value("damping", 0.0),
                  r.value("dangling", "?").c_str(), r.value("iterations", 0),
                  r.value("converged", false) ? "" : " (NOT converged)");
    }
  });
}

}  // namespace webrank::cli
