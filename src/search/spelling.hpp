// "Did you mean": a query whose words no page has, with those words replaced by the nearest
// words of the index's own vocabulary (Xapian's spelling data, made at index time from the
// words of titles, of the pages' own text and of anchor texts; docs/search.md, "Spelling").
#pragma once

#include <xapian.h>

#include <string>
#include <string_view>

#include "webrank/search/search.hpp"

namespace webrank::search {

// The query with each word that no indexed page has replaced by its spelling correction (edit
// distance at most 1 for words of up to four characters, 2 for longer ones; the most frequent
// candidate); "" when no word could be corrected or the corrected query matches no page in
// `mode` either. site: values and operators are left as they are.
std::string suggest_query(const Xapian::Database& index, std::string_view query, SearchMode mode);

}  // namespace webrank::search
