#include "graph/input_formats.hpp"

#include "webrank/error.hpp"

namespace webrank {

const std::vector<InputFormat>& input_formats() {
  static const std::vector<InputFormat> formats{
      {"edges", "edge list: SOURCE<TAB>TARGET[<TAB>WEIGHT] per line (gz/zst/stdin)",
       read_edge_list},
  };
  return formats;
}

const InputFormat& find_input_format(const std::string& name, const std::string& path) {
  const auto& all = input_formats();
  if (name == "auto") {
    (void)path;  // formats that can be recognised from the path are matched here
    return all.front();
  }
  for (const auto& f : all) {
    if (f.name == name) return f;
  }
  std::string known;
  for (const auto& f : all) known += (known.empty() ? "" : ", ") + f.name;
  fail("unknown input format '", name, "' (known: ", known, ")");
}

}  // namespace webrank
