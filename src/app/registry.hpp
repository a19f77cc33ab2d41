// How the operations of each file of src/app/ enter the table of webrank/app/operation.hpp: a
// typed use case (options struct in, result struct out) wrapped into an Operation whose run()
// takes and gives JSON. Private to the app layer.
#pragma once

#include <any>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "webrank/app/operation.hpp"
#include "webrank/rank/presentation.hpp"

namespace webrank::app {

// An Operation over `fn`, a use case taking its Options (parsed by `set`) and giving a Result
// with a JSON form (to_json found by argument-dependent lookup) and ResultBase's members.
template <typename Options, typename Result>
Operation make_operation(Operation op, const OptionSet<Options>& set,
                         Result (*fn)(Session* session, const Options&, const Run&)) {
  op.options = set.specs();
  const OptionSet<Options>* s = &set;
  const std::string name = op.name;
  op.call = [s, fn, name](Session* session, const nlohmann::json& given,
                          const Run& run) -> std::any {
    return std::make_shared<Result>(fn(session, s->parse(given, name), run));
  };
  op.run = [call = op.call](Session* session, const nlohmann::json& given, const Run& run) {
    Result r = std::move(*std::any_cast<std::shared_ptr<Result>>(call(session, given, run)));
    Output out;
    out.json = r;
    out.notices = std::move(r.notices);
    out.arrays = std::move(r.arrays);
    return out;
  };
  return op;
}

// The page `label` names in `db` (a label, or the URL it normalizes to): how every operation
// resolves a page it is given. Throws Error(kNotFound) "WHERE: no page labelled 'LABEL'", `where`
// the database as the user named it, preceded by the option that named the page when `option`
// is given ("--personalize: ..."), with a trailing slash more or less suggested when that label
// exists.
PageId find_page_or_fail(const Database& db, const std::string& where, const std::string& label,
                         std::string_view option = {});

// Weights given one per page id (`dense`) over a web of `pages` pages, as PageWeights; `what`
// names the option in errors (a wrong length, a negative or non-finite weight, none positive).
PageWeights dense_page_weights(const std::vector<double>& dense, PageId pages,
                               const std::string& what);

// What every reader says of the stored vector `name` it shows (a search, top, page, backlinks,
// links): a warning when it did not converge, and one when it was computed before an update of
// the web (stale: its values were carried onto the new pages for a warm start).
// `stale` says why it is stale ("" when it is current).
void note_vector_state(const std::string& name, bool converged, const std::string& stale,
                       Notices& notices);
void note_vector_state(const std::string& name, const VectorRecord& record, Notices& notices);
// The same for presented values, if they are a stored vector (not a topic mix).
void note_vector_state(const PresentedRanks& ranks, Notices& notices);

// Each file of operations adds its own (in the order of `webrank --help`).
void add_ranking_operations(std::vector<Operation>& table);  // rank, hits, topics, ppr, compare
void add_inspect_operations(std::vector<Operation>& table);  // info, check, top, page, links...
void add_spam_operations(std::vector<Operation>& table);     // trust, seeds, spam-report...
void add_search_operations(std::vector<Operation>& table);   // search, eval, index
void add_making_operations(std::vector<Operation>& table);   // build, import, crawl, update...
void add_studies_operations(std::vector<Operation>& table);  // explain, usage, crawl-order...
void add_mpi_operations(std::vector<Operation>& table);      // partition

}  // namespace webrank::app
