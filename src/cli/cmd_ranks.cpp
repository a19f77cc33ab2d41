// `webrank ranks DB [--delete NAME]... [--json]`: the stored rank vectors, and removing them.
// `webrank compare-ranks DB A B [-k K]... [--json]`: how two vectors (stored, or a
// LABEL<TAB>VALUE file) differ: L1, largest difference, Kendall's tau-b, Spearman's rho, top-k
// overlap (webrank/rank/rank_comparison.hpp).
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>

#include "common.hpp"
#include "webrank/ingest/page_weights_file.hpp"
#include "webrank/json.hpp"
#include "webrank/rank/rank_comparison.hpp"
#include "webrank/store/rank_store.hpp"
#include "webrank/store/summary.hpp"

namespace webrank::cli {
namespace {

std::string describe(const RankVectorSummary& r) {
  if (r.algorithm == "hits") return r.kind == "hub" ? "HITS hubs" : "HITS authorities";
  if (r.algorithm == "harmonic") return "harmonic centrality (" + r.kind + ")";
  std::string how = r.method;
  if (r.solved_by) how += " (" + *r.solved_by + ")";
  how += cat(", d=", r.damping, ", dangling ", r.dangling);
  if (r.personalized) how += ", personalized";
  if (r.stale) how += "; stale (computed before an update)";
  return how;
}

std::string date(std::int64_t seconds) {
  if (seconds <= 0) return "-";
  const std::time_t t = static_cast<std::time_t>(seconds);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", std::localtime(&t));
  return text;
}

// The values a comparison reads from `what`: a stored vector of db if there is one by that name,
// else a LABEL<TAB>VALUE file (its labels must be pages of db).
struct Values {
  std::string what;
  std::vector<double> by_page;  // NaN where the file gives no value
  bool from_file = false;
  std::uint64_t listed = 0;
};

Values read_values(const Database& db, const std::string& what) {
  Values v;
  v.what = what;
  const auto names = db.rank_names();
  if (std::find(names.begin(), names.end(), what) != names.end()) {
    v.by_page = load_ranks(db, what).values;
    v.listed = v.by_page.size();
    return v;
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(what, ec)) {
    std::string have;
    for (const auto& n : names) have += (have.empty() ? "" : ", ") + n;
    fail(ErrorKind::kNotFound, what, ": neither a rank vector of ", db.path().string(),
         " (stored: ", have.empty() ? "none" : have, ") nor a LABEL<TAB>VALUE file");
  }
  v.from_file = true;
  v.by_page.assign(db.num_pages(), NAN);
  for (const auto& [page, value] : read_page_weights(db, what)) {
    v.listed += std::isnan(v.by_page[page]);
    v.by_page[page] = value;
  }
  return v;
}

}  // namespace

void add_ranks_command(CLI::App& app) {
  struct Args {
    std::string db;
    std::vector<std::string> remove;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("ranks", "List the stored rank vectors, or delete some");
  cmd->add_option("DB", args->db, "Database directory")->required();
  cmd->add_option("--delete", args->remove,
                  "Delete this stored vector (repeatable; a HITS name such as 'hits' deletes "
                  "hits.authority and hits.hub)")
      ->allow_extra_args(false);
  cmd->add_flag("--json", args->json, "Print the list as JSON");
  cmd->callback([args] {
    Database db = Database::open(args->db);
    for (const std::string& name : args->remove) {
      const auto names = db.rank_names();
      const bool stored = std::find(names.begin(), names.end(), name) != names.end();
      const bool hits =
          !stored && std::find(names.begin(), names.end(), name + ".authority") != names.end();
      for (const std::string& n : hits
                                      ? std::vector<std::string>{name + ".authority", name + ".hub"}
                                      : std::vector<std::string>{name}) {
        delete_ranks(db, n);
        std::fprintf(stderr, "deleted '%s' from %s\n", n.c_str(), args->db.c_str());
      }
    }
    if (!args->remove.empty() && !args->json) return;
    std::vector<RankVectorSummary> list;
    for (const std::string& name : db.rank_names()) list.push_back(summarize_ranks(db, name));
    if (args->json) {
      std::printf("%s\n", json_text(nlohmann::json(list)).c_str());
      return;
    }
    if (list.empty()) {
      std::printf("no rank vectors in %s (webrank rank %s computes one)\n", args->db.c_str(),
                  args->db.c_str());
      return;
    }
    std::printf("%-24s %-9s %-10s %6s %-16s %9s  %s\n", "name", "converged", "precision", "iter",
                "created", "size", "computed by");
    for (const RankVectorSummary& r : list) {
      if (!r.error.empty()) {
        std::printf("%-24s unreadable: %s\n", r.name.c_str(), r.error.c_str());
        continue;
      }
      std::printf("%-24s %-9s %-10s %6d %-16s %9s  %s\n", r.name.c_str(),
                  r.converged ? "yes" : "NO", r.precision.c_str(), r.iterations,
                  date(r.created).c_str(), format_bytes(static_cast<double>(r.bytes)).c_str(),
                  describe(r).c_str());
    }
  });
}

void add_compare_ranks_command(CLI::App& app) {
  struct Args {
    std::string db, a, b;
    std::vector<std::uint64_t> ks{10, 100, 1000};
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "compare-ranks",
      "Compare two rank vectors (stored, or a LABEL<TAB>VALUE file): L1, Kendall's tau, "
      "Spearman's rho, top-k overlap");
  cmd->add_option("DB", args->db, "Database directory")->required();
  cmd->add_option("A", args->a, "A stored vector's name, or a LABEL<TAB>VALUE file")->required();
  cmd->add_option("B", args->b, "A stored vector's name, or a LABEL<TAB>VALUE file")->required();
  cmd->add_option("-k", args->ks,
                  "Sizes of the top lists compared (repeatable; default 10 100 "
                  "1000)")
      ->allow_extra_args(false)
      ->check(number_check(whole_at_least(1, 1e18)));
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args] {
    Database db = Database::open(args->db);
    const Values a = read_values(db, args->a), b = read_values(db, args->b);
    // A file gives values for the pages it lists: both vectors are compared on those.
    std::vector<double> va, vb;
    std::vector<PageId> pages;
    for (PageId u = 0; u < db.num_pages(); ++u) {
      if (std::isnan(a.by_page[u]) || std::isnan(b.by_page[u])) continue;
      va.push_back(a.by_page[u]);
      vb.push_back(b.by_page[u]);
      pages.push_back(u);
    }
    if (va.empty()) fail(ErrorKind::kInvalidInput, "no page has a value in both vectors");
    const RankComparison c = compare_ranks(va, vb, args->ks);
    if (args->json) {
      nlohmann::json j = c;
      j["a"] = args->a;
      j["b"] = args->b;
      j["of_pages"] = db.num_pages();
      j["max_difference_label"] = db.label(pages[c.max_difference_at]);
      std::printf("%s\n", json_text(j).c_str());
      return;
    }
    std::printf("'%s' and '%s' on %llu of %u pages%s\n", args->a.c_str(), args->b.c_str(),
                static_cast<unsigned long long>(c.pages), db.num_pages(),
                a.from_file || b.from_file ? " (those the file lists)" : "");
    std::printf("L1 distance         %.6g\n", c.l1);
    if (c.max_difference > 0) {
      std::printf("largest difference  %.6g (%s)\n", c.max_difference,
                  std::string(db.label(pages[c.max_difference_at])).c_str());
    } else {
      std::printf("largest difference  0 (the vectors are equal)\n");
    }
    std::printf("Kendall's tau-b     %.6f\n", c.kendall_tau);
    std::printf("Spearman's rho      %.6f\n", c.spearman);
    for (const TopOverlap& t : c.top) {
      std::printf("top-%-15s %llu shared (%.1f%%)\n", std::to_string(t.k).c_str(),
                  static_cast<unsigned long long>(t.shared), 100 * t.fraction);
    }
  });
}

}  // namespace webrank::cli
