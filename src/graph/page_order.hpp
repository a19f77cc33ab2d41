// Locality orders for page ids, chosen at build time (`webrank build --order`). They change only
// which id a page gets, never its label, links or ranks: every command shows pages by label,
// and `--out` files list pages in id order.
//
// `degree`: pages by decreasing out-degree (ties keep input order). A pull sweep reads page v's
// contribution once per out-link of v, so this packs the most-read part of the contribution
// vector into a short prefix that stays in cache (hub sorting).
#pragma once

#include <string>
#include <vector>

#include "graph/csr_builder.hpp"

namespace webrank {

// new_id[old] for the order named `order` ("degree"); throws Error for an unknown name.
std::vector<PageId> page_order(const std::string& order, const CsrLinks& links, PageId pages);

// Renumbers `links` by new_id (neighbour lists stay sorted).
CsrLinks renumber(CsrLinks&& links, const std::vector<PageId>& new_id);

}  // namespace webrank
