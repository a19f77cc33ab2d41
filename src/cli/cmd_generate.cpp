#include <cstdio>

#include "common.hpp"
#include "webrank/algo/generate.hpp"
#include "webrank/search/text_web.hpp"

namespace webrank::cli {

void add_generate_command(CLI::App& app) {
  auto o = std::make_shared<GenerateOptions>();
  auto text = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("generate", "Write a synthetic web as an edge list");
  add_enum_option(cmd, "--model", &o->model,
                  {{"web", GraphModel::kWeb}, {"rmat", GraphModel::kRmat}},
                  "web (host-clustered copying model, URL labels) or rmat (Kronecker, numeric)");
  cmd->add_option("--pages", o->pages, "Number of pages")
      ->capture_default_str()
      ->check(number_check(whole_at_least(1, 4294967295.0)));
  cmd->add_option("--links", o->links, "Number of links")
      ->capture_default_str()
      ->check(number_check(whole_at_least(1, 1e18)));
  cmd->add_option("--seed", o->seed, "Random seed")
      ->capture_default_str()
      ->check(number_check(whole_at_least(0, 1e18)));
  cmd->add_option("-o,--output", o->output,
                  "Edge-list file to write (- for stdout); with --text a WARC file (.warc, or "
                  ".warc.gz compressed)")
      ->required();
  cmd->add_flag("--text", *text,
                "Write the web model's pages as HTML with titles, text and anchor texts, in a "
                "WARC file that `import` reads (a synthetic text web for measuring search)");
  auto quiet = std::make_shared<bool>(false);
  cmd->add_flag("-q,--quiet", *quiet, "Print nothing but errors");
  cmd->callback([o, quiet, text] {
    if (*text) {
      const TextWebReport r = generate_text_web(*o);
      if (*quiet) return;
      std::fprintf(stderr, "wrote %s: %llu pages, %llu links, %s of HTTP responses\n",
                   o->output.c_str(), static_cast<unsigned long long>(r.pages),
                   static_cast<unsigned long long>(r.links),
                   format_bytes(static_cast<double>(r.bytes)).c_str());
      return;
    }
    GenerateReport r = generate_graph(*o);
    if (*quiet) return;
    // On stderr even when the edge list goes to standard output.
    std::fprintf(stderr, "wrote %s: %llu links among %llu pages\n",
                 o->output == "-" ? "<stdout>" : o->output.c_str(),
                 static_cast<unsigned long long>(r.links),
                 static_cast<unsigned long long>(r.pages));
    for (const std::string& note : r.notes) std::fprintf(stderr, "  %s\n", note.c_str());
  });
}

}  // namespace webrank::cli
