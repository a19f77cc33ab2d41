#include <cstdio>

#include "cli/common.hpp"
#include "webrank/build.hpp"
#include "webrank/error.hpp"

namespace webrank::cli {

void add_build_command(CLI::App& app) {
  struct Args {
    std::vector<std::string> inputs;
    std::string output, format = "auto";
    bool weighted = false, force = false, quiet = false;
    ProgressMode progress = ProgressMode::kAuto;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("build", "Build a link database from edge lists");
  cmd->add_option("INPUT", args->inputs,
                  "Edge lists: SOURCE<TAB>TARGET[<TAB>WEIGHT] per line (blank-separated if no "
                  "tab); .gz/.zst read transparently; - is standard input")
      ->required();
  cmd->add_option("-o,--output", args->output, "Database directory to create")->required();
  cmd->add_option("--format", args->format,
                  "Input format (auto: chosen from the file name, else an edge list)")
      ->capture_default_str();
  cmd->add_flag("--weighted", args->weighted, "Read a third column as the link weight");
  cmd->add_flag("--force", args->force,
                "Replace an existing database (only once the new one is complete)");
  cmd->add_flag("-q,--quiet", args->quiet, "Print nothing but errors");
  add_progress_option(cmd, &args->progress);
  cmd->callback([args] {
    ProgressLine line(args->quiet ? ProgressMode::kNever : args->progress);
    BuildOptions o;
    o.inputs = args->inputs;
    o.output = args->output;
    o.format = args->format;
    o.weighted = args->weighted;
    o.force = args->force;
    o.on_progress = [&](const BuildProgress& p) {
      const double t = line.elapsed();
      std::string text = cat(p.stage, " ", human_bytes(static_cast<double>(p.bytes_read)));
      if (p.bytes_total > 0 && p.stage == "reading") {
        const double frac =
            std::min(1.0, static_cast<double>(p.bytes_read) / static_cast<double>(p.bytes_total));
        text += cat(" of ", human_bytes(static_cast<double>(p.bytes_total)), " (",
                    static_cast<int>(100 * frac), "%)");
        if (frac > 0.01 && t > 0.5) text += cat(", ", human_duration(t / frac - t), " left");
      }
      if (t > 0) text += cat(", ", human_bytes(static_cast<double>(p.bytes_read) / t), "/s");
      line.update(text, cat(R"({"stage":")", p.stage, R"(","bytes":)", p.bytes_read, R"(,"total":)",
                            p.bytes_total, R"(,"seconds":)", t, "}"));
    };
    BuildReport r = build_database(o);
    line.finish();
    if (!args->quiet) {
      std::fprintf(stderr,
                   "built %s: %u pages, %llu links (%llu merged duplicates), %llu self-links, "
                   "in %.2f s\n",
                   args->output.c_str(), r.pages, static_cast<unsigned long long>(r.links),
                   static_cast<unsigned long long>(r.input_links - r.links),
                   static_cast<unsigned long long>(r.self_links), r.seconds);
    }
  });
}

}  // namespace webrank::cli
