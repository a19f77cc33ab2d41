// Reading vertex files + arc files of numbered vertices (contract in numbered_graph.hpp).
#include "ingest/formats/numbered_graph.hpp"

#include <algorithm>
#include <numeric>

#include "ingest/formats/numbers.hpp"

namespace webrank {
namespace {

// Vertex labels in file order, and the id -> vertex lookup.
class VertexTable {
 public:
  void add(std::uint64_t id, std::string_view label) {
    if (dense_ && id != count()) {
      dense_ = false;
      ids_.resize(count());
      std::iota(ids_.begin(), ids_.end(), std::uint64_t{0});
    }
    if (!dense_) ids_.push_back(id);
    bytes_.append(label);
    offsets_.push_back(bytes_.size());
  }

  // Sorts the ids of a non-dense numbering; returns a repeated id through *dup, if any.
  bool finish(std::uint64_t* dup) {
    if (dense_) return true;
    order_.resize(count());
    std::iota(order_.begin(), order_.end(), std::uint64_t{0});
    std::sort(order_.begin(), order_.end(),
              [&](std::uint64_t a, std::uint64_t b) { return ids_[a] < ids_[b]; });
    sorted_.resize(count());
    for (std::size_t i = 0; i < order_.size(); ++i) sorted_[i] = ids_[order_[i]];
    for (std::size_t i = 1; i < sorted_.size(); ++i) {
      if (sorted_[i] == sorted_[i - 1]) {
        *dup = sorted_[i];
        return false;
      }
    }
    ids_.clear();
    ids_.shrink_to_fit();
    return true;
  }

  // The label of vertex `id`; false if there is none.
  bool find(std::uint64_t id, std::string_view* label) const {
    std::uint64_t v;
    if (dense_) {
      if (id >= count()) return false;
      v = id;
    } else {
      auto it = std::lower_bound(sorted_.begin(), sorted_.end(), id);
      if (it == sorted_.end() || *it != id) return false;
      v = order_[static_cast<std::size_t>(it - sorted_.begin())];
    }
    *label = std::string_view(bytes_).substr(offsets_[v], offsets_[v + 1] - offsets_[v]);
    return true;
  }

  std::uint64_t count() const { return offsets_.size() - 1; }

 private:
  bool dense_ = true;
  std::string bytes_;
  std::vector<std::uint64_t> offsets_{0};
  std::vector<std::uint64_t> ids_, order_, sorted_;
};

std::string list(const std::vector<std::string>& files) {
  std::string out;
  for (const auto& f : files) out += (out.empty() ? "" : ", ") + f;
  return out;
}

// Reads the vertex files again for the lines of the repeated id (an error is rare, and keeping
// every vertex's line number would cost 8 bytes per vertex) and throws the error naming both.
[[noreturn]] void fail_repeated_id(const NumberedGraphSpec& spec, std::uint64_t id) {
  std::string first;
  std::string_view f[8];
  for (const auto& file : spec.vertex_files) {
    auto in = open_input(file);
    LineReader reader(*in);
    std::string_view line;
    while (reader.next(line)) {
      int empty = 0;
      const int n = split_fields(line, f, 8, &empty);
      if (n <= spec.id_field) continue;
      auto where = [&] { return cat(reader.name(), ":", reader.line_number()); };
      if (parse_natural(f[spec.id_field], where, "vertex id") != id) continue;
      if (first.empty()) {
        first = where();
        continue;
      }
      fail(ErrorKind::kInvalidInput, where(), ": vertex id ", id, " appears twice (first at ",
           first, "): each id names one vertex");
    }
  }
  fail(ErrorKind::kInvalidInput, list(spec.vertex_files), ": vertex id ", id, " appears twice");
}

}  // namespace

std::uint64_t read_numbered_graph(const NumberedGraphSpec& spec, bool weighted, RecordSink& sink,
                                  const OnBytes& on_bytes) {
  VertexTable vertices;
  std::uint64_t lines = 0, done_before = 0;
  std::uint64_t next_report = 16 << 20;
  auto report = [&](const LineReader& r, bool force) {
    if (!on_bytes) return;
    if (force || done_before + r.file_position() >= next_report) {
      on_bytes(done_before + r.file_position());
      next_report = done_before + r.file_position() + (16 << 20);
    }
  };
  std::string label;
  std::string_view f[8];
  const int max_fields = std::max(spec.max_fields, std::max(spec.id_field, spec.name_field) + 1);

  for (const auto& file : spec.vertex_files) {
    auto in = open_input(file);
    LineReader reader(*in);
    std::string_view line;
    while (reader.next(line)) {
      int empty = 0;
      const int n = split_fields(line, f, 8, &empty);
      if (n == 0) continue;
      auto where = [&] { return cat(reader.name(), ":", reader.line_number()); };
      if (n < 0)
        fail(ErrorKind::kInvalidInput, where(), ": field ", empty, " is empty: expected ",
             spec.vertex_form);
      if (n < 2 || n > max_fields) {
        fail(ErrorKind::kInvalidInput, where(), ": ", n, " fields, expected ", spec.vertex_form);
      }
      const std::uint64_t id = parse_natural(f[spec.id_field], where, "vertex id");
      label.clear();
      spec.to_label(f[spec.name_field], label);
      if (label.empty())
        fail(ErrorKind::kInvalidInput, where(), ": empty vertex name: expected ", spec.vertex_form);
      vertices.add(id, label);
      sink.page(label);
      report(reader, false);
    }
    lines += reader.line_number();
    done_before += reader.file_position();
  }
  if (vertices.count() == 0) {
    fail(ErrorKind::kInvalidInput, list(spec.vertex_files), ": no vertices: expected ",
         spec.vertex_form, " lines");
  }
  std::uint64_t dup = 0;
  if (!vertices.finish(&dup)) fail_repeated_id(spec, dup);

  for (const auto& file : spec.arc_files) {
    auto in = open_input(file);
    LineReader reader(*in);
    std::string_view line;
    while (reader.next(line)) {
      int empty = 0;
      const int n = split_fields(line, f, 4, &empty);
      if (n == 0) continue;
      auto where = [&] { return cat(reader.name(), ":", reader.line_number()); };
      if (n < 0)
        fail(ErrorKind::kInvalidInput, where(), ": field ", empty,
             " is empty: expected FROM<TAB>TO");
      double w = 1.0;
      if (n == 3 && weighted) {
        w = parse_link_weight(f[2], where);
      } else if (n == 3) {
        fail(ErrorKind::kInvalidInput, where(),
             ": 3 fields, expected FROM TO (pass --weighted to read the third field as "
             "a link weight)");
      } else if (n != 2) {
        fail(ErrorKind::kInvalidInput, where(), ": ", n, " fields, expected FROM TO",
             weighted ? " [WEIGHT]" : "");
      }
      std::string_view from, to;
      const std::uint64_t a = parse_natural(f[0], where, "source id");
      const std::uint64_t b = parse_natural(f[1], where, "target id");
      if (!vertices.find(a, &from)) {
        fail(ErrorKind::kInvalidInput, where(), ": source id ", a, " is not a vertex of ",
             list(spec.vertex_files));
      }
      if (!vertices.find(b, &to)) {
        fail(ErrorKind::kInvalidInput, where(), ": target id ", b, " is not a vertex of ",
             list(spec.vertex_files));
      }
      sink.link(from, to, w);
      report(reader, false);
    }
    lines += reader.line_number();
    done_before += reader.file_position();
  }
  if (on_bytes) on_bytes(done_before);
  return lines;
}

}  // namespace webrank
