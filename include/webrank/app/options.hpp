// One declaration per option of a use case: its name, type, default, range, unit and help, from
// which every front end makes its own form of it. The command line's `--max-iter N` and its
// --help line, the Python keyword `max_iter=` and its type stub, the server's query parameter
// `?max_iter=` and docs/cli.md all come from the one OptionSpec; the default is the one written
// in the options struct's member initializer, read from a default-constructed struct.
//
// An OptionSet<Options> binds specs to the fields of one options struct. Values reach it as JSON
// (a front end parses its own syntax into JSON: parse_text() for command-line and query text,
// Python objects converted as they are): apply() checks each against its spec (type, range,
// choices) and stores it, or throws Error(kInvalidArgument) naming the option (fail_option), so
// that every front end refuses a bad value with the same words and the same error kind.
//
// Thread safety: an OptionSet is built once (a function-local static) and only read afterwards;
// its methods are const and may be called from any thread.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "webrank/util/error.hpp"
#include "webrank/util/named.hpp"

namespace webrank::app {

// What an option holds, and so how each front end spells it.
enum class ValueType {
  kFlag,     // true or false (CLI: a flag, or --no-NAME when it defaults to true)
  kWhole,    // a whole number
  kNumber,   // a real number
  kText,     // a string (a name, a label, a path)
  kChoice,   // one of `choices`
  kTexts,    // a list of strings (CLI: a repeatable option, or positionals)
  kWholes,   // a list of whole numbers (CLI: a repeatable option)
  kSize,     // bytes, written "4G", "512M", "1.5G" or a number
  kWeights,  // per-page weights: a LABEL<TAB>WEIGHT file, a list of labels, {label: weight}, or
             // one number per page (Python arrays)
  kBatch,    // vectors to compute at once: a file of NAME [PAGE...] lines, or the lines
             // themselves as lists of fields (Python)
};

// "flag", "whole", "number", "text", "choice", "texts", "wholes", "size", "weights", "batch".
const char* to_string(ValueType type);

// The numbers an option accepts, said in words in its errors ("must be > 0, got 0").
struct Range {
  double low = -INFINITY;
  bool low_open = false;
  double high = INFINITY;
  bool high_open = false;
  // "> 0", ">= 1", "in [0, 1]", "" for no bound.
  std::string describe() const;
  bool contains(double x) const;
};
Range positive();
Range at_least(double low);
Range closed(double low, double high);
Range half_open(double low, double high);    // [low, high)
Range open_closed(double low, double high);  // (low, high]

// What one request to a server may ask for (docs/serve.md, "Bounds"), for the declarations
// served ranges (OptionSpec::serve_in): results or pages listed at once.
inline constexpr double kServedMaxResults = 100;

// The front ends that offer an option (a bit set).
enum Front : unsigned { kCli = 1, kPython = 2, kHttp = 4, kAllFronts = 7 };

struct OptionSpec {
  std::string name;  // the library's name: max_iter (CLI --max-iter, Python max_iter=)
  ValueType type = ValueType::kText;
  std::string help;
  std::string value_name;        // what the value is, in help: FILE, URL, NAME (default by type)
  std::string unit;              // of numbers: "pages", "bytes", "seconds", "iterations" (docs)
  nlohmann::json default_value;  // null when there is none (a required option, or "not given")
  Range range;                   // kWhole, kNumber
  std::vector<std::string> choices;  // kChoice
  char short_name = 0;               // CLI: -k, -o, -n, -q
  // CLI: the position of a positional argument after the database (0, 1, ...), -1 for an
  // option; Python: a positional parameter in the same order.
  int position = -1;
  bool required = false;
  unsigned fronts = kAllFronts;
  std::string http_name;              // the query parameter, if not `name` (q for query)
  std::vector<std::string> aliases;   // older names still accepted (Python, HTTP)
  std::vector<std::string> excludes;  // options that may not be given with this one
  char delimiter = 0;                 // CLI: a list may also be given as A,B,C
  // The server's bounds, narrower than `range`: what one request may cost (docs/serve.md,
  // "Bounds"). `served`: the values a server takes (unbounded: `range` alone); `served_values`:
  // of a list, how many (0: any number). The command line and Python take what `range` allows.
  Range served;
  std::size_t served_values = 0;

