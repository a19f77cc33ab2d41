// Building a link database from edge lists (`webrank build`). Input format: one link per line,
// `SOURCE<TAB>TARGET[<TAB>WEIGHT]`, or blank-separated fields when the line has no tab; a line
// with one field declares a page; `#`/`%` lines are comments (but a line opening with a
// percent-encoded label, `%` and two hex digits, is data). Gzip and zstd inputs are detected
// by their magic bytes; "-" is standard input. Page ids follow first appearance.
//
// The database is written into a temporary sibling directory and renamed into place only when
// complete, so a failed or interrupted build leaves nothing behind and never damages an existing
// database (which is replaced only with `force`).
//
// Links that would not fit in `memory_budget` are sorted in runs written to that temporary
// directory and merged from there (an external sort), so webs larger than memory build too; the
// database is the same byte for byte.
#pragma once

#include "webrank/writer/database_writer.hpp"

namespace webrank {

// Reads options.inputs (in options.format) into the writer. Throws Error: kInvalidArgument for a
// bad option, kInvalidInput naming the file and line of bad input, kExists, kIo, kCancelled on a
// stop request; nothing is left behind then.
BuildReport build_database(const BuildOptions& options);

}  // namespace webrank
