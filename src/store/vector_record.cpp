// The record of a stored vector and its JSON form (webrank/store/vector_record.hpp,
// docs/format.md "Rank vectors").
#include "webrank/store/vector_record.hpp"

#include <nlohmann/json.hpp>
#include <set>

#include "webrank/store/store_json.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

using nlohmann::json;

// Reads the fields of one JSON object by name, remembering which it read, so that whatever is
// left at the end is a field the schema does not have.
class Fields {
 public:
  Fields(const json& object, const std::string& where) : j_(object), where_(where) {}

  bool has(const char* key) const { return j_.contains(key) && !j_[key].is_null(); }

  template <typename T>
  std::optional<T> optional(const char* key) {
    seen_.insert(key);
    if (!has(key)) return std::nullopt;
    try {
      return j_[key].get<T>();
    } catch (const json::exception&) {
      fail(ErrorKind::kCorrupt, where_, ": field \"", key, "\" has the wrong type (",
           j_[key].type_name(), ")");
    }
  }

  template <typename T>
  void optional(const char* key, T& into) {
    if (auto v = optional<T>(key)) into = std::move(*v);
  }

  // A missing field is reported by finish(), after unknown ones: a misspelt field is then named
  // as what it is rather than as the field it was meant to be.
  template <typename T>
  void required(const char* key, T& into) {
    auto v = optional<T>(key);
    if (!v) {
      missing(key);
    } else {
      into = std::move(*v);
    }
  }

  void missing(const char* key) {
    if (missing_.empty()) missing_ = key;
  }

  // Fields of schema 1 that schema 2 reads as another field: read, not reported as unknown.
  void ignore(const char* key) { seen_.insert(key); }

  void finish() const {
    for (const auto& [key, value] : j_.items()) {
      if (!seen_.contains(key)) {
        fail(ErrorKind::kCorrupt, where_, ": unknown field \"", key, "\" (schema ", kVectorSchema,
             ", docs/format.md)");
      }
    }
    if (!missing_.empty())
      fail(ErrorKind::kCorrupt, where_, ": field \"", missing_, "\" is missing");
  }

 private:
  const json& j_;
  std::string where_;
  std::set<std::string> seen_;
  std::string missing_;
};

std::optional<StoredWeights> read_weights(Fields& f, const char* key, const std::string& where) {
  auto j = f.optional<json>(key);
  if (!j) return std::nullopt;
  Fields inner(*j, where + " (\"" + key + "\")");
  StoredWeights w;
  inner.required("pages", w.pages);
  inner.required("weights", w.weights);
  inner.finish();
  if (w.pages.size() != w.weights.size()) {
    fail(ErrorKind::kCorrupt, where, ": field \"", key, "\" has ", w.pages.size(), " pages and ",
         w.weights.size(), " weights");
  }
  return w;
}

bool pagerank_like(const std::string& algorithm) {
  return algorithm == "pagerank" || algorithm == "spam-mass";
}

}  // namespace

std::span<const Named<Precision>> names(Precision) {
  static constexpr Named<Precision> kNames[] = {{Precision::kDouble, "double"},
                                                {Precision::kFloat, "float"}};
  return kNames;
}

const char* to_string(Precision p) {
  return name_in(names(p), p);
}

std::optional<StoredWeights> stored_weights(const PageWeights& weights) {
  if (weights.size() > kStoredWeightsMax) return std::nullopt;
  StoredWeights w;
  for (const auto& [page, weight] : weights) {
    w.pages.push_back(page);
    w.weights.push_back(weight);
  }
  return w;
}

