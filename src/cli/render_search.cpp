// Text for people of the search commands: search (text with snippets, or TSV), eval, index.
// Each renders its operation's JSON form (webrank/app/searching.hpp).
#include <unistd.h>

#include <cstdio>

#include "commands.hpp"
#include "common.hpp"
#include "render_text.hpp"
#include "webrank/ingest/export.hpp"

namespace webrank::cli {
namespace {

using nlohmann::json;

// The snippet with its matches marked: bold on a terminal, **word** otherwise.
std::string marked(const json& s, bool tty) {
  const char* open = tty ? "\033[1m" : "**";
  const char* close = tty ? "\033[0m" : "**";
  const std::string text = str(s, "text");
  std::string out = s.value("cut_before", false) ? "..." : "";
  std::size_t at = 0;
  for (const json& m : s.at("matches")) {
    const auto begin = m[0].get<std::size_t>(), end = m[1].get<std::size_t>();
    out.append(text, at, begin - at);
    out += open;
    out.append(text, begin, end - begin);
    out += close;
    at = end;
  }
  out.append(text, at, std::string::npos);
  if (s.value("cut_after", false)) out += "...";
  return out;
}

void search_text(const json& r, bool tty) {
  const std::string mode = str(r, "mode"), query = str(r, "query"), ranks = str(r, "ranks");
  if (r.at("hits").empty()) {
    std::printf("no page matches \"%s\" (%s search)", query.c_str(), mode.c_str());
    if (!r.at("unknown_words").empty()) {
      std::string words;
      for (const json& w : r.at("unknown_words"))
        words += (words.empty() ? "" : ", ") + w.get<std::string>();
      std::printf(": no page %s %s", mode == "title" ? "title has" : "has", words.c_str());
    } else if (r.at("offset").get<std::size_t>() > 0) {
      std::printf(" past result %zu", r.at("offset").get<std::size_t>());
    }
    std::printf("\n");
    if (!str(r, "suggestion").empty())
      std::printf("did you mean: %s\n", str(r, "suggestion").c_str());
    return;
  }
  const json& matches = r.at("matches");
  const auto estimated = matches.at("estimated").get<std::uint64_t>();
  const std::string count = matches.at("lower_bound") == matches.at("upper_bound")
                                ? cat(estimated)
                                : cat("about ", estimated);
  // Text mode orders by BM25 alone; the rank it names is the one its bars show.
  std::string how = mode == "title" ? "titles, by rank" : mode == "text" ? "BM25" : "BM25 and rank";
  if (!ranks.empty()) how += (mode == "text" ? "; bars of rank '" : " '") + ranks + "'";
  std::printf("%s results for \"%s\" (%s), %zu-%zu:\n\n", count.c_str(), query.c_str(), how.c_str(),
              r.at("hits").front().at("position").get<std::size_t>(),
              r.at("hits").back().at("position").get<std::size_t>());
  constexpr int kBarWidth = 10;
  for (const json& h : r.at("hits")) {
    const double bar = h.at("bar").get<double>();
    const int cells = static_cast<int>(bar / 100 * kBarWidth + 0.5);
    std::string drawn(cells, '#');
    drawn.resize(kBarWidth, '.');
    const std::string label = str(h, "url");
    const std::string title = str(h, "title").empty() ? label : str(h, "title");
    std::printf("%3zu. %s\n", h.at("position").get<std::size_t>(), title.c_str());
    std::printf("     %s\n", label.c_str());
    std::printf("     [%s] %2d/10, %.2f percentile, score %.4g\n", drawn.c_str(),
                h.at("toolbar").get<int>(), h.at("percentile").get<double>(),
                h.at("score").get<double>());
    if (h.contains("snippet") && !str(h.at("snippet"), "text").empty())
      std::printf("     %s\n", marked(h.at("snippet"), tty).c_str());
    std::printf("\n");
  }
}

void search(const Rendered& r) {
  const json& j = r.out.json;
  if (given_or(r, "format") != "tsv") {
    search_text(j, isatty(STDOUT_FILENO) != 0);
    return;
  }
  for (const json& h : j.at("hits")) {
    std::printf("%zu\t%s\t%s\t%.17g\t%.17g\n", h.at("position").get<std::size_t>(),
                tsv_field(str(h, "url")).c_str(), tsv_field(str(h, "title")).c_str(),
                h.at("score").get<double>(), h.at("rank").get<double>());
  }
  if (j.at("hits").empty()) {
    std::string words;
    for (const json& w : j.at("unknown_words"))
      words += (words.empty() ? "" : ", ") + w.get<std::string>();
    std::fprintf(stderr, "webrank: no page matches \"%s\"%s%s\n", str(j, "query").c_str(),
                 words.empty() ? "" : ": no page has ", words.c_str());
    if (!str(j, "suggestion").empty())
      std::fprintf(stderr, "webrank: did you mean: %s\n", str(j, "suggestion").c_str());
  }
}

// TSV has no room for snippets: none are made.
void search_before(json& given, RunFlags&) {
  if (given.value("format", "") == "tsv") given["snippets"] = false;
}

void eval(const Rendered& r) {
  const json& e = r.out.json;
  std::printf(
      "%s: %zu queries on %s, ranks '%s', rank weight %g, name weights %g / %g (anchors) / %g "
      "(families), BM25 k1 %g b %g\n\n",
      str(e, "file").c_str(), e.at("queries").get<std::size_t>(), r.db.c_str(),
      str(e, "ranks").c_str(), e.at("rank_weight").get<double>(), e.at("name_weight").get<double>(),
      e.at("anchor_name_weight").get<double>(), e.at("family_name_weight").get<double>(),
      e.at("bm25_k1").get<double>(), e.at("bm25_b").get<double>());
  std::printf("%-6s %7s %7s %7s %8s   %8s %8s %8s\n", "mode", "hit@1", "hit@3", "MRR", "nDCG@10",
              "p50 ms", "p99 ms", "max ms");
  for (const json& m : e.at("modes")) {
    std::printf("%-6s %7.3f %7.3f %7.3f %8.3f   %8.3f %8.3f %8.3f\n", str(m, "mode").c_str(),
                m.at("hit1").get<double>(), m.at("hit3").get<double>(), m.at("mrr").get<double>(),
                m.at("ndcg10").get<double>(), 1000 * m.at("p50_seconds").get<double>(),
                1000 * m.at("p99_seconds").get<double>(), 1000 * m.at("max_seconds").get<double>());
  }
  if (e.contains("outcomes")) {
    std::printf("\nfirst answer at (0: not in the top 10)\n%5s", "line");
    for (const json& m : e.at("modes")) std::printf(" %6s", str(m, "mode").c_str());
    std::printf("  query\n");
    for (const json& q : e.at("outcomes")) {
      std::printf("%5zu", q.at("line").get<std::size_t>());
      for (const json& m : e.at("modes")) {
        std::printf(" %6zu", q.at("positions").value(str(m, "mode"), std::size_t{0}));
      }
      std::printf("  %s\n", str(q, "query").c_str());
    }
  }
}

void index(const Rendered&) {
  // What was indexed is said on stderr (the operation's notices).
}

}  // namespace

void add_search_commands(std::vector<Command>& table) {
  app::OptionSpec format;
  format.name = "format";
  format.type = app::ValueType::kChoice;
  format.choices = {"text", "tsv", "json"};
  format.default_value = "text";
  format.help =
      "text (results with snippets), tsv (position, URL, title, score, rank per line) "
      "or json";
  table.push_back({"search", &search, {format}, "Database directory", &search_before});
  table.push_back({"eval", &eval});
  table.push_back({"index", &index});
}

}  // namespace webrank::cli
