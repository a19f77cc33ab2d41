// The JSON form of every report the library produces, for front ends that print, serve or
// return JSON (`--json` flags, JSON progress lines, a server's API). One form per struct, written
// with nlohmann-json: `nlohmann::json j = report;` (found by argument-dependent lookup).
// Doubles are written as JSON numbers (non-finite ones as null); rank vectors are never included.
#pragma once

// One header per layer, implemented by the file of the same name in the layer's folder
// (src/store/store_json.cpp), so that a layer's JSON code sees only its own structs and those of
// the layers below it; front ends include this one, which gathers them.
#include "webrank/crawl/crawl_json.hpp"
#include "webrank/ingest/ingest_json.hpp"
#include "webrank/mpi/mpi_json.hpp"
#include "webrank/rank/rank_json.hpp"
#include "webrank/report/report_json.hpp"
#include "webrank/search/search_json.hpp"
#include "webrank/spam/spam_json.hpp"
#include "webrank/store/store_json.hpp"
#include "webrank/studies/studies_json.hpp"
#include "webrank/util/json_text.hpp"
#include "webrank/writer/writer_json.hpp"
