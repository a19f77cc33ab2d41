// `webrank backlinks DB URL` (the pages linking to URL, by their rank: the paper's §7.4) and
// `webrank links DB URL` (its forward links, each with the target's rank and log-scale bar: what
// the paper's proxy shows, §7.3). webrank/search/links.hpp has the contract.
#include <cstdio>

#include "common.hpp"
#include "webrank/ingest/export.hpp"
#include "webrank/json.hpp"
#include "webrank/search/links.hpp"
#include "webrank/search/search.hpp"
#include "webrank/store/rank_store.hpp"

namespace webrank::cli {
namespace {

enum class Format { kText, kTsv, kJson };

struct Args {
  std::string db, url, ranks = "pagerank";
  std::size_t k = 20, offset = 0;
  Format format = Format::kText;
};

void add_common(CLI::App* cmd, Args& a, bool paged) {
  cmd->add_option("DB", a.db, "Database directory")->required();
  cmd->add_option("URL", a.url, "The page (its URL or label)")->required();
  if (paged) {
    cmd->add_option("-k", a.k, "Pages to show")->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--offset", a.offset, "Pages to skip")->capture_default_str();
  }
  cmd->add_option("--ranks", a.ranks, "Which stored rank vector")->capture_default_str();
  add_enum_option(cmd, "--format", &a.format,
                  {{"text", Format::kText}, {"tsv", Format::kTsv}, {"json", Format::kJson}},
                  "text (a table with bars), tsv (URL, title, rank, percentile, bar, toolbar" +
                      std::string(paged ? "" : ", nofollow") + ") or json");
}

// The database, the page and the presented vector every one of these commands needs.
struct Opened {
  Database db;
  PageId page;
  PresentedRanks ranks;
};

Opened open_page(const Args& a) {
  Database db = Database::open(a.db);
  const auto page = find_page(db, a.url);
  if (!page) fail(ErrorKind::kNotFound, a.url, ": not a page of ", a.db);
  StoredRanks s = load_ranks(db, a.ranks);
  if (!s.record.converged) {
    std::fprintf(stderr, "webrank: warning: rank vector '%s' did not converge\n", a.ranks.c_str());
  }
  PresentedRanks ranks(std::move(s.values), a.ranks);
  return {std::move(db), *page, std::move(ranks)};
}

void print_row(const RankedPage& p, const char* note) {
  constexpr int kBarWidth = 20;
  const int cells = static_cast<int>(p.bar / 100 * kBarWidth + 0.5);
  std::string bar(cells, '#');
  bar.resize(kBarWidth, '.');
  std::string page = p.label;
  if (p.title && !p.title->empty()) page += "  \"" + *p.title + "\"";
  std::printf("%s %3.0f%% %2d/10 %7.2f%%  %-12.6g %s%s\n", bar.c_str(), p.bar, p.toolbar,
              p.percentile, p.rank, page.c_str(), note);
}

void print_tsv(const RankedPage& p, const char* extra) {
  std::printf("%s\t%s\t%.17g\t%.6f\t%.6f\t%d%s\n", tsv_field(p.label).c_str(),
              tsv_field(p.title.value_or("")).c_str(), p.rank, p.percentile, p.bar, p.toolbar,
              extra);
}

const char* kHeader = "log-scale bar         bar  tool  pctile   rank         page";

}  // namespace

void add_links_commands(CLI::App& app) {
  auto back = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "backlinks", "Show the pages linking to a page, ordered by their rank (PageRank)");
  add_common(cmd, *back, /*paged=*/true);
  cmd->callback([back] {
    const Opened o = open_page(*back);
    const Backlinks b = backlinks(o.db, o.ranks, o.page, back->k, back->offset);
    switch (back->format) {
      case Format::kJson: {
        nlohmann::json j = b;
        set_text(j, "url", o.db.label(o.page));
        j["ranks"] = back->ranks;
        std::printf("%s\n", json_text(j).c_str());
        break;
      }
      case Format::kTsv:
        for (const RankedPage& p : b.pages) print_tsv(p, "");
        break;
      case Format::kText:
        std::printf("%llu pages link to %s; by rank '%s'", static_cast<unsigned long long>(b.total),
                    std::string(o.db.label(o.page)).c_str(), back->ranks.c_str());
        if (!b.pages.empty()) {
          std::printf(", %zu-%zu:\n%s\n", back->offset + 1, back->offset + b.pages.size(), kHeader);
          for (const RankedPage& p : b.pages) print_row(p, "");
        } else {
          std::printf("\n");
        }
        break;
    }
  });

  auto fwd = std::make_shared<Args>();
  cmd = app.add_subcommand("links",
                           "Show the links of a page, each with the target's rank and log bar");
  add_common(cmd, *fwd, /*paged=*/false);
  cmd->callback([fwd] {
    const Opened o = open_page(*fwd);
    const std::vector<ForwardLink> links = forward_links(o.db, o.ranks, o.page);
    switch (fwd->format) {
      case Format::kJson: {
        nlohmann::json j = {{"ranks", fwd->ranks}, {"links", links}};
        set_text(j, "url", o.db.label(o.page));
        std::printf("%s\n", json_text(j).c_str());
        break;
      }
      case Format::kTsv:
        for (const ForwardLink& l : links) print_tsv(l.target, l.nofollow ? "\tnofollow" : "\t");
        break;
      case Format::kText:
        std::printf("%s links to %zu pages; by rank '%s':\n",
                    std::string(o.db.label(o.page)).c_str(), links.size(), fwd->ranks.c_str());
        if (!links.empty()) std::printf("%s\n", kHeader);
        for (const ForwardLink& l : links) print_row(l.target, l.nofollow ? "  (nofollow)" : "");
        break;
    }
  });
}

}  // namespace webrank::cli
