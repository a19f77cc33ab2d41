// JSON text for every layer: invalid UTF-8 made safe, and the JSON form of an error.
// One of the per-layer JSON headers that webrank/json.hpp gathers (why, and conventions, there).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "webrank/util/error.hpp"

namespace webrank {

// Text from inputs and from the web (labels, titles, URLs, snippets) is bytes, not always UTF-8,
// and JSON strings must be UTF-8. set_text() writes j[key] = text when it is valid UTF-8;
// otherwise every byte that is not part of a valid UTF-8 sequence is written as U+FFFD and the
// raw bytes are given beside it as lowercase hex in j[key + "_hex"]. Never throws.
void set_text(nlohmann::json& j, const std::string& key, std::string_view text);
// The whole value as JSON text (dump(indent)), with any invalid UTF-8 left in a string replaced by
// U+FFFD instead of throwing: what every front end prints.
std::string json_text(const nlohmann::json& j, int indent = 2);

// {"kind", "message", "field" (when about an option)}.
void to_json(nlohmann::json& j, const Error& e);

}  // namespace webrank
