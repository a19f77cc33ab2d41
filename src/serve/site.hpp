// What every page and endpoint of the server reads: one app::Session (the database, its
// searchers, the personalized views and the report's data it keeps), through the operations of
// the app layer (webrank/app/operation.hpp). A page or endpoint is a rendering of operations'
// results; its parameters are their declared options (operation_routes.hpp).
#pragma once

#include <atomic>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "http.hpp"
#include "webrank/app/inspect.hpp"
#include "webrank/app/operation.hpp"

namespace webrank::serve {

struct Site {
  std::unique_ptr<app::Session> session;
  // The server's --ranks when it was given: the vector every operation that takes one ranks by
  // unless the request names another. Unnamed, each operation's declared default holds.
  std::string ranks;
  bool ranks_named = false;

  // `values` (an operation's options from a request) with the server's defaults: --ranks.
  void add_defaults(const app::Operation& op, nlohmann::json& values) const;
  // How a request's call runs: one thread, stopped with the request (its deadline, its client,
  // the server's stop).
  app::Run run(const HttpRequest& request) const;
  // Operation `name` with `values` (add_defaults() applied), its result as the struct the
  // operation returns.
  template <typename Result>
  Result call(std::string_view name, nlohmann::json values, const HttpRequest& request) const {
    const app::Operation& op = app::find_operation(name);
    add_defaults(op, values);
    return app::call_as<Result>(op, session.get(), values, run(request));
  }
  // What every page's frame shows: the database's name and size, the vector results are ranked
  // by, whether search is on (the `status` operation's result). Nothing but a refresh of the
  // session changes it, so it is computed when the server starts and after every refresh that
  // finds something new (update_status()), not for every page.
  std::shared_ptr<const app::StatusResult> status() const { return status_.load(); }
  // Runs `status` again and keeps its result; returns it.
  std::shared_ptr<const app::StatusResult> update_status();

 private:
  std::atomic<std::shared_ptr<const app::StatusResult>> status_;
};

}  // namespace webrank::serve
