#include <cstdio>

#include "common.hpp"
#include "webrank/rank_store.hpp"

namespace webrank::cli {

void add_check_command(CLI::App& app) {
  auto db_path = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "check", "Verify every checksum of a database and its rank vectors (exit 1 on damage)");
  cmd->add_option("DB", *db_path, "Database directory")->required();
  cmd->callback([db_path] {
    Database db = open_database(*db_path, /*skip_verify=*/false);
    const auto names = db.rank_names();
    for (const auto& name : names) load_ranks(db, name);  // verifies the vector's checksums
    std::printf("%s: ok (%u pages, %llu links, %zu rank vector%s)\n", db_path->c_str(),
                db.num_pages(), static_cast<unsigned long long>(db.num_links()), names.size(),
                names.size() == 1 ? "" : "s");
  });
}

}  // namespace webrank::cli
