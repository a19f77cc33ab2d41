#include "webrank/ingest/page_weights_file.hpp"

#include <unordered_map>

#include "ingest/edge_list_reader.hpp"
#include "util/input_stream.hpp"
#include "webrank/util/error.hpp"

namespace webrank {

PageWeights read_page_weights(const Database& db, const std::string& path, UnknownLabels* unknown) {
  std::unordered_map<std::string, std::size_t> unknown_at;  // label -> its place in `unknown`
  auto in = open_input(path);
  LineReader reader(*in);
  PageWeights weights;
  std::string_view line;
  std::string_view f[2];
  double sum = 0;
  while (reader.next(line)) {
    int empty = 0;
    int n = split_fields(line, f, 2, &empty);
    if (n == 0) continue;
    const std::string where = cat(reader.name(), ":", reader.line_number());
    if (n != 2) {
      fail(ErrorKind::kInvalidInput, where, ": ", n < 0 ? "an empty field" : cat(n, " fields"),
           ", expected LABEL<TAB>WEIGHT");
    }
    auto id = db.find(f[0]);
    if (!id && !unknown)
      fail(ErrorKind::kInvalidInput, where, ": page '", f[0], "' is not in the database ",
           db.path().string());
    const double w = parse_weight(f[1], where);
    if (!id) {
      ++unknown->lines;
      unknown->weight += w;
      const auto [at, added] = unknown_at.emplace(std::string(f[0]), unknown->labels.size());
      if (added) unknown->labels.push_back({std::string(f[0]), 0, reader.line_number()});
      unknown->labels[at->second].weight += w;
      continue;
    }
    sum += w;
    weights.emplace_back(*id, w);
  }
  if (weights.empty() && unknown && unknown->lines > 0)
    fail(ErrorKind::kInvalidInput, reader.name(), ": none of its ", unknown->lines,
         " lines names a page of the database ", db.path().string(), " (the first: '",
         unknown->labels.front().label, "', line ", unknown->labels.front().line, ")");
  if (weights.empty())
    fail(ErrorKind::kInvalidInput, reader.name(), ": no LABEL<TAB>WEIGHT lines found");
  if (!(sum > 0))
    fail(ErrorKind::kInvalidInput, reader.name(),
         ": all weights are zero; at least one page needs a positive weight");
  return weights;
}

}  // namespace webrank
