#include <cstdio>

#include "common.hpp"
#include "webrank/generate.hpp"

namespace webrank::cli {

void add_generate_command(CLI::App& app) {
  auto o = std::make_shared<GenerateOptions>();
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
  cmd->add_option("-o,--output", o->output, "Edge-list file to write (- for stdout)")->required();
  auto quiet = std::make_shared<bool>(false);
  cmd->add_flag("-q,--quiet", *quiet, "Print nothing but errors");
  cmd->callback([o, quiet] {
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
