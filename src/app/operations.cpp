// The table of operations (webrank/app/operation.hpp), the run options every front end offers,
// and what every operation shares: naming a page.
#include <algorithm>

#include "app/registry.hpp"
#include "webrank/ingest/rank_sources.hpp"

namespace webrank::app {

const std::vector<Operation>& operations() {
  static const std::vector<Operation> table = [] {
    std::vector<Operation> t;
    add_making_operations(t);
    add_ranking_operations(t);
    add_inspect_operations(t);
    add_search_operations(t);
    add_spam_operations(t);
    add_studies_operations(t);
    add_mpi_operations(t);
    return t;
  }();
  return table;
}

const std::vector<std::string>& operation_groups() {
  static const std::vector<std::string> groups = [] {
    std::vector<std::string> g;
    for (const Operation& op : operations()) {
      if (std::find(g.begin(), g.end(), op.group) == g.end()) g.push_back(op.group);
    }
    return g;
  }();
  return groups;
}

const Operation& find_operation(std::string_view name) {
  std::vector<std::string> names;
  for (const Operation& op : operations()) {
    if (op.name == name) return op;
    names.push_back(op.name);
  }
  const auto guess = nearest_name(name, names);
  fail(ErrorKind::kInvalidArgument, "unknown operation '", name, "'",
       guess ? "; did you mean '" + *guess + "'?" : "");
}

const std::vector<OptionSpec>& run_options() {
  static const std::vector<OptionSpec> specs = [] {
    struct RunOptions {
      int threads = 0;
    };
    OptionSet<RunOptions> s;
    s.add("threads", WR_FIELD(threads), "Threads (0 = all cores)")
        .in(at_least(0))
        .as("N", "threads")
        .only(kCli | kPython);
    return s.specs();
  }();
  return specs;
}

void note_vector_state(const std::string& name, bool converged, const std::string& stale,
                       Notices& notices) {
  if (!converged) notices.warnings.push_back(cat("rank vector '", name, "' did not converge"));
  if (!stale.empty()) notices.warnings.push_back(cat("rank vector '", name, "' is stale: ", stale));
}

void note_vector_state(const std::string& name, const VectorRecord& record, Notices& notices) {
  note_vector_state(name, record.converged, record.stale ? record.stale->reason : "", notices);
}

void note_vector_state(const PresentedRanks& ranks, Notices& notices) {
  if (const VectorRecord* record = ranks.record())
    note_vector_state(ranks.name(), *record, notices);
}

PageId find_page_or_fail(const Database& db, const std::string& where, const std::string& label,
                         std::string_view option) {
  if (const auto id = find_page(db, label)) return *id;
  const std::string other = label.ends_with('/') ? label.substr(0, label.size() - 1) : label + "/";
  const bool near = !other.empty() && db.find(other).has_value();
  fail(ErrorKind::kNotFound, option.empty() ? "" : option_ref(std::string(option)) + ": ", where,
       ": no page labelled '", label, "'", near ? "; did you mean '" + other + "'?" : "");
}

PageWeights dense_page_weights(const std::vector<double>& dense, PageId pages,
                               const std::string& what) {
  if (dense.size() != pages)
    fail_option(what, "must be an array of ", pages, " numbers (one per page)");
  PageWeights out;
  for (PageId u = 0; u < pages; ++u) {
    const double x = dense[u];
    if (!(x >= 0) || !std::isfinite(x))
      fail_option(what, "must hold finite numbers >= 0, got ", x, " at ", u);
    if (x != 0) out.emplace_back(u, x);
  }
  return out;
}

}  // namespace webrank::app
