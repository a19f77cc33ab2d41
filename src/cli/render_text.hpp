// Small helpers of the text renderers (render_*.cpp): reading the JSON form they render.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace webrank::cli {

// The text j[key] holds, as raw bytes when they were not UTF-8 (set_text's "_hex" twin); "" when
// absent or not a string.
std::string str(const nlohmann::json& j, const char* key);

// "power: 35 iterations, final L1 change 9.3e-11 (error bound 5.3e-10), 0.001 s; stored as
// 'pagerank' in web.db" for one vector's JSON form (webrank/app/ranking.hpp), `note` added.
std::string rank_summary_line(const nlohmann::json& vector, const std::string& db,
                              const std::string& note);

}  // namespace webrank::cli
