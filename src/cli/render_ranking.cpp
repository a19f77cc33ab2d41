// Text for people of the commands that compute vectors: rank (and rank --batch), hits, topics,
// ppr, compare. Each renders its operation's JSON form (webrank/app/ranking.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "commands.hpp"
#include "common.hpp"
#include "render_text.hpp"
#include "webrank/rank/presentation.hpp"
#include "webrank/util/units.hpp"

namespace webrank::cli {
namespace {

using nlohmann::json;

double number(const json& j, const char* key, double fallback = 0) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : fallback;
}

// "power: 35 iterations, final L1 change 9.3e-11 (error bound 5.3e-10), 0.001 s; stored as
// 'pagerank' in web.db": what a rank did, on stderr.
std::string rank_summary(const json& v, const std::string& db, const std::string& note) {
  const std::string method = str(v, "method");
  // Power iterations that followed the method's own stop to meet --tol: said apart.
  const int finishing = v.value("finishing_iterations", 0);
  const int iterations = v.at("iterations").get<int>() - finishing;
  const double final_delta = number(v, "final_delta");
  std::string how =
      method == "direct" ? std::string("direct solve")
      : v.contains("components")
          ? cat(iterations, " sweeps of the slowest of ", v.at("components").get<std::uint64_t>(),
                " strongly connected components (the largest: ",
                v.at("largest_component_pages").get<std::uint64_t>(), " pages)")
          : cat(iterations, " iterations");
  if (finishing > 0) {
    how += cat(", then ", finishing, finishing == 1 ? " power iteration" : " power iterations",
               " to meet --tol");
  }
  if (method != "direct" || finishing > 0) {
    how += cat(", final L1 change ", final_delta);
    if (v.contains("error_bound") && v.at("error_bound").is_number())
      how += cat(" (error bound ", v.at("error_bound").get<double>(), ")");
  }
  if (v.contains("streamed_blocks")) {
    how += cat(", links streamed in ", v.at("streamed_blocks").get<std::uint64_t>(),
               " blocks of up to ", format_bytes(number(v, "stream_block_bytes")));
  }
  const int blocked_from = v.value("blocked_from_iteration", 0);
  if (blocked_from > 1) how += cat(", blocked sweep from iteration ", blocked_from);
  if (blocked_from == 1) how += ", blocked sweep";
  if (v.contains("sweep_note")) how += ", " + str(v, "sweep_note");
  if (v.contains("warm_start")) {
    const json& w = v.at("warm_start");
    how += cat(", warm start from '", str(w, "from"), "'");
    if (w.at("cold_iterations").is_number() && w.at("cold_iterations").get<int>() > 0) {
      how += cat(": ", w.at("iterations_saved").get<int>(), " iterations saved against the ",
                 w.at("cold_iterations").get<int>(), " of its cold start");
    }
  }
  how += note;
  const std::string shown = method == "auto" ? cat("auto (", str(v, "solved_by"), ")") : method;
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.3f", number(v, "seconds"));
  // Why auto chose what it ran: last, its own sentence.
  const std::string why =
      v.contains("choice") ? cat("\n  (auto chose ", str(v, "choice"), ")") : "";
  return cat(shown, ": ", how, ", ", seconds, " s; ",
             v.at("stored").get<bool>() ? cat("stored as '", str(v, "name"), "' in ", db)
                                        : std::string("not stored"),
             why);
}

void rank(const Rendered& r) {
  if (r.quiet) return;
  const json& j = r.out.json;
  if (!j.contains("vectors")) {
    std::fprintf(stderr, "%s\n", rank_summary(j, r.db, "").c_str());
    return;
  }
  // The method that ran (auto's choice, or the one asked for), the same for every vector.
  std::string ran;
  bool stored = false;
  for (const json& v : j.at("vectors")) {
    std::fprintf(stderr, "  %-24s %4d iterations, final L1 change %.3e\n", str(v, "name").c_str(),
                 v.at("iterations").get<int>(), number(v, "final_delta"));
    const std::string method = str(v, "method");
    ran = method == "auto" ? cat("auto (", str(v, "solved_by"), ")") : method;
    stored |= v.at("stored").get<bool>();
  }
  const std::size_t k = j.at("vectors").size();
  std::fprintf(stderr, "batch: %zu vector%s in one pass, %s, %.3f s; %s\n", k, k == 1 ? "" : "s",
               ran.c_str(), number(j, "seconds"),
               stored ? cat("stored in ", r.db).c_str() : "not stored");
}

void hits(const Rendered& r) {
  if (r.quiet) return;
  const json& j = r.out.json;
  const std::string stored = str(j, "stored");
  char delta[32];
  std::snprintf(delta, sizeof delta, "%.3g", number(j, "final_delta"));
  std::fprintf(stderr,
               "hits: %d iterations, final L1 change %s, %.3f s; stored as '%s.authority' and "
               "'%s.hub' in %s\n",
               j.at("iterations").get<int>(), delta, number(j, "seconds"), stored.c_str(),
               stored.c_str(), r.db.c_str());
}

void topics(const Rendered& r) {
  const json& j = r.out.json;
  if (!r.given.contains("assign")) {
    for (const json& t : j) std::printf("%s\n", t.get<std::string>().c_str());
    return;
  }
  if (r.quiet) return;
  const auto k = given_or(r, "k").get<std::uint64_t>();
  std::printf("%-24s %7s %6s  %-12s %-12s  %s\n", "topic", "pages", "iters",
              cat("topic top ", k).c_str(), cat("PageRank top ", k).c_str(),
              "highest-ranked pages (* = not in the topic)");
  for (const json& s : j) {
    std::string best;
    for (std::size_t i = 0; i < std::min<std::size_t>(3, s.at("top").size()); ++i) {
      best += (i ? ", " : "") + str(s.at("top")[i], "label") +
              (s.at("top")[i].at("in_topic").get<bool>() ? "" : "*");
    }
    std::printf("%-24s %7zu %6d  %3zu in topic %3zu in topic  %s\n", str(s, "topic").c_str(),
                s.at("pages").get<std::size_t>(), s.at("iterations").get<int>(),
                s.at("top_in_topic").get<std::size_t>(),
                s.at("pagerank_top_in_topic").get<std::size_t>(), best.c_str());
  }
  std::fprintf(stderr, "%zu topic vectors stored as topic.<topic> in %s\n", j.size(), r.db.c_str());
}

void ppr(const Rendered& r) {
  const json& j = r.out.json;
  std::printf("%4s  %-12s %-27s  %s\n", "#", "rank", "exact rank within", "page");
  int i = 0;
  for (const json& e : j.at("top")) {
    std::string page = str(e, "label");
    const std::string title = str(e, "title");
    if (!title.empty()) page += "  \"" + title + "\"";
    char bounds[40];
    std::snprintf(bounds, sizeof bounds, "[%.6g, %.6g]", number(e, "lower"), number(e, "upper"));
    std::printf("%4d  %-12.6g %-27s  %s\n", ++i, number(e, "lower"), bounds, page.c_str());
  }
  std::printf(
      "error bound: the L1 distance to the exact personalized rank is %.3e; every page's rank "
      "is at most that much above its estimate (d = %g, eps = %g)\n",
      number(j, "error_bound"), given_or(r, "damping").get<double>(),
      given_or(r, "eps").get<double>());
  const std::size_t shown = j.at("top").size();
  if (j.at("certified").get<bool>()) {
    std::printf(
        "top %zu: certain (its lowest rank %.6g >= %.6g, the highest any other page can "
        "have)\n",
        shown, shown == 0 ? 0.0 : number(j.at("top").back(), "lower"), number(j, "outside_upper"));
  } else {
    std::printf(
        "top %zu: not certain (another page may have up to %.6g; a smaller --eps tightens the "
        "bounds)\n",
        shown, number(j, "outside_upper"));
  }
  const int sweeps = j.at("sweeps").get<int>();
  std::printf("work: %llu pushes, %llu links, %u pages touched%s, %.2f ms\n",
              j.at("pushes").get<unsigned long long>(),
              j.at("links_visited").get<unsigned long long>(),
              j.at("pages_touched").get<unsigned>(),
              sweeps ? cat(", ", sweeps, " full sweeps").c_str() : "", 1e3 * number(j, "seconds"));
}

// The paper's table: the page, then its percentile in each view. Columns stay aligned whatever
// the titles: the page is cut (in its middle) to its column, padded by the columns it shows
// (UTF-8), and a view's column is as wide as its name.
void compare(const Rendered& r) {
  const json& c = r.out.json;
  constexpr std::size_t kPageColumns = 50;
  const auto padded = [](const std::string& text, std::size_t columns) {
    const std::string cut = elide_middle(text, columns);
    return cut + std::string(columns - std::min(columns, display_columns(cut)), ' ');
  };
  std::vector<int> widths;
  std::printf("%s", padded("page", kPageColumns).c_str());
  for (const json& v : c.at("views")) {
    const std::string name = v.get<std::string>();
    widths.push_back(static_cast<int>(std::max<std::size_t>(14, display_columns(name))));
    std::printf("  %*s", widths.back(), name.c_str());
  }
  std::printf("\n");
  for (const json& row : c.at("rows")) {
    std::string page = str(row, "label");
    const std::string title = str(row, "title");
    if (!title.empty()) page = title + "  " + page;
    std::printf("%s", padded(page, kPageColumns).c_str());
    std::size_t i = 0;
    for (const json& p : row.at("percentiles")) {
      std::printf("  %*.2f%%", i < widths.size() ? widths[i] - 1 : 13, p.get<double>());
      ++i;
    }
    std::printf("\n");
  }
  std::printf("(percentile: the share of pages ranked at or below the page in that view)\n");
}

}  // namespace

std::string rank_summary_line(const nlohmann::json& vector, const std::string& db,
                              const std::string& note) {
  return rank_summary(vector, db, note);
}

void add_ranking_commands(std::vector<Command>& table) {
  table.push_back({"rank", &rank});
  table.push_back({"hits", &hits});
  table.push_back({"topics", &topics});
  table.push_back({"ppr", &ppr});
  table.push_back({"compare", &compare});
}

}  // namespace webrank::cli
