// `webrank top DB [-k N] [--ranks NAME] [--json] [--wide]`: the pages of highest rank with the
// presentation scales of webrank/rank/presentation.hpp. The text form fits 100 columns: a list of
// one site's pages shows paths under a line naming the site, and long labels and titles are cut
// (--wide prints them whole).
#include <cstdio>

#include "common.hpp"
#include "webrank/json.hpp"
#include "webrank/rank/presentation.hpp"
#include "webrank/rank/topics.hpp"
#include "webrank/store/rank_store.hpp"

namespace webrank::cli {
namespace {

constexpr std::size_t kColumns = 100;
constexpr int kBarCells = 16;
// A title is shown only when at least this many columns are left for it.
constexpr std::size_t kTitleColumns = 14;

// The first `columns` columns of `text`, "..." in place of the rest.
std::string cut_end(const std::string& text, std::size_t columns) {
  if (display_columns(text) <= columns) return text;
  if (columns <= 3) return std::string(columns, '.');
  std::size_t seen = 0, i = 0;
  for (; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 && seen++ == columns - 3) break;
  }
  return text.substr(0, i) + "...";
}

}  // namespace

void add_top_command(CLI::App& app) {
  struct Args {
    std::string db, ranks = "pagerank", topics;
    std::size_t k = 20;
    bool json = false, wide = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("top", "Show the pages of highest rank");
  cmd->add_option("DB", args->db, "Database directory")->required();
  cmd->add_option("-k", args->k, "How many pages")
      ->capture_default_str()
      ->check(number_check(whole_at_least(1, 1e18)));
  auto* ranks =
      cmd->add_option("--ranks", args->ranks, "Which stored rank vector")->capture_default_str();
  cmd->add_option(
         "--topics", args->topics,
         "Rank by a mix of topic vectors (webrank topics), e.g. \"Science=0.7,Sports=0.3\" "
         "(weights normalized to sum 1)")
      ->excludes(ranks);
  cmd->add_flag("--json", args->json, "Print a JSON array");
  cmd->add_flag("--wide", args->wide,
                "Print labels and titles whole (the text form is otherwise cut to 100 columns)");
  cmd->callback([args] {
    // Labels and one rank vector are all `top` reads: the link sections are not verified here.
    Database db = Database::open(args->db);
    StoredRanks s;
    if (args->topics.empty()) {
      s = load_ranks(db, args->ranks);
    } else {
      const TopicMix mix = TopicMix::load(db, parse_topic_weights(args->topics));
      s.values = mix.scores();
      s.record.converged = true;
      if (!args->json) {
        std::string what;
        for (const auto& [topic, w] : mix.weights())
          what += cat(what.empty() ? "" : ", ", topic, " ", w);
        std::printf("topic mix: %s\n", what.c_str());
      }
    }
    const auto top = top_ranked_pages(db, s.values, args->k);
    if (args->json) {
      std::printf("%s\n", json_text(nlohmann::json(top)).c_str());
      return;
    }
    if (!s.record.converged) {
      std::fprintf(stderr, "webrank: warning: rank vector '%s' did not converge\n",
                   args->ranks.c_str());
    }
    if (s.record.stale) {
      std::fprintf(stderr,
                   "webrank: warning: rank vector '%s' was computed before an update of the web "
                   "(rank again, e.g. with --warm-start %s)\n",
                   args->ranks.c_str(), args->ranks.c_str());
    }
    const std::uint64_t n = db.num_pages();
    std::vector<std::string> labels;
    for (const RankedPage& t : top) labels.push_back(t.label);
    // One site's pages: its name once, then paths.
    const std::string origin = common_origin(labels);
    if (!origin.empty()) std::printf("pages of %s\n", origin.c_str());
    const int pct_width = std::max<int>(10, static_cast<int>(format_percentile(100, n).size()));
    char head[160];
    const int prefix =
        std::snprintf(head, sizeof head, "%4s  %-10s %*s  %-*s %7s  ", "#", "rank", pct_width,
                      "percentile", kBarCells + 5, "log-scale bar", "toolbar");
    std::printf("%spage\n", head);
    const std::size_t room = kColumns > static_cast<std::size_t>(prefix) + 16
                                 ? kColumns - static_cast<std::size_t>(prefix)
                                 : 16;
    int i = 0;
    for (const RankedPage& t : top) {
      const int cells = static_cast<int>(t.bar / 100 * kBarCells + 0.5);
      std::string drawn(cells, '#');
      drawn.resize(kBarCells, '.');
      std::string page = origin.empty() ? t.label : t.label.substr(origin.size());
      if (page.empty()) page = "/";
      // Crawled webs show the page title after the URL, as the paper's search results do.
      const bool titled = t.title && !t.title->empty();
      if (args->wide) {
        if (titled) page += "  \"" + *t.title + "\"";
      } else {
        // The label first; the title gets what is left, if that is enough to read.
        page = elide_middle(page, titled ? std::max(room / 2, room - kTitleColumns) : room);
        const std::size_t used = display_columns(page) + 4;  // two spaces and the quotes
        if (titled && used + kTitleColumns - 4 <= room) {
          page += "  \"" + cut_end(*t.title, room - used) + "\"";
        }
      }
      std::printf("%4d  %-10.4g %*s  %s %3.0f%%   %2d/10  %s\n", ++i, t.rank, pct_width,
                  format_percentile(t.percentile, n).c_str(), drawn.c_str(), t.bar, t.toolbar,
                  page.c_str());
    }
  });
}

}  // namespace webrank::cli
