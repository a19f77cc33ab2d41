// `webrank check DB [--ranks NAME]...`: every checksum of the database and its rank vectors; with
// --ranks, also the verifier (webrank/rank/verify.hpp): the named vectors' residuals against the
// tolerance they were computed to. Exit 1 on damage or on a vector outside its tolerance.
#include <cstdio>

#include "common.hpp"
#include "webrank/json.hpp"
#include "webrank/rank/verify.hpp"
#include "webrank/store/rank_store.hpp"

namespace webrank::cli {

void add_check_command(CLI::App& app) {
  struct Args {
    std::string db;
    std::vector<std::string> ranks;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "check",
      "Verify every checksum of a database and its rank vectors; with --ranks, recompute the "
      "residual of stored vectors (exit 1 on damage or a vector outside its tolerance)");
  cmd->add_option("DB", args->db, "Database directory")->required();
  cmd->add_option("--ranks", args->ranks,
                  "Recompute this stored vector's residual with an independent pass and hold it "
                  "to the tolerance it was computed to (repeatable)")
      ->allow_extra_args(false);
  cmd->add_flag("--json", args->json, "Print the verdicts on --ranks vectors as JSON");
  cmd->callback([args] {
    // Everything is read, whatever an earlier verification recorded; success is recorded.
    Database db =
        Database::open(args->db, {.verification_records = default_verification_records()});
    db.verify();
    const auto names = db.rank_names();
    for (const auto& name : names) load_ranks(db, name);  // verifies the vector's checksums
    if (!args->json) {
      std::printf("%s: ok (%u pages, %llu links, %zu rank vector%s)\n", args->db.c_str(),
                  db.num_pages(), static_cast<unsigned long long>(db.num_links()), names.size(),
                  names.size() == 1 ? "" : "s");
    }
    nlohmann::json verdicts = nlohmann::json::array();
    for (const auto& name : args->ranks) {
      const RankCheck c = check_rank_vector(db, name);
      verdicts.push_back(c);
      if (c.checkable && !c.ok) exit_status() = kExitError;
      if (args->json) continue;
      if (!c.checkable) {
        std::printf("ranks '%s': not checked: %s\n", name.c_str(), c.reason.c_str());
        continue;
      }
      std::printf(
          "ranks '%s': residual %.3e %s %.3e (computed to --tol %g), error bound %.3e, sum %.12g, "
          "%.2f s: %s\n",
          name.c_str(), c.residual, c.ok ? "<=" : ">", c.allowed, c.tol, c.error_bound, c.sum,
          c.seconds, c.ok ? "ok" : "NOT within its tolerance");
    }
    if (args->json) std::printf("%s\n", json_text(verdicts).c_str());
  });
}

}  // namespace webrank::cli
