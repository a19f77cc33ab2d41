// The JSON form of every report the library produces, for front ends that print, serve or
// return JSON (`--json` flags, JSON progress lines, a server's API). One form per struct, written
// with nlohmann-json: `nlohmann::json j = report;` (found by argument-dependent lookup).
// Doubles are written as JSON numbers (non-finite ones as null); rank vectors are never included.
#pragma once

// One header per layer (each implemented by the layer's src/LAYER/NAME_json.cpp, which includes
// only its own); this one gathers them.
#include "webrank/build_json.hpp"
#include "webrank/crawl_json.hpp"
#include "webrank/dist_json.hpp"
#include "webrank/json_text.hpp"
#include "webrank/rank_json.hpp"
#include "webrank/report_json.hpp"
#include "webrank/search_json.hpp"
#include "webrank/spam_json.hpp"
#include "webrank/store_json.hpp"
#include "webrank/studies_json.hpp"
#include "webrank/update_json.hpp"
