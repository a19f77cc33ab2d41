// Transparent huge pages for the builder's large arrays. The counting sorts scatter links all
// over arrays of hundreds of MB: with 4 KiB pages nearly every write misses the TLB and every
// first touch is a page fault; 2 MiB pages cut both (where the kernel's THP mode is "madvise",
// the default of many distributions, only memory advised like this gets them).
#pragma once

#include <sys/mman.h>

#include <cstdint>
#include <vector>

namespace webrank {

// Advises the whole 2 MiB-aligned part of [data, data + bytes) for huge pages. A hint: errors
// (no THP support) are ignored.
inline void advise_huge_pages(void* data, std::size_t bytes) {
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  const auto begin = (reinterpret_cast<std::uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(kHuge - 1);
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

// v.reserve(n), with the new memory advised for huge pages before v's contents are copied in.
template <typename T>
void reserve_huge(std::vector<T>& v, std::size_t n) {
  if (n <= v.capacity()) return;
  std::vector<T> bigger;
  bigger.reserve(n);
  advise_huge_pages(bigger.data(), n * sizeof(T));
  bigger.insert(bigger.end(), v.begin(), v.end());
  v.swap(bigger);
}

// v.resize(n), with the memory advised for huge pages before it is first touched (only if v
// has to allocate: large allocations come fresh from mmap, untouched).
template <typename T>
void resize_huge(std::vector<T>& v, std::size_t n) {
  if (n > v.capacity()) {
    v.reserve(n);
    advise_huge_pages(v.data(), n * sizeof(T));
  }
  v.resize(n);
}

}  // namespace webrank
