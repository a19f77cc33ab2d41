// `webrank report DB -o report.html [--ranks NAME] [-k 20] [--title T] [--json]`: one
// self-contained HTML page of interactive charts (webrank/report/report.hpp).
#include <cstdio>

#include "common.hpp"
#include "webrank/json.hpp"
#include "webrank/report/report.hpp"
#include "webrank/util/output_file.hpp"

namespace webrank::cli {

void add_report_command(CLI::App& app) {
  struct Args {
    std::string db, out;
    ReportOptions o;
    bool json = false, quiet = false, no_verify = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "report", "Write one self-contained HTML page of interactive charts about the web");
  cmd->add_option("DB", args->db, "Database directory")->required();
  cmd->add_option("-o,--output", args->out, "The HTML file to write (- = standard output)")
      ->required();
  cmd->add_option("--ranks", args->o.ranks,
                  "The vector whose distribution is charted (default: pagerank, else the first)");
  cmd->add_option("-k", args->o.top, "Top pages listed per vector")
      ->capture_default_str()
      ->check(number_check(whole_at_least(1, 1e6)));
  cmd->add_option("--title", args->o.title, "Title of the page (default: the database's name)");
  cmd->add_flag("--json", args->json, "Write the charts' data as JSON instead of HTML");
  cmd->add_flag("-q,--quiet", args->quiet, "Print nothing but errors");
  cmd->add_flag("--no-verify", args->no_verify, "Skip checksum verification of the database");
  cmd->callback([args] {
    Database db = open_database(args->db, args->no_verify);
    const ReportData data = gather_report(db, args->o);
    const std::string text =
        args->json ? json_text(nlohmann::json(data)) + "\n" : render_report_html(data);
    write_output_file(args->out, text);
    if (!args->quiet && args->out != "-") {
      std::fprintf(stderr, "report: %s (%s; %zu vectors, %llu pages)\n", args->out.c_str(),
                   format_bytes(static_cast<double>(text.size())).c_str(), data.top.size(),
                   static_cast<unsigned long long>(data.summary.stats.pages));
    }
  });
}

}  // namespace webrank::cli
