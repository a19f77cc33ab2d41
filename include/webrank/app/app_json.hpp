// The JSON form of the app layer's results: what `--json`, Python and the server's API give for
// each operation (webrank/app/operation.hpp). Most are the form of the library struct they hold,
// so that an operation's JSON is the one it had before it was an operation.
#pragma once

#include "webrank/app/inspect.hpp"
#include "webrank/app/making.hpp"
#include "webrank/app/ranking.hpp"
#include "webrank/app/searching.hpp"
#include "webrank/app/spam.hpp"
#include "webrank/app/studies.hpp"
#include "webrank/crawl/crawl_json.hpp"
#include "webrank/ingest/ingest_json.hpp"
#include "webrank/mpi/mpi_json.hpp"
#include "webrank/rank/rank_json.hpp"
#include "webrank/report/report_json.hpp"
#include "webrank/search/search_json.hpp"
#include "webrank/spam/spam_json.hpp"
#include "webrank/store/store_json.hpp"
#include "webrank/studies/studies_json.hpp"
#include "webrank/writer/writer_json.hpp"

namespace webrank {

// Reports of layers without a JSON header of their own (algo's generator; search's text web).
void to_json(nlohmann::json& j, const GenerateReport& r);
void to_json(nlohmann::json& j, const TextWebReport& r);

}  // namespace webrank

namespace webrank::app {

void to_json(nlohmann::json& j, const InfoResult& r);
void to_json(nlohmann::json& j, const CheckResult& r);
void to_json(nlohmann::json& j, const RanksResult& r);
void to_json(nlohmann::json& j, const TopResult& r);
void to_json(nlohmann::json& j, const PageResult& r);
void to_json(nlohmann::json& j, const BacklinksResult& r);
void to_json(nlohmann::json& j, const LinksResult& r);
void to_json(nlohmann::json& j, const StatusResult& r);
void to_json(nlohmann::json& j, const HistoryResult& r);
// {"url", "title", "links": [{"href", "target", "page"}]}: not the stored copy itself.
void to_json(nlohmann::json& j, const ProxyResult& r);
void to_json(nlohmann::json& j, const CompareRanksResult& r);
// The vector's record (docs/format.md) and "stored"; a batch: {"vectors": [...], "seconds"}.
void to_json(nlohmann::json& j, const RankedVector& v);
void to_json(nlohmann::json& j, const RankReport& r);
void to_json(nlohmann::json& j, const HitsReport& r);
// With an assignment, one summary per topic; without, the names of the topics stored.
void to_json(nlohmann::json& j, const TopicsReport& r);
void to_json(nlohmann::json& j, const PprReport& r);
void to_json(nlohmann::json& j, const CompareReport& r);
void to_json(nlohmann::json& j, const TrustReport& r);
void to_json(nlohmann::json& j, const SeedsReport& r);
void to_json(nlohmann::json& j, const SpamReportResult& r);
void to_json(nlohmann::json& j, const PlantResult& r);
void to_json(nlohmann::json& j, const SearchReport& r);
// The report; "outcomes" (every query's positions) only with per_query.
void to_json(nlohmann::json& j, const EvalResult& r);
void to_json(nlohmann::json& j, const IndexResult& r);
void to_json(nlohmann::json& j, const ExplainResult& r);
void to_json(nlohmann::json& j, const UsageResult& r);
void to_json(nlohmann::json& j, const CrawlOrderResult& r);
void to_json(nlohmann::json& j, const HostsResult& r);
void to_json(nlohmann::json& j, const CentralityResult& r);
// The charts' data, and "page" (where the page asked for stands; null without one).
void to_json(nlohmann::json& j, const ReportResult& r);
void to_json(nlohmann::json& j, const BuildResult& r);
// A crawl's report, or a recrawl's.
void to_json(nlohmann::json& j, const CrawlResult& r);
void to_json(nlohmann::json& j, const GenerateResult& r);
void to_json(nlohmann::json& j, const UpdateResult& r);
void to_json(nlohmann::json& j, const ExportResult& r);
void to_json(nlohmann::json& j, const PartitionResult& r);

// Progress of any kind, as its struct's form.
// (A function of its own: a std::variant of library structs is not found by argument-dependent
// lookup in this namespace.)
nlohmann::json progress_json(const Progress& p);

// The declarations themselves: an option ({"name", "type", "help", "default", "choices",
// "range", "position", "required", "aliases", "flag", "short", "value_name", "unit",
// "http_name", "excludes", "fronts": ["cli", "python", "http"], "served_range",
// "served_values"}) and an operation ({"name", "group", "summary", "database", "writes",
// "served", "verifies", "cost": "bounded"|"web"|"solve", "options": [...]}, the run options
// appended). What the Python module makes its methods from and docs/cli.md is generated from.
void to_json(nlohmann::json& j, const OptionSpec& s);
void to_json(nlohmann::json& j, const Operation& op);

}  // namespace webrank::app
