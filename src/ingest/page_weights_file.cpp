#include "webrank/ingest/page_weights_file.hpp"

#include "ingest/edge_list_reader.hpp"
#include "util/input_stream.hpp"
#include "webrank/util/error.hpp"

namespace webrank {

PageWeights read_page_weights(const Database& db, const std::string& path) {
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
    if (!id)
      fail(ErrorKind::kInvalidInput, where, ": page '", f[0], "' is not in the database ",
           db.path().string());
    const double w = parse_weight(f[1], where);
    sum += w;
    weights.emplace_back(*id, w);
  }
  if (weights.empty())
    fail(ErrorKind::kInvalidInput, reader.name(), ": no LABEL<TAB>WEIGHT lines found");
  if (!(sum > 0))
    fail(ErrorKind::kInvalidInput, reader.name(),
         ": all weights are zero; at least one page needs a positive weight");
  return weights;
}

}  // namespace webrank
