// The JSON form of the app layer's results (webrank/app/app_json.hpp).
#include "webrank/app/app_json.hpp"

namespace webrank {

void to_json(nlohmann::json& j, const GenerateReport& r) {
  j = {{"ids", r.ids}, {"pages", r.pages}, {"links", r.links}, {"notes", r.notes}};
}

void to_json(nlohmann::json& j, const TextWebReport& r) {
  j = {{"pages", r.pages}, {"links", r.links}, {"bytes", r.bytes}};
}

}  // namespace webrank

namespace webrank::app {

void to_json(nlohmann::json& j, const InfoResult& r) {
  j = r.summary;
  // null without an index; {"error"} when it is there and cannot be used.
  if (r.search_index) {
    j["search_index"] = *r.search_index;
  } else if (!r.search_index_error.empty()) {
    j["search_index"] = {{"error", r.search_index_error}};
  } else {
    j["search_index"] = nullptr;
  }
}

void to_json(nlohmann::json& j, const CheckResult& r) {
  j = r.verdicts;
}

void to_json(nlohmann::json& j, const RanksResult& r) {
  j = r.vectors_stored;
}

void to_json(nlohmann::json& j, const TopResult& r) {
  j = r.pages;
}

void to_json(nlohmann::json& j, const PageResult& r) {
  j = r.report;
}

void to_json(nlohmann::json& j, const BacklinksResult& r) {
  j = r.backlinks;
  set_text(j, "url", r.url);
  j["ranks"] = r.ranks;
}

void to_json(nlohmann::json& j, const LinksResult& r) {
  j = {{"ranks", r.ranks}, {"links", r.links}};
  set_text(j, "url", r.url);
}

void to_json(nlohmann::json& j, const StatusResult& r) {
  j = {{"status", "ok"},
       {"database", r.database},
       {"pages", r.pages},
       {"links", r.links},
       {"ranks", r.ranks ? nlohmann::json(*r.ranks) : nlohmann::json(nullptr)},
       {"search", r.search}};
}

void to_json(nlohmann::json& j, const HistoryResult& r) {
  j = {{"ranks", r.ranks}, {"converged", r.converged}, {"iterations", r.iterations}, {"l1", r.l1}};
}

void to_json(nlohmann::json& j, const ProxyResult& r) {
  nlohmann::json links = nlohmann::json::array();
  for (const ProxyLink& l : r.links) {
    nlohmann::json link = {{"href", l.href},
                           {"target", l.target ? nlohmann::json(*l.target) : nlohmann::json()},
                           {"page", l.page ? nlohmann::json(*l.page) : nlohmann::json()}};
    links.push_back(std::move(link));
  }
  j = {{"url", r.url}, {"title", r.title}, {"links", std::move(links)}};
}

void to_json(nlohmann::json& j, const CompareRanksResult& r) {
  j = r.comparison;
  j["a"] = r.a;
  j["b"] = r.b;
  j["of_pages"] = r.pages_in_web;
  set_text(j, "max_difference_label", r.max_difference_label);
}

void to_json(nlohmann::json& j, const RankedVector& v) {
  j = v.record;
  j.erase("schema");
  if (v.record.xxh3.empty()) j.erase("xxh3");
  j["stored"] = v.stored;
}

void to_json(nlohmann::json& j, const RankReport& r) {
  if (!r.batch && r.vectors.size() == 1) {
    j = r.vectors.front();
    return;
  }
  j = {{"vectors", r.vectors}, {"seconds", r.seconds}};
}

void to_json(nlohmann::json& j, const HitsReport& r) {
  j = {{"stored", r.stored},
       {"authority", r.stored + ".authority"},
       {"hub", r.stored + ".hub"},
       {"iterations", r.result.iterations},
       {"converged", r.result.converged},
       {"stalled", r.result.stalled},
       {"final_delta", r.result.final_delta},
       {"deltas", r.result.deltas},
       {"seconds", r.result.seconds}};
}

void to_json(nlohmann::json& j, const TopicsReport& r) {
  if (r.topics.empty()) {
    j = r.stored_topics;
    return;
  }
  j = nlohmann::json::array();
  for (const TopicSummary& s : r.topics) {
    nlohmann::json pages = nlohmann::json::array();
    for (const auto& p : s.top) {
      nlohmann::json page = {{"rank", p.rank}, {"in_topic", p.in_topic}};
      set_text(page, "label", p.label);
      pages.push_back(page);
    }
    j.push_back({{"topic", s.topic},
                 {"pagerank_top_in_topic", s.pagerank_top_in_topic},
                 {"vector", s.vector},
                 {"pages", s.pages},
                 {"iterations", s.iterations},
                 {"converged", s.converged},
                 {"top_in_topic", s.top_in_topic},
                 {"top", pages}});
  }
}

void to_json(nlohmann::json& j, const PprReport& r) {
  j = r.top;
  for (std::size_t i = 0; i < r.labels.size(); ++i) {
    set_text(j["top"][i], "label", r.labels[i]);
    if (r.titles[i]) set_text(j["top"][i], "title", *r.titles[i]);
  }
}

void to_json(nlohmann::json& j, const CompareReport& r) {
  j = r.table;
}

void to_json(nlohmann::json& j, const TrustReport& r) {
  j = nlohmann::json::array();
  for (const TrustPage& p : r.pages) {
    nlohmann::json page = {{"pagerank", p.pagerank},
                           {"trustrank", p.trustrank},
                           {"spam_mass", p.spam_mass},
                           {"spam_mass_absolute", p.spam_mass_absolute}};
    set_text(page, "label", p.label);
    j.push_back(page);
  }
}

void to_json(nlohmann::json& j, const SeedsReport& r) {
  j = nlohmann::json::array();
  for (const auto& c : r.candidates) {
    nlohmann::json s = {{"inverse_pagerank", c.inverse_pagerank},
                        {"out_links", c.out_links},
                        {"in_links", c.in_links}};
    set_text(s, "label", c.label);
    if (c.title && !c.title->empty()) set_text(s, "title", *c.title);
    j.push_back(s);
  }
}

void to_json(nlohmann::json& j, const SpamReportResult& r) {
  j = r.report;
  for (std::size_t i = 0; i < r.report.farms.size(); ++i) {
    nlohmann::json& farm = j["farms"][i];
    set_text(farm, "label", r.target_labels[i]);
    nlohmann::json supporters = nlohmann::json::array(), allies = nlohmann::json::array();
    for (const auto& s : r.supporter_labels[i]) supporters.push_back(s);
    for (const auto& a : r.allied_labels[i]) allies.push_back(a);
    farm["supporter_labels"] = supporters;
    farm["allied_target_labels"] = allies;
  }
}

void to_json(nlohmann::json& j, const PlantResult& r) {
  j = {{"targets", r.report.targets},
       {"pages_added", r.report.pages_added},
       {"links_added", r.report.links_added},
       {"accessible", r.report.accessible},
       {"shape", r.shape},
       {"output", r.output}};
}

void to_json(nlohmann::json& j, const SearchReport& r) {
  j = r.results;
}

void to_json(nlohmann::json& j, const EvalResult& r) {
  j = r.report;
  if (!r.per_query) j.erase("outcomes");
}

void to_json(nlohmann::json& j, const IndexResult& r) {
  j = r.report;
}

void to_json(nlohmann::json& j, const ExplainResult& r) {
  j = r.explanation;
}

void to_json(nlohmann::json& j, const UsageResult& r) {
  j = nlohmann::json::object();
  j["pages"] = r.pages;
  j["visits"] = r.usage.total;
  j["visited_pages"] = r.usage.visited_pages;
  if (r.log) {
    j["log"] = *r.log;
  } else {
    // The counts file's lines that name no page of the database, every label listed.
    const UnknownLabels& u = r.usage.unknown;
    nlohmann::json labels = nlohmann::json::array();
    for (const auto& l : u.labels)
      labels.push_back({{"label", l.label}, {"visits", l.weight}, {"line", l.line}});
    j["not_in_database"] = {{"lines", u.lines}, {"visits", u.weight}, {"pages", labels}};
  }
  j["comparisons"] = r.comparisons;
  if (r.source_rank) j["source_rank"] = *r.source_rank;
}

void to_json(nlohmann::json& j, const CrawlOrderResult& r) {
  j = r.study;
  set_text(j, "seed_label", r.seed_label);
}

void to_json(nlohmann::json& j, const HostsResult& r) {
  host_graph_json(j, r.report, r.k);
  j["output"] = r.output;
}

void to_json(nlohmann::json& j, const CentralityResult& r) {
  j = r.result;
  j["name"] = r.name;
  j["top"] = r.top;
  if (r.comparison) {
    j["compared_with"] = r.compared_with;
    j["comparison"] = *r.comparison;
  }
}

void to_json(nlohmann::json& j, const ReportResult& r) {
  j = r.data;
  j["page"] = r.page ? *r.page : nlohmann::json();
}

void to_json(nlohmann::json& j, const BuildResult& r) {
  j = r.report;
}

void to_json(nlohmann::json& j, const CrawlResult& r) {
  if (r.is_recrawl) {
    j = r.recrawl;
  } else {
    j = r.crawl;
  }
}

void to_json(nlohmann::json& j, const GenerateResult& r) {
  if (r.is_text) {
    j = r.text;
  } else {
    j = r.graph;
  }
  j["output"] = r.output;
}

void to_json(nlohmann::json& j, const UpdateResult& r) {
  j = r.report;
  j["index"] = r.index ? nlohmann::json(*r.index) : nlohmann::json(nullptr);
}

void to_json(nlohmann::json& j, const ExportResult& r) {
  j = {{"output", r.output}};
}

void to_json(nlohmann::json& j, const PartitionResult& r) {
  j = r.report;
}

nlohmann::json progress_json(const Progress& p) {
  return std::visit([](const auto& x) { return nlohmann::json(x); }, p);
}

void to_json(nlohmann::json& j, const OptionSpec& s) {
  nlohmann::json fronts = nlohmann::json::array();
  if (s.fronts & kCli) fronts.push_back("cli");
  if (s.fronts & kPython) fronts.push_back("python");
  if (s.fronts & kHttp) fronts.push_back("http");
  j = {{"name", s.name},
       {"type", to_string(s.type)},
       {"help", s.help},
       {"default", s.default_value},
       {"choices", s.choices},
       {"range", s.range.describe()},
       {"position", s.position},
       {"required", s.required},
       {"aliases", s.aliases},
       {"flag", s.flag()},
       {"short", s.short_name ? std::string(1, s.short_name) : std::string()},
       {"value_name", s.value_name},
       {"unit", s.unit},
       {"http_name", s.http_name.empty() ? s.name : s.http_name},
       {"excludes", s.excludes},
       {"fronts", fronts},
       {"served_range", s.served.describe()},
       {"served_values", s.served_values}};
}

void to_json(nlohmann::json& j, const Operation& op) {
  nlohmann::json options = op.options;
  for (const OptionSpec& s : run_options()) options.push_back(s);
  j = {{"name", op.name},
       {"group", op.group},
       {"summary", op.summary},
       {"database", op.access != Access::kNone},
       {"writes", op.access == Access::kWrite},
       {"served", op.served},
       {"verifies", op.verifies},
       {"cost", op.cost == Cost::kBounded ? "bounded"
                : op.cost == Cost::kWeb   ? "web"
                                          : "solve"},
       {"options", std::move(options)}};
}

}  // namespace webrank::app
