// Keyword values naming an enum of the library ("gauss-seidel", "title", "url"), by the names
// the library's to_string() gives them: the one parser of every such option.
#pragma once

#include <string>

#include "webrank/util/error.hpp"

namespace webrank::python {

// The value of `values` whose to_string() is `value`; else Error(kInvalidArgument) about
// option `field`, listing the names.
template <typename Enum, std::size_t N>
Enum parse_enum(const std::string& field, const std::string& value, const Enum (&values)[N]) {
  std::string names;
  for (Enum v : values) {
    if (value == to_string(v)) return v;
    names += std::string(names.empty() ? "" : ", ") + "'" + to_string(v) + "'";
  }
  fail_option(field, "must be one of ", names, ", got '", value, "'");
}

}  // namespace webrank::python