  // The CLI's spelling: --max-iter (or -k for a one-letter name).
  std::string flag() const;
  // Chainable setters for declarations.
  OptionSpec& in(Range r) {
    range = r;
    return *this;
  }
  OptionSpec& as(std::string value, std::string u = "") {
    value_name = std::move(value);
    unit = std::move(u);
    return *this;
  }
  OptionSpec& letter(char c) {
    short_name = c;
    return *this;
  }
  OptionSpec& at(int p) {
    position = p;
    return *this;
  }
  OptionSpec& needed() {
    required = true;
    return *this;
  }
  OptionSpec& only(unsigned f) {
    fronts = f;
    return *this;
  }
  OptionSpec& http(std::string n) {
    http_name = std::move(n);
    return *this;
  }
  OptionSpec& alias(std::string n) {
    aliases.push_back(std::move(n));
    return *this;
  }
  OptionSpec& without(std::string other) {
    excludes.push_back(std::move(other));
    return *this;
  }
  OptionSpec& split_at(char c) {
    delimiter = c;
    return *this;
  }
  OptionSpec& serve_in(Range r) {
    served = r;
    return *this;
  }
  OptionSpec& serve_at_most(std::size_t values) {
    served_values = values;
    return *this;
  }
};

// `text` (a command-line argument or a query parameter) as the value `spec` holds, as JSON;
// throws Error(kInvalidArgument) naming the option when it is not one ("must be a number > 0,
// got 'abc' (not a number)"). A kTexts value is one element; the caller collects them.
nlohmann::json parse_text(const OptionSpec& spec, std::string_view text);

// The value `given` checked against `spec` (type, range, choices) and put in its canonical form
// (a whole number as an integer, one string as a list of one for kTexts). Throws
// Error(kInvalidArgument) naming the option.
nlohmann::json check_value(const OptionSpec& spec, const nlohmann::json& given);

// `value`, as check_value() gives it, against the server's bounds of `spec` (`served`, and
// `served_values` for the whole list); throws Error(kInvalidArgument) naming the option ("must be
// in [1, 100] on a server, got 101").
void check_served(const OptionSpec& spec, const nlohmann::json& value);

// The option of `specs` named `name` (or one of its aliases); when there is none, throws
// Error(kInvalidArgument) naming the nearest one ("unknown option 'dampign'; did you mean
// 'damping'?"), `what` naming where it was given ("rank()", "/api/v1/top").
const OptionSpec& find_option(std::span<const OptionSpec> specs, std::string_view name,
                              std::string_view what);

// Of `names`, the one nearest to `word` if it is near enough to be what was meant.
std::optional<std::string> nearest_name(std::string_view word, std::span<const std::string> names);

// Per-page weights as an option gives them: a file, labels (weight 1 each), labels with weights,
// or one weight per page (by page id). The use case turns them into PageWeights of its database.
struct WeightsValue {
  std::string file;                                    // a LABEL<TAB>WEIGHT file
  std::vector<std::pair<std::string, double>> labels;  // labels and weights
  std::vector<double> dense;                           // one weight per page id
  bool given() const { return !file.empty() || !labels.empty() || !dense.empty(); }
};

// The vectors of a batch as an option gives them: a file of `NAME [PAGE... | @FILE]` lines
// (webrank/ingest/rank_sources.hpp, read_batch_file), or the same lines split into fields, in
// memory (a front end that holds them: no file to write and remove).
struct BatchValue {
  std::string file;
  std::vector<std::vector<std::string>> lines;
  bool given() const { return !file.empty() || !lines.empty(); }
};

namespace detail {

template <typename E>
concept NamedEnum = std::is_enum_v<E> && requires(E e) {
  { names(e) } -> std::convertible_to<std::span<const Named<E>>>;
};

// How a field of type T is read from and written to JSON, and which ValueType it is.
template <typename T>
struct Field;

template <>
struct Field<bool> {
  static constexpr ValueType type = ValueType::kFlag;
  static nlohmann::json get(bool v) { return v; }
  static bool set(const nlohmann::json& j) { return j.get<bool>(); }
};
template <>
struct Field<std::string> {
  static constexpr ValueType type = ValueType::kText;
  static nlohmann::json get(const std::string& v) { return v; }
  static std::string set(const nlohmann::json& j) { return j.get<std::string>(); }
};
template <>
struct Field<std::vector<std::string>> {
  static constexpr ValueType type = ValueType::kTexts;
  static nlohmann::json get(const std::vector<std::string>& v) { return v; }
  static std::vector<std::string> set(const nlohmann::json& j) {
    return j.get<std::vector<std::string>>();
  }
};
template <>
struct Field<std::vector<std::uint64_t>> {
  static constexpr ValueType type = ValueType::kWholes;
  static nlohmann::json get(const std::vector<std::uint64_t>& v) { return v; }
  static std::vector<std::uint64_t> set(const nlohmann::json& j) {
    return j.get<std::vector<std::uint64_t>>();
  }
};
template <typename T>
requires std::is_integral_v<T> &&(!std::is_same_v<T, bool>)struct Field<T> {
  static constexpr ValueType type = ValueType::kWhole;
  static nlohmann::json get(T v) { return v; }
  static T set(const nlohmann::json& j) { return j.get<T>(); }
};
template <typename T>
requires std::is_floating_point_v<T>
struct Field<T> {
  static constexpr ValueType type = ValueType::kNumber;
  static nlohmann::json get(T v) { return v; }
  static T set(const nlohmann::json& j) { return j.get<T>(); }
};
template <NamedEnum E>
struct Field<E> {
  static constexpr ValueType type = ValueType::kChoice;
  static nlohmann::json get(E v) { return std::string(name_in(names(v), v)); }
  static E set(const nlohmann::json& j) { return *value_in(names(E{}), j.get<std::string>()); }
};
template <>
struct Field<WeightsValue> {
  static constexpr ValueType type = ValueType::kWeights;
  static nlohmann::json get(const WeightsValue&) { return nullptr; }
  static WeightsValue set(const nlohmann::json& j);
};
template <>
struct Field<BatchValue> {
  static constexpr ValueType type = ValueType::kBatch;
  static nlohmann::json get(const BatchValue& v) {
    return v.file.empty() ? nlohmann::json("") : nlohmann::json(v.file);
  }
  static BatchValue set(const nlohmann::json& j);
};

}  // namespace detail

template <typename Options>
class OptionSet {
 public:
  // Declares an option stored in the field `at` returns (a callable Options& -> T&). Its type and
  // its default follow from T and from Options{}; returns the spec to refine (range, letter...).
  template <typename At>
  OptionSpec& add(std::string name, At at, std::string help) {
    using T = std::remove_cvref_t<decltype(at(std::declval<Options&>()))>;
    using F = detail::Field<T>;
    OptionSpec spec;
    spec.name = std::move(name);
    spec.type = F::type;
    spec.help = std::move(help);
    spec.default_value = F::get(at(defaults_));
    if constexpr (detail::NamedEnum<T>) {
      for (const auto& n : names(T{})) spec.choices.emplace_back(n.name);
    }
    fields_.push_back(
        {std::move(spec), [at](Options& o, const nlohmann::json& j) { at(o) = F::set(j); }});
    return fields_.back().spec;
  }

