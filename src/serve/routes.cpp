#include "routes.hpp"

#include "html.hpp"
#include "operation_routes.hpp"
#include "pages/pages.hpp"
#include "templates.hpp"
#include "webrank/app/app_json.hpp"
#include "webrank/assets/assets.hpp"
#include "webrank/json.hpp"
#include "webrank/util/error.hpp"

namespace webrank::serve {
namespace {

int http_status(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kInvalidArgument:
    case ErrorKind::kInvalidType:
      return 400;
    case ErrorKind::kNotFound:
      return 404;
    case ErrorKind::kConflict:
      return 409;
    case ErrorKind::kCancelled:  // stopped by the request's deadline, its client or a stop
      return 503;
    default:
      return 500;
  }
}

// An option as a request names it: its query parameter (`page` is `url`, `query` is `q`).
std::string parameter_name(std::string_view option) {
  for (const app::Operation& op : app::operations()) {
    if (!op.served) continue;
    for (const app::OptionSpec& s : op.options) {
      if (s.name == option && !s.http_name.empty()) return s.http_name;
    }
  }
  return std::string(option);
}

bool is_api(const HttpRequest& request) {
  return request.path.starts_with("/api/") || request.path == "/healthz";
}

// An error as the API (JSON) or a page (HTML) says it.
HttpResponse error_response(const Site& site, const HttpRequest& request, int status,
                            const std::string& message, const nlohmann::json& error) {
  if (is_api(request)) {
    return {status, "application/json", json_text(nlohmann::json{{"error", error}}, -1), {}};
  }
  return {status, "text/html; charset=utf-8", error_page(site, request, status, message), {}};
}

// Runs a view, mapping the library's errors to HTTP statuses with their message.
template <typename View>
HttpResponse guarded(const Site& site, const HttpRequest& request, View&& view) {
  try {
    return view();
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::kCancelled && request.cutoff() != Cutoff::kNone) {
      const std::string message = cutoff_message(request.cutoff());
      return error_response(site, request, 503, message,
                            {{"kind", "cancelled"}, {"message", message}});
    }
    const std::string message = e.message(parameter_name);
    nlohmann::json error = e;
    error["message"] = message;
    if (!e.field().empty()) error["field"] = parameter_name(e.field());
    return error_response(site, request, http_status(e.kind()), message, error);
  } catch (const std::bad_alloc&) {
    return error_response(site, request, 503, "out of memory",
                          {{"kind", "io"}, {"message", "out of memory"}});
  }
}

// Search answers (HTML and JSON) come from the cache when the same request target was answered
// since the searchers last changed: they depend on nothing else. Other views read things the
// watcher does not (every stored vector), so they are computed each time.
Handler cached(ResponseCache& cache, Handler handler) {
  return [&cache, handler = std::move(handler)](const HttpRequest& request) {
    if (const auto hit = cache.find(request.target)) {
      return HttpResponse{200, hit->content_type, hit->body, {}};
    }
    const std::uint64_t generation = cache.generation();
    HttpResponse response = handler(request);
    if (response.status == 200) {
      cache.insert(request.target, {response.body, response.content_type}, generation);
    }
    return response;
  };
}

// Where an operation's calls run: those bounded by their options on the loop that read the
// request, those that grow with the web on the pool, solves on the solvers' pool.
Pace pace_of(const app::Operation& op) {
  switch (op.cost) {
    case app::Cost::kBounded:
      return Pace::kQuick;
    case app::Cost::kWeb:
      return Pace::kSlow;
    case app::Cost::kSolve:
      return Pace::kSolve;
  }
  return Pace::kSlow;
}

// The first API's parameters, which name what the operations name otherwise: `id=N` (a page by
// its id) is `url=LABEL` (302: ids change with a new version of the database), and compare's
// `a=URL&b=URL` is `homes=URL&homes=URL` (301). Answers the redirect to the same path (or
// `to`) with the operations' parameters, or nullopt when the request uses none of them. Throws
// Error(kInvalidArgument) for an id that is not a page's.
std::optional<HttpResponse> redirect_legacy(const Site& site, const HttpRequest& request,
                                            const std::string& to) {
  const auto params = request.params();
  bool by_id = false, renamed = false;
  for (const auto& [name, value] : params) {
    by_id = by_id || name == "id";
    renamed = renamed || name == "a" || name == "b";
  }
  if (!by_id && !renamed) return std::nullopt;
  std::string query;
  for (const auto& [name, value] : params) {
    std::string pair;
    if (name == "id") {
      const auto db = site.session->database();
      if (db->num_pages() == 0) fail(ErrorKind::kNotFound, "the database has no pages");
      app::OptionSpec id;
      id.name = "id";
      id.type = app::ValueType::kWhole;
      id.range = app::closed(0, db->num_pages() - 1.0);
      const auto page = app::parse_text(id, value).get<PageId>();
      pair = "url=" + url_param(db->label(page));
    } else if (renamed && (name == "a" || name == "b")) {
      pair = "homes=" + url_param(value);
    } else {
      pair = url_param(name) + "=" + url_param(value);
    }
    query += (query.empty() ? "" : "&") + pair;
  }
  HttpResponse response{by_id ? 302 : 301, "", "", {}};
  response.set_header("Location", to + "?" + query);
  return response;
}

}  // namespace