VectorRecord read_vector_record(std::string_view text, const std::string& where) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    fail(ErrorKind::kCorrupt, where, ": byte ", e.byte, ": damaged (not valid JSON)");
  }
  if (!j.is_object()) fail(ErrorKind::kCorrupt, where, ": damaged (not a JSON object)");
  Fields f(j, where);
  VectorRecord r;
  // Schema 1 (no "schema" field): the defaults of docs/format.md, "Vectors of schema 1". Every
  // field it may lack is optional below, and the only renamed one is read here.
  const bool v1 = !f.has("schema");
  if (v1) {
    f.ignore("schema");
    r.schema = 1;
    if (f.has("derived")) {
      f.ignore("derived");
      r.algorithm = "spam-mass";
      r.kind = j["derived"].get<std::string>().starts_with("absolute") ? "absolute" : "relative";
      r.method = "derived";
    }
    f.optional("algorithm", r.algorithm);
    f.optional("kind", r.kind);
    f.optional("method", r.method);
  } else {
    f.required("schema", r.schema);
    // Schema 2 is schema 3 without "generation" (docs/format.md, "Versions").
    if (r.schema == 3) f.required("generation", r.generation);
    if (r.schema != kVectorSchema && r.schema != 2) {
      fail(ErrorKind::kCorrupt, where, ": schema ", r.schema, " is not one this webrank reads (",
           kVectorSchema, "): written by a newer version?");
    }
    f.required("algorithm", r.algorithm);
    f.required("kind", r.kind);
    f.required("method", r.method);
  }
  f.required("name", r.name);
  f.required("xxh3", r.xxh3);
  std::string precision;
  f.required("precision", precision);
  if (!precision.empty() && precision != "float" && precision != "double") {
    fail(ErrorKind::kCorrupt, where, ": field \"precision\" must be \"float\" or \"double\"");
  }
  r.precision = precision == "float" ? Precision::kFloat : Precision::kDouble;
  f.optional("solved_by", r.solved_by);
  const auto need = [&](const char* key, auto& into) {
    if (v1) {
      f.optional(key, into);
    } else {
      f.required(key, into);
    }
  };
  need("pages", r.pages);
  need("iterations", r.iterations);
  need("converged", r.converged);
  need("created", r.created);
  need("seconds", r.seconds);
  if (v1) {
    f.optional("deltas", r.deltas);
    f.optional("stalled", r.stalled);
    f.optional("normalized", r.normalized);
  } else {
    f.required("deltas", r.deltas);
    f.required("stalled", r.stalled);
    f.required("normalized", r.normalized);
  }
  r.damping = f.optional<double>("damping");
  r.tol = f.optional<double>("tol");
  r.max_iter = f.optional<int>("max_iter");
  f.optional("dangling", r.dangling);
  f.optional("personalized", r.personalized);
  f.optional("source_pages", r.source_pages);
  f.optional("custom_start", r.custom_start);
  if (!v1 && pagerank_like(r.algorithm)) {
    for (const char* key : {"damping", "tol", "dangling"}) {
      if (!f.has(key)) f.missing(key);
    }
  }
  r.source_weights = read_weights(f, "source_weights", where);
  r.dangling_weights = read_weights(f, "dangling_weights", where);
  r.final_delta = f.optional<double>("final_delta");
  r.error_bound = f.optional<double>("error_bound");
  r.sum = f.optional<double>("sum");
  f.optional("sweep", r.sweep);
  f.optional("sweep_note", r.sweep_note);
  f.optional("block_pages", r.block_pages);
  f.optional("blocked_from_iteration", r.blocked_from_iteration);
  f.optional("streamed_blocks", r.streamed_blocks);
  f.optional("stream_block_bytes", r.stream_block_bytes);
  f.optional("components", r.components);
  f.optional("largest_component_pages", r.largest_component_pages);
  f.optional("batch_size", r.batch_size);
  f.optional("finishing_iterations", r.finishing_iterations);
  f.optional("choice", r.choice);
  if (auto phases = f.optional<json>("phase_seconds")) {
    if (!phases->is_object()) {
      fail(ErrorKind::kCorrupt, where, ": field \"phase_seconds\" has the wrong type (",
           phases->type_name(), ")");
    }
    for (const auto& [phase, seconds] : phases->items()) {
      if (!seconds.is_number()) {
        fail(ErrorKind::kCorrupt, where, ": field \"phase_seconds\" has a ", seconds.type_name(),
             " for \"", phase, "\"");
      }
      r.phase_seconds.emplace_back(phase, seconds.get<double>());
    }
  }
  if (auto w = f.optional<json>("warm_start")) {
    Fields inner(*w, where + " (\"warm_start\")");
    WarmStartNote note;
    inner.required("from", note.from);
    inner.required("pages_from_vector", note.pages_from_vector);
    note.cold_iterations = inner.optional<int>("cold_iterations");
    note.iterations_saved = inner.optional<int>("iterations_saved");
    inner.finish();
    r.warm_start = std::move(note);
  }
  f.optional("bytes_sent_per_iteration", r.bytes_sent_per_iteration);
  f.ignore("processes");  // the size of bytes_sent_per_iteration, for people reading the file
  f.optional("removal_rounds", r.removal_rounds);
  f.optional("removed_pages", r.removed_pages);
  r.eps = f.optional<double>("eps");
  f.optional("pushes", r.pushes);
  f.optional("sweeps", r.push_sweeps);
  f.optional("log2m", r.log2m);
  f.optional("reachable_pairs", r.reachable_pairs);
  r.good_fraction = f.optional<double>("good_fraction");
  f.optional("seed_pages", r.seed_pages);
  if (auto s = f.optional<json>("stale")) {
    Fields inner(*s, where + " (\"stale\")");
    StaleNote note;
    inner.required("reason", note.reason);
    inner.required("pages_added", note.pages_added);
    inner.required("pages_removed", note.pages_removed);
    inner.required("links_added", note.links_added);
    inner.required("links_removed", note.links_removed);
    inner.finish();
    r.stale = std::move(note);
  }
  f.finish();
  return r;
}

std::string vector_record_text(const VectorRecord& r) {
  return nlohmann::json(r).dump(2) + "\n";
}

}  // namespace webrank
