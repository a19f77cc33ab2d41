// The crawl's transfer loop (crawler.cpp), shared by `crawl_web` and `recrawl_web`
// (recrawl.cpp): frontier, robots.txt, politeness, libcurl's transfers, and the page pipeline that
// journals what is fetched and hands each page record to a sink in journal order.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <unordered_map>
#include <vector>

#include "webrank/crawl/crawl.hpp"
#include "writer/record_sink.hpp"

namespace webrank::crawl {

// What turns a crawl into a recrawl: the URLs to fetch first, and the request fields of their
// conditional requests.
struct RecrawlPlan {
  // The database's pages, offered to the frontier at depth 0 before anything else (the
  // frontier applies the scope, robots.txt and the trap rules to them as to any URL).
  std::vector<std::string> known;
  // "If-None-Match: ..." / "If-Modified-Since: ..." lines by URL (pages without validators:
  // none, an unconditional request).
  std::unordered_map<std::string, std::vector<std::string>> conditions;
  std::filesystem::path journal;  // the journal file to create (its directory may be missing)
};

// Fills what `o` lacks (seeds; prefixes and hosts if both are empty) from the first run's
// settings in o.output's journal (DB.crawl/crawl.json), if there are any.
void load_settings(CrawlOptions& o);

// Runs the fetching of a crawl (webrank/crawl/crawl.hpp's contract) into `sink`; `journaled`
// receives the number of records journaled in all. With a plan the journal is the plan's (its
// directory created if missing), nothing is read back, and the plan's URLs replace the seeds.
// Throws what crawl_web throws.
CrawlReport run_crawler(const CrawlOptions& o, RecordSink& sink, const RecrawlPlan* plan,
                        std::uint64_t& journaled);

}  // namespace webrank::crawl