RouteTable site_routes(const Site& site, ResponseCache& cache) {
  // The pages' templates load here, when the server starts: a template that does not load stops
  // it now rather than failing requests.
  Templates::built_in();
  RouteTable table;
  using Page = std::string (*)(const Site&, const HttpRequest&);
  const auto html = [&site](Page view, const char* policy = kPolicy) -> Handler {
    return [&site, view, policy](const HttpRequest& request) {
      HttpResponse response = guarded(site, request, [&] {
        if (auto moved = redirect_legacy(site, request, request.path)) return *moved;
        return HttpResponse{200, "text/html; charset=utf-8", view(site, request), {}};
      });
      response.set_header("Content-Security-Policy", policy);
      return response;
    };
  };
  // Quick: searches (bounded by the query's limits) and the static report page. The rest reads
  // vectors, pages or links whose size grows with the web (slow, the default), or solves.
  table.exact("/", html(home_page));
  table.exact("/search", cached(cache, html(search_page)), Pace::kQuick);
  table.exact("/page", html(page_view));
  table.exact("/proxy", html(proxy_page, kProxyPolicy));
  table.exact("/compare", html(compare_page), Pace::kSolve);
  table.exact("/report", html(report_page), Pace::kQuick);

  // Every served operation answers at /api/v1/op/NAME and /api/v1/NAME what `webrank NAME
  // --json` prints; /healthz is `status`.
  const auto operation = [&site](const app::Operation& op, std::string own) -> Handler {
    return [&site, &op, own = std::move(own)](const HttpRequest& request) {
      return guarded(site, request, [&] {
        if (auto moved = redirect_legacy(site, request, own)) return *moved;
        nlohmann::json values = operation_params(op, request);
        site.add_defaults(op, values);
        const app::Output out = op.run(site.session.get(), values, site.run(request));
        return HttpResponse{200, "application/json", json_text(out.json, -1), {}};
      });
    };
  };
  for (const app::Operation& op : app::operations()) {
    if (!op.served) continue;
    const std::string own = "/api/v1/op/" + op.name;
    Handler run = operation(op, own);
    if (op.name == "search") run = cached(cache, std::move(run));
    table.exact(own, run, pace_of(op));
    table.exact("/api/v1/" + op.name, run, pace_of(op));
  }
  table.exact("/healthz", operation(app::find_operation("status"), "/api/v1/op/status"),
              Pace::kQuick);
  table.exact(
      "/api/v1",
      [](const HttpRequest&) {
        const nlohmann::json index = {
            {"version", 1},
            {"operations", operation_paths()},
            {"aliases", "/api/v1/NAME answers as /api/v1/op/NAME; /healthz as /api/v1/op/status"},
            {"docs", "docs/serve.md"}};
        return HttpResponse{200, "application/json", json_text(index, -1), {}};
      },
      Pace::kQuick);
  // Assets by exact name from the table built into the binary: no path reaches the file system.
  table.prefix(
      "/assets/",
      [&site](const HttpRequest& request) {
        const auto asset = find_asset(std::string_view(request.path).substr(8));
        if (!asset) {
          return error_response(site, request, 404, "no such asset",
                                {{"kind", "not found"}, {"message", "no such asset"}});
        }
        HttpResponse response{200, std::string(asset->content_type), std::string(asset->bytes), {}};
        response.set_header("Cache-Control", "public, max-age=3600");
        return response;
      },
      Pace::kQuick);
  // Browsers ask for it on every site: nothing, rather than a 404 in their console.
  table.exact(
      "/favicon.ico",
      [](const HttpRequest&) {
        return HttpResponse{204, "", "", {}};
      },
      Pace::kQuick);
  table.on_error([&site](const HttpRequest& request, int status, const std::string& message) {
    const char* kind = status == 404                    ? "not found"
                       : status == 500 || status == 503 ? "internal"
                                                        : "invalid argument";
    return error_response(site, request, status, message, {{"kind", kind}, {"message", message}});
  });
  // Every response, errors and assets included (docs/serve.md, "What every response carries").
  table.default_header("Content-Security-Policy", kPolicy);
  table.default_header("X-Content-Type-Options", "nosniff");
  table.default_header("Referrer-Policy", "no-referrer");
  table.default_header("X-Frame-Options", "DENY");
  table.default_header("Cache-Control", "no-store");
  return table;
}

}  // namespace webrank::serve
