// The names of an enum's values, in one table per enum: what to_string() prints, what a front end
// accepts (`--method gauss-seidel`, method="gauss-seidel", ?method=gauss-seidel) and lists in its
// help, and what a stored record says. A layer declares `names(E)` beside its enum, returning its
// table; generic code (option declarations, webrank/app/options.hpp) finds it by argument-
// dependent lookup.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace webrank {

template <typename E>
struct Named {
  E value;
  std::string_view name;
};

// The name of `value` in `table` ("?" when it has none: a bug).
template <typename E>
constexpr const char* name_in(std::span<const Named<E>> table, E value) {
  for (const Named<E>& n : table) {
    if (n.value == value) return n.name.data();
  }
  return "?";
}

// The value named `name` in `table`, if any.
template <typename E>
constexpr std::optional<E> value_in(std::span<const Named<E>> table, std::string_view name) {
  for (const Named<E>& n : table) {
    if (n.name == name) return n.value;
  }
  return std::nullopt;
}

}  // namespace webrank
