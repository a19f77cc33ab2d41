// Writing a link database from records (docs/format.md): labels interned in first-appearance
// order, links sorted into forward and backward CSR in memory or, past the memory budget, in runs
// on disk merged at the end (external_csr.hpp), page data of crawls, the manifest.
//
// The database is written into a temporary sibling directory and renamed into place only when
// complete, so a failed or interrupted build leaves nothing behind and never damages an existing
// database (replaced only with `force`).
#pragma once

#include <cstdint>
#include <functional>

#include "webrank/writer/database_writer.hpp"
#include "writer/record_sink.hpp"

namespace webrank {

// Feeds every record of the inputs to `sink`, keeping `progress` (bytes read, stage) current and
// calling report_progress() now and then; returns the number of lines (or records) read.
using RecordFeeder = std::function<std::uint64_t(RecordSink& sink, BuildProgress& progress)>;

// Calls options.on_progress, then throws Error(kCancelled) if options.stop was requested. Feeders
// call it as they read; never from inside a parallel region.
void report_progress(const BuildOptions& options, const BuildProgress& progress);

// Builds the database `options.output` from what `feed` delivers. Uses options.output, weighted,
// order, force, memory_budget, on_progress and stop (inputs and format belong to the feeder).
// Throws Error; the temporary directory is removed on any failure.
BuildReport write_database(const BuildOptions& options, const RecordFeeder& feed);

}  // namespace webrank
