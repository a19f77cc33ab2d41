// Locality orders for page ids, chosen at build time (`webrank build --order`). They change only
// which id a page gets, never its label, links or ranks: every command shows pages by label,
// and `--out` files list pages in id order.
//
// `degree`: pages by decreasing out-degree (ties keep input order). A pull sweep reads page v's
// contribution once per out-link of v, so this packs the most-read part of the contribution
// vector into a short prefix that stays in cache (hub sorting).
//
// `url`: pages sorted by URL with the host's labels reversed (com.example.www:8080/a/b; the
// scheme and a leading "www." of the host are ignored), as the paper's link database is sorted:
// a site's pages, and a domain's sites, get neighbouring ids, and most links stay within a site.
// Labels that are not URLs (no "://") sort as plain strings after the URLs.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "webrank/writer/database_writer.hpp"
#include "writer/csr_builder.hpp"

namespace webrank {

// new_id[old] for `order` (kDegree or kUrl; kInput is the identity); label(id) gives a page's
// label.
std::vector<PageId> page_order(PageOrder order, const CsrLinks& links, PageId pages,
                               const std::function<std::string_view(PageId)>& label);

// The sort key of `url` order for one label (exposed for the tests).
std::string url_order_key(std::string_view label);

// Renumbers `links` by new_id (neighbour lists stay sorted).
CsrLinks renumber(CsrLinks&& links, const std::vector<PageId>& new_id);

}  // namespace webrank
