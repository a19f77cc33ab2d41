// `webrank build` (edge lists; other formats when their path says so) and `webrank import`
// (graphs in other formats: an input whose format the path does not reveal is a usage error
// asking for --format). Both are build_database() with the same options and progress.
#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "common.hpp"
#include "interrupts.hpp"
#include "webrank/ingest/build.hpp"
#include "webrank/ingest/formats.hpp"
#include "webrank/json.hpp"
#include "webrank/util/error.hpp"
#include "webrank/util/units.hpp"

namespace webrank::cli {
namespace {

struct BuildArgs {
  std::vector<std::string> inputs;
  std::string output, format = "auto", memory_budget, pages_file, labels_file;
  PageOrder order = PageOrder::kInput;
  bool weighted = false, force = false, quiet = false, no_index = false;
  ProgressMode progress = ProgressMode::kAuto;
};

// "reading 120 MB of 1.2 GB (10%), 20s left, 60 MB/s" on a terminal, JSON lines on request.
// Every change of stage is shown (the 100 ms throttle applies within a stage): a reader of the
// JSON lines sees each stage begin.
std::function<void(const BuildProgress&)> progress_reporter(ProgressLine& line) {
  return [&line, stage = std::string()](const BuildProgress& p) mutable {
    const bool new_stage = p.stage != stage;
    stage = p.stage;
    const double t = line.elapsed();
    std::string text = cat(p.stage, " ", format_bytes(static_cast<double>(p.bytes_read)));
    // A total that the count passed (an input whose companion files were not counted) is not
    // shown: "16 MB of 2 MB" reads as a bug.
    if (p.bytes_total > 0 && p.bytes_read <= p.bytes_total &&
        (p.stage == "reading" || p.stage == "merging" || p.stage == "backlinks")) {
      const double frac =
          std::min(1.0, static_cast<double>(p.bytes_read) / static_cast<double>(p.bytes_total));
      text += cat(" of ", format_bytes(static_cast<double>(p.bytes_total)), " (",
                  static_cast<int>(100 * frac), "%)");
      if (frac > 0.01 && t > 0.5) text += cat(", ", format_duration(t / frac - t), " left");
    }
    if (t > 0) text += cat(", ", format_bytes(static_cast<double>(p.bytes_read) / t), "/s");
    nlohmann::json json = p;
    json["seconds"] = t;
    line.update(text, json_text(json, -1), new_stage);
  };
}

// Names the format of every input; with `strict`, an input whose path does not reveal its
// format is a usage error.
std::string resolve_formats(const BuildArgs& args, bool strict) {
  std::vector<std::string> used;
  for (const auto& in : args.inputs) {
    const std::optional<std::string> f =
        args.format == "auto" ? detect_input_format(in) : std::optional(args.format);
    std::error_code ec;
    if (!f && strict && in != "-" && !std::filesystem::exists(in, ec)) {
      // Nothing there, not even a companion file a format would recognise the path by.
      fail(ErrorKind::kNotFound, in, ": no such file or directory");
    }
    if (!f && strict) {
      std::string names;
      for (const auto& format : list_input_formats())
        names += (names.empty() ? "" : ", ") + format.name;
      throw CLI::ValidationError("INPUT", cat(in == "-" ? "<stdin>" : in,
                                              ": cannot tell its format from the path; pass "
                                              "--format (one of ",
                                              names, ")"));
    }
    const std::string name = f.value_or("edges");
    if (std::find(used.begin(), used.end(), name) == used.end()) used.push_back(name);
  }
  std::string joined;
  for (const auto& u : used) joined += (joined.empty() ? "" : ", ") + u;
  return joined;
}

void add_builder_command(CLI::App& app, bool import) {
  auto args = std::make_shared<BuildArgs>();
  std::vector<std::string> names{"auto"};
  std::string list;
  for (const auto& f : list_input_formats()) {
    names.push_back(f.name);
    list += cat("\n  ", f.name, ": ", f.description);
  }
  CLI::App* cmd = import
                      ? app.add_subcommand(
                            "import",
                            "Build a link database from a graph in another format (bv, "
                            "mtx, pajek, gml, graphml, cc-hosts, wdc) or a crawl (warc, html-dir)")
                      : app.add_subcommand("build", "Build a link database from edge lists");
  cmd->add_option("INPUT", args->inputs,
                  import ? "Graphs to import (a BVGraph basename, a .mtx or .net file, a Common "
                           "Crawl vertices file, a Web Data Commons index file, a .warc[.gz] "
                           "file, a directory of .html files...)"
                         : "Edge lists: SOURCE<TAB>TARGET[<TAB>WEIGHT] per line (blank-separated "
                           "if no tab); .gz/.zst read transparently; - is standard input")
      ->required();
  cmd->add_option("-o,--output", args->output, "Database directory to create")->required();
  cmd->add_option("--format", args->format,
                  "Input format; auto recognises it from each input's path" +
                      std::string(import ? "" : " (else an edge list)") + ":" + list)
      ->check(CLI::IsMember(names))
      ->capture_default_str();
  cmd->add_option("--pages", args->pages_file,
                  "Page list: the first field of each line is a page, declared before the links "
                  "(keeps the pages no link mentions; ids follow the list); an ID<TAB>LABEL "
                  "file lists its ids");
  cmd->add_option("--labels", args->labels_file,
                  "Label file of ID<TAB>LABEL lines: the page labelled ID is stored as LABEL "
                  "(URLs for a numeric graph's ids)");
  cmd->add_flag("--weighted", args->weighted,
                "Read link weights (a third column of edge lists, mtx values, Pajek weights)");
  add_enum_option(
      cmd, "--order", &args->order,
      {{"input", PageOrder::kInput}, {"degree", PageOrder::kDegree}, {"url", PageOrder::kUrl}},
      "Page id order: input (first appearance), degree (by decreasing out-degree: "
      "faster ranking of large webs) or url (by URL with the host reversed, as the "
      "paper's link database: a site's pages together); labels and ranks are "
      "unchanged");
  cmd->add_option("--memory-budget", args->memory_budget,
                  "Memory the links may take (4G, 512M, ...); past it they are sorted in runs on "
                  "disk, in the temporary output directory, and merged (default: 3/4 of the "
                  "physical memory, " +
                      format_bytes(static_cast<double>(default_memory_budget())) + " here)")
      ->check(memory_size_check());
  cmd->add_flag("--force", args->force,
                "Replace an existing database (only once the new one is complete)");
  cmd->add_flag("--no-index", args->no_index,
                "Do not build the search index of a crawl (warc, html-dir) after the database");
  cmd->add_flag("-q,--quiet", args->quiet, "Print nothing but errors");
  add_progress_option(cmd, &args->progress);
  cmd->callback([args, import] {
    const std::string formats = resolve_formats(*args, import);
    ProgressLine line(args->quiet ? ProgressMode::kNever : args->progress);
    BuildOptions o;
    o.inputs = args->inputs;
    o.output = args->output;
    o.format = args->format;  // "auto" resolves per input exactly as above
    o.weighted = args->weighted;
    o.pages_file = args->pages_file;
    o.labels_file = args->labels_file;
    o.order = args->order;
    o.force = args->force;
    if (!args->memory_budget.empty()) o.memory_budget = *parse_memory_size(args->memory_budget);
    o.on_progress = progress_reporter(line);
    o.stop = arm_interrupts();  // Ctrl-C abandons the build; nothing is left behind
    const BuildReport r = build_database(o);
    disarm_interrupts();
    line.finish();
    if (!args->quiet) {
      const std::string runs =
          r.spilled_runs ? cat(", past the memory budget: ", r.spilled_runs, " sorted runs merged")
                         : "";
      std::fprintf(stderr,
                   "%s %s (%s): %u pages, %llu links (%llu merged duplicates), %llu self-links, "
                   "in %.2f s%s\n",
                   import ? "imported" : "built", args->output.c_str(), formats.c_str(), r.pages,
                   static_cast<unsigned long long>(r.links),
                   static_cast<unsigned long long>(r.input_links - r.links),
                   static_cast<unsigned long long>(r.self_links), r.seconds, runs.c_str());
      for (const std::string& note : r.notes) std::fprintf(stderr, "note: %s\n", note.c_str());
      if (!args->pages_file.empty()) {
        std::fprintf(stderr, "pages: %llu listed in %s\n",
                     static_cast<unsigned long long>(r.listed_pages), args->pages_file.c_str());
      }
      if (!args->labels_file.empty()) {
        std::fprintf(stderr, "labels: %llu pages labelled from %s%s\n",
                     static_cast<unsigned long long>(r.relabeled_pages), args->labels_file.c_str(),
                     r.unused_labels ? cat(" (", r.unused_labels,
                                           " of its ids are no page of the web: not used; "
                                           "--pages FILE adds them)")
                                           .c_str()
                                     : "");
      }
    }
    // Crawls (WARC, HTML directories) are searchable as soon as they are imported.
    if (!args->no_index) index_after_build(args->output, args->quiet, args->progress);
  });
}

}  // namespace

void add_build_command(CLI::App& app) {
  add_builder_command(app, /*import=*/false);
}
void add_import_command(CLI::App& app) {
  add_builder_command(app, /*import=*/true);
}

}  // namespace webrank::cli
