// A std::vector whose resize() leaves new elements of trivial types uninitialized, for arrays
// that a parallel loop fills completely right after.
//
// Why: std::vector<double>::resize(n) zeroes the new elements on the calling thread, and the
// first write to fresh memory is a page fault (about 1.8 us per 4 KiB page in this VM, so 6.8 ms
// for the 15 MB that Gauss–Seidel sets up for cnr-2000's largest component). Without the zeroing
// the faults happen in the filling loop, spread over its threads. (AlignedArray, in
// rank/binned_writer.hpp, is uninitialized too but cannot grow: a solver reusing one buffer for
// problems of varying size wants resize.) Contract: every element is
// written before it is read; values a shrink-then-grow leaves behind are stale, not zero.
#pragma once

#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace webrank {

template <typename T>
struct DefaultInitAllocator : std::allocator<T> {
  using value_type = T;
  template <typename U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <typename U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}

  // Default-initialization: nothing at all for trivial types (value-initialization would zero).
  template <typename U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <typename T, typename U>
bool operator==(const DefaultInitAllocator<T>&, const DefaultInitAllocator<U>&) noexcept {
  return true;
}

template <typename T>
using FreshVector = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace webrank
