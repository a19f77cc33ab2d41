// The server's pages: which view answers which path (docs/serve.md), as a table of handlers for
// the HTTP layer (http.hpp), with the headers every response carries.
#pragma once

#include "http.hpp"
#include "response_cache.hpp"
#include "views.hpp"

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
