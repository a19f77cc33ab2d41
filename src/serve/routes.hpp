// The server's paths (docs/serve.md): which page or operation answers which path, as a table of
// handlers for the HTTP layer (http.hpp), with the headers every response carries. Every page and
// endpoint is a rendering of operations of the app layer (site.hpp): the pages draw their
// results (pages/), the JSON endpoints are their JSON forms, and the paths of the first API that
// took other parameters redirect to the operations' own.
#pragma once

#include "http.hpp"
#include "response_cache.hpp"
#include "site.hpp"

namespace webrank::serve {

// Pages of the server itself: scripts and styles from this origin only, nothing framed, no
// plugin, no form posting elsewhere.
inline constexpr const char* kPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
// The proxy view of a crawled page: nothing runs at all, no form submits.
inline constexpr const char* kProxyPolicy =
    "default-src 'none'; script-src 'none'; style-src 'self'; img-src 'self'; "
    "form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

// The routes of `site`; searches answered through `cache`. Both must outlive the table.
RouteTable site_routes(const Site& site, ResponseCache& cache);

}  // namespace webrank::serve