  // A size in bytes ("4G"), stored in an unsigned field.
  template <typename At>
  OptionSpec& size(std::string name, At at, std::string help) {
    OptionSpec& s = add(std::move(name), at, std::move(help));
    s.type = ValueType::kSize;
    s.value_name = "SIZE";
    s.unit = "bytes";
    return s;
  }

  // Every spec, in declaration order (the order --help and the docs list them).
  std::vector<OptionSpec> specs() const {
    std::vector<OptionSpec> out;
    for (const auto& f : fields_) out.push_back(f.spec);
    return out;
  }

  // Options{} with `given` applied: a JSON object of option names (or aliases) and values.
  // Throws Error(kInvalidArgument): an unknown name (with the nearest), a value its spec refuses,
  // a required option missing, two options that exclude each other. `what` names the call in
  // errors ("top", "rank()").
  Options parse(const nlohmann::json& given, std::string_view what) const {
    Options o{};
    apply(o, given, what);
    return o;
  }

  void apply(Options& o, const nlohmann::json& given, std::string_view what) const {
    std::vector<std::string> seen;
    if (!given.is_null() && !given.is_object())
      fail(ErrorKind::kInvalidArgument, what, ": options must be an object of names and values");
    if (given.is_object()) {
      for (const auto& [key, value] : given.items()) {
        const Bound* f = find(key);
        // Not one of them: find_option() names the nearest (the specs are copied only then).
        if (!f) find_option(specs(), key, what);
        if (!f || value.is_null()) continue;  // null: not given
        f->set(o, check_value(f->spec, value));
        seen.push_back(f->spec.name);
      }
    }
    for (const auto& f : fields_) {
      const bool have = std::find(seen.begin(), seen.end(), f.spec.name) != seen.end();
      if (f.spec.required && !have) fail_option(f.spec.name, "is required: ", f.spec.help);
      if (!have) continue;
      for (const auto& other : f.spec.excludes) {
        if (std::find(seen.begin(), seen.end(), other) != seen.end())
          fail_option(f.spec.name, "cannot be combined with ", option_ref(other));
      }
    }
  }

 private:
  struct Bound {
    OptionSpec spec;
    std::function<void(Options&, const nlohmann::json&)> set;
  };
  // The field declared as `name` or with it as an alias; null when none is.
  const Bound* find(std::string_view name) const {
    for (const auto& f : fields_) {
      if (f.spec.name == name) return &f;
      for (const auto& a : f.spec.aliases) {
        if (a == name) return &f;
      }
    }
    return nullptr;
  }
  std::vector<Bound> fields_;
  // The defaults the options struct's member initializers give, read by add(). (A member rather
  // than a local of add(): GCC 12 at -O3 warns of "uninitialized" strings in the local.)
  Options defaults_{};
};

// The field `member` of an options struct, for OptionSet::add: WR_FIELD(rank.damping).
#define WR_FIELD(member) \
  [](auto& o) -> auto& { \
    return o.member;     \
  }

}  // namespace webrank::app
