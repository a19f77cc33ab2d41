#include "util/error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace webrank {

const char* to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kInvalidArgument:
      return "invalid argument";
    case ErrorKind::kInvalidType:
      return "invalid type";
    case ErrorKind::kInvalidInput:
      return "invalid input";
    case ErrorKind::kNotFound:
      return "not found";
    case ErrorKind::kExists:
      return "exists";
    case ErrorKind::kCorrupt:
      return "corrupt";
    case ErrorKind::kIo:
      return "io";
    case ErrorKind::kCancelled:
      return "cancelled";
    case ErrorKind::kConflict:
      return "conflict";
    case ErrorKind::kInternal:
      return "internal";
  }
  return "?";
}

namespace {

constexpr char kRefMark = '\x1f';  // ASCII unit separator: never in the text of a message

std::string render(const std::string& field, const std::string& detail,
                   const std::function<std::string(std::string_view)>& name) {
  std::string out = field.empty() ? std::string() : name(field) + " ";
  for (std::size_t at = 0; at < detail.size();) {
    const std::size_t open = detail.find(kRefMark, at);
    const std::size_t close = open == std::string::npos ? open : detail.find(kRefMark, open + 1);
    if (close == std::string::npos) {
      out.append(detail, at, std::string::npos);
      break;
    }
    out.append(detail, at, open - at);
    out += name(std::string_view(detail).substr(open + 1, close - open - 1));
    at = close + 1;
  }
  return out;
}

std::string bare(std::string_view field) {
  return std::string(field);
}

}  // namespace

std::string with_option_names(std::string_view text,
                              const std::function<std::string(std::string_view)>& name) {
  return render("", std::string(text), name);
}

std::string option_ref(std::string_view field) {
  return std::string(1, kRefMark) + std::string(field) + kRefMark;
}

Error::Error(ErrorKind kind, const std::string& detail, std::string field)
    : std::runtime_error(render(field, detail, bare)),
      kind_(kind),
      field_(std::move(field)),
      detail_(detail) {}

std::string Error::message(const std::function<std::string(std::string_view)>& name) const {
  return render(field_, detail_, name);
}

void fail_errno(const std::string& path, const std::string& what) {
  const int err = errno;
  fail(err == ENOENT || err == ENOTDIR ? ErrorKind::kNotFound : ErrorKind::kIo, path, ": ", what,
       ": ", std::strerror(err));
}

std::string quoted_excerpt(std::string_view text, std::size_t max_bytes) {
  std::string out = "'";
  for (unsigned char c : text.substr(0, max_bytes)) {
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\'' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c >= 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X", c);
      out += hex;
    } else {
      out += static_cast<char>(c);
    }
  }
  out += "'";
  if (text.size() > max_bytes) out += "...";
  return out;
}

}  // namespace webrank
