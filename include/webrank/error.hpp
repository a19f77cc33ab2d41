// Errors. Every failure the library reports is a webrank::Error whose message is ready to show a
// user: it names the file and, where one exists, the line or byte offset, and says what was
// expected. Callers never need to add context to make it actionable.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace webrank {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Concatenates its arguments with operator<< (GCC 12 has no <format>).
template <typename... Args>
std::string cat(const Args&... args) {
  std::ostringstream out;
  (out << ... << args);
  return out.str();
}

template <typename... Args>
[[noreturn]] void fail(const Args&... args) {
  throw Error(cat(args...));
}

}  // namespace webrank
