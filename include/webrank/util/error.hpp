// Errors. Every failure the library reports is a webrank::Error: a kind, which callers map to
// what their users expect (the CLI to exit statuses, a server to HTTP statuses, Python to
// exception classes), and a message ready to show a user. The message names the file and, where
// one exists, the line or byte offset, and says what was expected. An error about an option
// carries the option's name in the library's terms (`field`, e.g. "max_iter"), so a front end can
// name it as its users know it ("--max-iter", a keyword argument).
//
// A message may mention other options: option_ref("dangling") marks such a mention, which what()
// shows as the bare name and message(namer) as the front end names it.
//
// Out of memory is std::bad_alloc, as everywhere in C++.
#pragma once

#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace webrank {

enum class ErrorKind {
  kInvalidArgument,  // an option or argument the caller gave is out of range or contradictory
  kInvalidType,      // an option or argument of the wrong type (a string where a number goes)
  kInvalidInput,     // an input file is malformed (the message names the file and line or byte)
  kNotFound,         // a file, page, label or rank vector that does not exist
  kExists,           // an output that exists and may not be replaced
  kCorrupt,          // a database or stored vector fails its checks
  kIo,               // the system refused a read or a write (permissions, a full disk)
  kCancelled,        // stopped by the caller's stop request
  // a write against a version of a database that is no longer current (update, recrawl or
  // build --force replaced it meanwhile): nothing was written; running again works
  kConflict,
  kInternal,  // a bug in webrank
};

// "invalid argument", "invalid type", "invalid input", "not found", "exists", "corrupt", "io",
// "cancelled", "conflict", "internal".
const char* to_string(ErrorKind kind);

// A mention of option `field` inside a message (see above).
std::string option_ref(std::string_view field);
// `text` with every mention of an option written as `name` names it (the CLI: "--max-iter";
// Python: "max_iter"): for messages that are not errors (warnings).
std::string with_option_names(std::string_view text,
                              const std::function<std::string(std::string_view field)>& name);

class Error : public std::runtime_error {
 public:
  // what() is "FIELD DETAIL" when a field is given ("damping must be in [0, 1], got 2"), else
  // DETAIL, with the mentions of options shown as their bare names.
  Error(ErrorKind kind, const std::string& detail, std::string field = {});

  // The message with the field and every mentioned option named by `name` (the CLI passes
  // "max_iter" -> "--max-iter").
  std::string message(const std::function<std::string(std::string_view field)>& name) const;

  ErrorKind kind() const noexcept { return kind_; }
  // The option the error is about, in the library's terms (a member of an options struct), or "".
  const std::string& field() const noexcept { return field_; }
  // The message without the field's name, mentions of options still marked.
  const std::string& detail() const noexcept { return detail_; }

 private:
  ErrorKind kind_;
  std::string field_, detail_;
};

// Concatenates its arguments with operator<< (GCC 12 has no <format>).
template <typename... Args>
std::string cat(const Args&... args) {
  std::ostringstream out;
  (out << ... << args);
  return out.str();
}

// Throws Error of `kind` with the concatenated arguments as its message.
template <typename... Args>
[[noreturn]] void fail(ErrorKind kind, const Args&... args) {
  throw Error(kind, cat(args...));
}

// Throws Error(kInvalidArgument) about option `field`: fail_option("tol", "must be >= 0").
template <typename... Args>
[[noreturn]] void fail_option(const std::string& field, const Args&... args) {
  throw Error(ErrorKind::kInvalidArgument, cat(args...), field);
}

}  // namespace webrank
