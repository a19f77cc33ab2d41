#include "routes.hpp"

#include "operation_routes.hpp"
#include "templates.hpp"

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
    default:
      return 500;
  }
}

Params params_of(const HttpRequest& request) {
  return [&request](std::string_view name) { return request.param(name); };
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
  return {status, "text/html; charset=utf-8", error_html(site, status, message), {}};
}

// Runs a view, mapping the library's errors to HTTP statuses with their message.
template <typename View>
HttpResponse guarded(const Site& site, const HttpRequest& request, View&& view) {
  try {
    return view();
  } catch (const Error& e) {
    const std::string message = e.message([](std::string_view f) { return std::string(f); });
    return error_response(site, request, http_status(e.kind()), message, e);
  } catch (const std::bad_alloc&) {
    return error_response(site, request, 503, "out of memory",
                          {{"kind", "io"}, {"message", "out of memory"}});
  }
}

// Search answers (HTML and JSON) come from the cache when the same request target was answered
// since the searcher last changed: they depend on nothing else. Other views read things reopen()
// does not watch (every stored vector), so they are computed each time.
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

}  // namespace

RouteTable site_routes(const Site& site, ResponseCache& cache) {
  // The pages' templates load here, when the server starts: a template that does not load stops
  // it now rather than failing requests.
  Templates::built_in();
  RouteTable table;
  const auto html = [&site](auto view, const char* policy = kPolicy) -> Handler {
    return [&site, view, policy](const HttpRequest& request) {
      HttpResponse response = guarded(site, request, [&] {
        return HttpResponse{200, "text/html; charset=utf-8", view(site, params_of(request)), {}};
      });
      response.set_header("Content-Security-Policy", policy);
      return response;
    };
  };
  const auto json = [&site](auto view) -> Handler {
    return [&site, view](const HttpRequest& request) {
      return guarded(site, request, [&] {
        return HttpResponse{200,
                            "application/json",
                            json_text(nlohmann::json(view(site, params_of(request))), -1),
                            {}};
      });
    };
  };
  const auto home = [](const Site& s, const Params&) { return home_html(s); };
  // Quick: searches (bounded by the query's limits), the static report page and small JSON. The
  // rest reads vectors, pages or links whose size grows with the web (slow, the default).
  constexpr Pace kQuick = Pace::kQuick;
  table.exact("/", html(home));
  table.exact("/search", cached(cache, html(search_html)), kQuick);
  table.exact("/page", html(page_html));
  table.exact("/proxy", html(proxy_html, kProxyPolicy));
  table.exact("/compare", html(compare_html));
  table.exact("/report", html(report_html), kQuick);
  table.exact("/api/v1/search", cached(cache, json(search_json)), kQuick);
  table.exact("/api/v1/page", json(page_json));
  table.exact("/api/v1/backlinks", json(backlinks_json));
  table.exact("/api/v1/links", json(links_json));
  table.exact("/api/v1/proxy", json(proxy_json));
  table.exact("/api/v1/history", json(history_json));
  table.exact("/api/v1/compare", json(compare_json));
  table.exact("/api/v1/report", json(report_json));
  table.exact("/healthz", json([](const Site& s, const Params&) { return health_json(s); }),
              kQuick);
  // The served operations, answered as `webrank NAME --json` prints them, on one thread each.
  for (const app::Operation& op : app::operations()) {
    if (!op.served) continue;
    const Handler run = [&site, &op](const HttpRequest& request) {
      return guarded(site, request, [&] {
        const nlohmann::json values = operation_params(op, request);
        app::Run one;
        one.threads = 1;
        const app::Output out = op.run(site.session.get(), values, one);
        return HttpResponse{200, "application/json", json_text(out.json, -1), {}};
      });
    };
    table.exact("/api/v1/op/" + op.name, run);
    if (!table.has("/api/v1/" + op.name)) table.exact("/api/v1/" + op.name, run);
  }
  table.exact("/api/v1", json([](const Site&, const Params&) { return api_index_json(); }), kQuick);
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
      kQuick);
  // Browsers ask for it on every site: nothing, rather than a 404 in their console.
  table.exact(
      "/favicon.ico",
      [](const HttpRequest&) {
        return HttpResponse{204, "", "", {}};
      },
      kQuick);
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
