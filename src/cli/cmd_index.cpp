// `webrank index DB`: (re)builds the full-text search index inside the database; crawl and
// import of crawls run the same after building (index_database below).
#include <cstdio>

#include "common.hpp"
#include "interrupts.hpp"
#include "webrank/json.hpp"
#include "webrank/search/search.hpp"

namespace webrank::cli {

IndexReport index_database(const Database& db, IndexOptions o, bool quiet, ProgressMode progress) {
  ProgressLine line(quiet ? ProgressMode::kNever : progress);
  o.on_progress = [&line, stage = std::string()](const IndexProgress& p) mutable {
    const bool new_stage = p.stage != stage;
    stage = p.stage;
    std::string text = cat(p.stage, " ", p.pages_done, " of ", p.pages, " pages");
    if (p.stage == "indexing" && p.seconds > 0.5 && p.pages_done > 0) {
      const double rate = static_cast<double>(p.pages_done) / p.seconds;
      text += cat(", ", static_cast<int>(rate), " pages/s, ",
                  format_duration(static_cast<double>(p.pages - p.pages_done) / rate), " left");
    }
    line.update(text, json_text(nlohmann::json(p), -1), new_stage);
  };
  o.stop = arm_interrupts();  // Ctrl-C abandons the index; the old one stays
  const IndexReport r = build_search_index(db, o);
  disarm_interrupts();
  line.finish();
  if (!quiet) {
    std::fprintf(stderr,
                 "indexed %s: %llu documents of %llu pages, %s, in %.2f s (%.0f pages/s on %d "
                 "thread%s)\n",
                 db.path().c_str(), static_cast<unsigned long long>(r.documents),
                 static_cast<unsigned long long>(r.pages),
                 format_bytes(static_cast<double>(r.bytes)).c_str(), r.seconds,
                 r.seconds > 0 ? static_cast<double>(r.pages) / r.seconds : 0.0, r.threads,
                 r.threads == 1 ? "" : "s");
  }
  return r;
}

void index_after_build(const std::string& path, bool quiet, ProgressMode progress) {
  const Database db = Database::open(path);
  if (!db.has_page_data()) return;  // a graph: nothing to search but labels, on demand
  try {
    index_database(db, IndexOptions{}, quiet, progress);
  } catch (const Error& e) {
    std::fprintf(stderr,
                 "webrank: %s: the database is complete, its search index is not (%s); build it "
                 "with `webrank index %s`\n",
                 path.c_str(), e.message(flag_name).c_str(), path.c_str());
    exit_status() = exit_code(e.kind());
  }
}

void add_index_command(CLI::App& app) {
  struct Args {
    std::string db, field_weights;
    IndexOptions o;
    bool quiet = false, no_verify = false, json = false;
    ProgressMode progress = ProgressMode::kAuto;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "index",
      "Build the full-text search index of a database (done by crawl and import of crawls)");
  cmd->add_option("DB", args->db, "Database directory")->required();
  cmd->add_option("--threads", args->o.threads, "Threads (0 = all cores)")
      ->check(CLI::NonNegativeNumber);
  const FieldWeights& f = args->o.field_weights;
  cmd->add_option("--field-weights", args->field_weights,
                  "How much a word of the title, the text, an anchor text, the URL and the "
                  "site's chrome counts (docs/search.md)")
      ->default_str(cat(f.title, ",", f.text, ",", f.anchor, ",", f.url, ",", f.chrome))
      ->check([](const std::string& s) {
        int t, x, a, u, c;
        char end;
        const bool ok = std::sscanf(s.c_str(), "%d,%d,%d,%d,%d%c", &t, &x, &a, &u, &c, &end) == 5 ||
                        std::sscanf(s.c_str(), "%d,%d,%d,%d%c", &t, &x, &a, &u, &end) == 4;
        return ok ? std::string()
                  : std::string(
                        "expected four or five integers "
                        "TITLE,TEXT,ANCHOR,URL[,CHROME] (e.g. 6,1,10,2,0)");
      });
  cmd->add_flag("--json", args->json, "Print the report as one JSON object");
  cmd->add_flag("-q,--quiet", args->quiet, "Print nothing but errors");
  cmd->add_flag("--no-verify", args->no_verify, "Skip checksum verification of the database");
  add_progress_option(cmd, &args->progress);
  cmd->callback([args] {
    IndexOptions o = args->o;
    if (!args->field_weights.empty()) {
      FieldWeights& f = o.field_weights;
      std::sscanf(args->field_weights.c_str(), "%d,%d,%d,%d,%d", &f.title, &f.text, &f.anchor,
                  &f.url, &f.chrome);
    }
    Database db = open_database(args->db, args->no_verify);
    const IndexReport r = index_database(db, o, args->quiet || args->json, args->progress);
    if (args->json) std::printf("%s\n", json_text(nlohmann::json(r)).c_str());
  });
}

}  // namespace webrank::cli
