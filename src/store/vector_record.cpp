// The record of a stored vector and its JSON form, read and written here, through one list of
// its fields (webrank/store/vector_record.hpp, docs/format.md "Rank vectors").
#include "webrank/store/vector_record.hpp"

#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <type_traits>

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

json stored_weights_json(const StoredWeights& w) {
  return {{"pages", w.pages}, {"weights", w.weights}};
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

namespace {

// Writes a record's fields: always, or when they hold something (a value, a non-empty string or
// list, a number other than 0).
class Writer {
 public:
  explicit Writer(json& j) : j_(j) {}
  template <typename T>
  void always(const char* key, const T& value) {
    j_[key] = value;
  }
  template <typename T>
  void since_v2(const char* key, const T& value) {
    j_[key] = value;
  }
  template <typename T>
  void optional(const char* key, const T& value) {
    if (held(value)) j_[key] = value;
  }
  template <typename T>
  void optional(const char* key, const std::optional<T>& value) {
    if (value) j_[key] = *value;
  }
  void optional(const char* key, double value) {
    if (std::isfinite(value) && value != 0) j_[key] = value;
  }
  // A number that is only ever absent, never 0 (a change, a bound): written when finite.
  void finite(const char* key, double value) {
    if (std::isfinite(value)) j_[key] = value;
  }

 private:
  template <typename T>
  static bool held(const T& value) {
    if constexpr (std::is_arithmetic_v<T>) {
      return value != T{};
    } else {
      return !value.empty();
    }
  }
  json& j_;
};

// Reads them back, strictly (Fields): fields every schema has, fields of schema 2 on (optional
// in schema 1, whose defaults are the struct's), fields that may be absent. A group's reader
// (`group`) takes every field as optional: the group is there or not.
class Reader {
 public:
  enum Kind { kSchema1, kSchema2On, kGroup };
  Reader(Fields& f, Kind kind) : f_(f), kind_(kind) {}
  template <typename T>
  void always(const char* key, T& into) {
    if (kind_ == kGroup) {
      f_.optional(key, into);
    } else {
      f_.required(key, into);
    }
  }
  template <typename T>
  void since_v2(const char* key, T& into) {
    if (kind_ == kSchema2On) {
      f_.required(key, into);
    } else {
      f_.optional(key, into);
    }
  }
  template <typename T>
  void optional(const char* key, std::optional<T>& into) {
    into = f_.optional<T>(key);
  }
  template <typename T>
  void optional(const char* key, T& into) {
    f_.optional(key, into);
  }
  void finite(const char* key, double& into) { f_.optional(key, into); }

 private:
  Fields& f_;
  Kind kind_;
};

// The fields of a record that are plain values, in one list both directions go through (`io`
// a Writer over a const record or a Reader over one being filled). What needs more (the schema
// and the identity schema 1 derived, precision, the formulation group, phases, nested notes,
// weights) is read and written beside it, below.
template <typename IO, typename Record>
void plain_fields(IO& io, Record& r) {
  io.always("name", r.name);
  io.always("xxh3", r.xxh3);
  io.optional("solved_by", r.solved_by);
  io.since_v2("pages", r.pages);
  // The formulation.
  io.optional("damping", r.damping);
  io.optional("tol", r.tol);
  io.optional("max_iter", r.max_iter);
  // What came of it: the Convergence part, then the sum.
  io.since_v2("iterations", r.iterations);
  io.since_v2("deltas", r.deltas);
  io.since_v2("converged", r.converged);
  io.since_v2("stalled", r.stalled);
  io.finite("final_delta", r.final_delta);
  io.finite("error_bound", r.error_bound);
  io.optional("finishing_iterations", r.finishing_iterations);
  io.since_v2("seconds", r.seconds);
  io.since_v2("normalized", r.normalized);
  io.optional("sum", r.sum);
  io.since_v2("created", r.created);
  // How the solver went.
  io.optional("sweep", r.sweep);
  io.optional("sweep_note", r.sweep_note);
  io.optional("block_pages", r.block_pages);
  io.optional("blocked_from_iteration", r.blocked_from_iteration);
  io.optional("streamed_blocks", r.streamed_blocks);
  io.optional("stream_block_bytes", r.stream_block_bytes);
  io.optional("components", r.components);
  io.optional("largest_component_pages", r.largest_component_pages);
  io.optional("batch_size", r.batch_size);
  io.optional("choice", r.choice);
  io.optional("bytes_sent_per_iteration", r.bytes_sent_per_iteration);
  io.optional("removal_rounds", r.removal_rounds);
  io.optional("removed_pages", r.removed_pages);
  io.optional("log2m", r.log2m);
  io.optional("reachable_pairs", r.reachable_pairs);
}

// The formulation's group: written for PageRank-like vectors (or any that names a dangling
// treatment), read when there.
template <typename IO, typename Record>
void formulation_fields(IO& io, Record& r) {
  io.always("dangling", r.dangling);
  io.always("personalized", r.personalized);
  io.always("source_pages", r.source_pages);
  io.always("custom_start", r.custom_start);
}

// Fields that come as a group, written together when the first is there.
template <typename IO, typename Record>
void push_fields(IO& io, Record& r) {  // ppr's forward push
  io.always("pushes", r.pushes);
  io.always("sweeps", r.push_sweeps);
}
template <typename IO, typename Record>
void spam_mass_fields(IO& io, Record& r) {
  io.always("seed_pages", r.seed_pages);
}

}  // namespace

void to_json(json& j, const VectorRecord& r) {
  j = json::object();
  Writer w(j);
  j["schema"] = kVectorSchema;
  j["generation"] = r.generation;
  j["algorithm"] = r.algorithm;
  j["kind"] = r.kind;
  j["method"] = r.method;
  j["precision"] = to_string(r.precision);
  plain_fields(w, r);
  if (!r.dangling.empty() || pagerank_like(r.algorithm)) formulation_fields(w, r);
  if (r.source_weights) j["source_weights"] = stored_weights_json(*r.source_weights);
  if (r.dangling_weights) j["dangling_weights"] = stored_weights_json(*r.dangling_weights);
  if (!r.phase_seconds.empty()) {
    json phases = json::object();
    for (const auto& [phase, seconds] : r.phase_seconds) phases[phase] = seconds;
    j["phase_seconds"] = phases;
  }
  if (r.warm_start) {
    const auto known = [](const std::optional<int>& x) { return x ? json(*x) : json(); };
    j["warm_start"] = {{"from", r.warm_start->from},
                       {"pages_from_vector", r.warm_start->pages_from_vector},
                       {"cold_iterations", known(r.warm_start->cold_iterations)},
                       {"iterations_saved", known(r.warm_start->iterations_saved)}};
  }
  // For people reading the file: the processes the bytes were sent by.
  if (!r.bytes_sent_per_iteration.empty()) j["processes"] = r.bytes_sent_per_iteration.size();
  if (r.eps) {
    j["eps"] = *r.eps;
    push_fields(w, r);
  }
  if (r.good_fraction) {
    j["good_fraction"] = *r.good_fraction;
    spam_mass_fields(w, r);
  }
  if (r.stale) {
    j["stale"] = {{"reason", r.stale->reason},
                  {"pages_added", r.stale->pages_added},
                  {"pages_removed", r.stale->pages_removed},
                  {"links_added", r.stale->links_added},
                  {"links_removed", r.stale->links_removed}};
  }
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
  std::string precision;
  f.required("precision", precision);
  if (!precision.empty() && precision != "float" && precision != "double") {
    fail(ErrorKind::kCorrupt, where, ": field \"precision\" must be \"float\" or \"double\"");
  }
  r.precision = precision == "float" ? Precision::kFloat : Precision::kDouble;
  Reader io(f, v1 ? Reader::kSchema1 : Reader::kSchema2On);
  plain_fields(io, r);
  Reader optional(f, Reader::kGroup);
  formulation_fields(optional, r);
  if (!v1 && pagerank_like(r.algorithm)) {
    for (const char* key : {"damping", "tol", "dangling"}) {
      if (!f.has(key)) f.missing(key);
    }
  }
  r.source_weights = read_weights(f, "source_weights", where);
  r.dangling_weights = read_weights(f, "dangling_weights", where);
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
  f.ignore("processes");  // the size of bytes_sent_per_iteration, for people reading the file
  r.eps = f.optional<double>("eps");
  push_fields(optional, r);
  r.good_fraction = f.optional<double>("good_fraction");
  spam_mass_fields(optional, r);
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
