// Making and changing databases: build and import (from files), crawl (and recrawl), generate
// (synthetic webs), update (a new version from changes), export (back as text), partition
// (parts for rank-mpi). Options declared once in src/app/making.cpp; results with their JSON form
// in webrank/app/app_json.hpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "webrank/algo/generate.hpp"
#include "webrank/app/operation.hpp"
#include "webrank/crawl/crawl.hpp"
#include "webrank/ingest/build.hpp"
#include "webrank/ingest/export.hpp"
#include "webrank/ingest/update.hpp"
#include "webrank/mpi/distributed.hpp"
#include "webrank/search/search.hpp"
#include "webrank/search/text_web.hpp"

namespace webrank::app {

// `build` (edge lists; other formats when their path says so) and `import` (any format; one
// whose path does not reveal it is refused unless `format` names it). A web with page data (a
// crawl) is indexed after it is built, unless no_index.
struct BuildRequest {
  BuildOptions build;  // inputs, format, pages, labels, weighted, order, budget, force
  std::string output;
  bool no_index = false;
};
struct BuildResult : ResultBase {
  BuildReport report;
  std::string formats;  // of the inputs, as read
  bool imported = false;
};
BuildResult build(Session* session, const BuildRequest& request, const Run& run);
BuildResult import(Session* session, const BuildRequest& request, const Run& run);

// `crawl`: from seeds into a new database (the journal in OUTPUT.crawl/), or with `recrawl` the
// pages of a crawled database fetched again with conditional requests and the changes folded in.
struct CrawlRequest {
  CrawlOptions crawl;
  std::string output;
  std::string recrawl;
  bool ignore_robots = false, no_index = false, no_verify = false;
};
struct CrawlResult : ResultBase {
  CrawlReport crawl;      // a crawl
  RecrawlReport recrawl;  // or a recrawl
  bool is_recrawl = false;
  std::string database;
};
CrawlResult crawl(Session* session, const CrawlRequest& request, const Run& run);

// `generate`: a synthetic web as an edge list, or with `text` as a WARC file of HTML pages.
struct GenerateRequest {
  GenerateOptions generate;
  bool text = false;
};
struct GenerateResult : ResultBase {
  GenerateReport graph;
  TextWebReport text;
  bool is_text = false;
  std::string output;
};
GenerateResult generate(Session* session, const GenerateRequest& request, const Run& run);

// `update`: a new version of the database from edge lists of links and pages to remove and to
// add, put in place atomically; stored vectors carried over, stale; the search index, if the
// database has one, rebuilt in the new version before it is published (unless no_index).
struct UpdateRequest {
  UpdateOptions update;  // add, remove
  bool no_index = false;
};
struct UpdateResult : ResultBase {
  UpdateReport report;
  std::optional<IndexReport> index;  // the new version's index, when one was built
};
UpdateResult update(Session* session, const UpdateRequest& request, const Run& run);

// `export`: the links (an edge list, GML, GraphML) or the page table as text, to a file or to
// standard output ("-").
struct ExportRequest {
  bool links = false, pages = false, ids = false, weighted = false;
  ExportFormat format = ExportFormat::kEdges;
  std::vector<std::string> ranks;
  std::string output = "-";
};
struct ExportResult : ResultBase {
  std::string output;
};
ExportResult export_text(Session* session, const ExportRequest& request, const Run& run);

// `partition`: the database cut into parts balanced by links, one per process of rank-mpi.
struct PartitionRequest {
  PartitionOptions partition;  // parts, force
  std::string output;
};
struct PartitionResult : ResultBase {
  PartitionReport report;
  std::string database, output;
};
PartitionResult partition(Session* session, const PartitionRequest& request, const Run& run);

}  // namespace webrank::app
