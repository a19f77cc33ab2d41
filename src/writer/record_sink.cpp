#include "writer/record_sink.hpp"

#include <charconv>

namespace webrank {

void RecordSink::numeric_links(const std::uint32_t* pairs, std::size_t n, const double* weights) {
  char a[16], b[16];
  for (std::size_t i = 0; i < n; ++i) {
    const auto ea = std::to_chars(a, a + sizeof a, pairs[2 * i]).ptr;
    const auto eb = std::to_chars(b, b + sizeof b, pairs[2 * i + 1]).ptr;
    link(std::string_view(a, static_cast<std::size_t>(ea - a)),
         std::string_view(b, static_cast<std::size_t>(eb - b)), weights ? weights[i] : 1.0);
  }
}

void RecordSink::label_links(const std::string_view* labels, std::size_t n, const double* weights) {
  for (std::size_t i = 0; i < n; ++i) {
    link(labels[2 * i], labels[2 * i + 1], weights ? weights[i] : 1.0);
  }
}

}  // namespace webrank
