// Fresh memory for large arrays: the one home of the ways webrank avoids paying for memory it
// is about to overwrite, or pays for it on every thread at once.
//
//  - FreshVector<T>: a std::vector whose resize() leaves new elements uninitialized, for arrays a
//    parallel loop fills right after.
//  - AlignedArray<T>: a fixed-size uninitialized array on a cache-line boundary.
//  - advise_huge_pages / populate_in_parallel / reserve_huge / resize_huge: transparent huge
//    pages and page faults taken by all threads, for the builder's arrays.
//
// Why (measurements in docs/performance.md): the first write to fresh memory is a page fault,
// slow in a VM; std::vector's resize() zeroes on the calling thread, so those faults serialize.
// Contract of every uninitialized array: each element is written before it is read; values a
// shrink-then-grow leaves behind are stale, not zero.
#pragma once

#include <omp.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace webrank {

// Align = 0: the default alignment; else every allocation on an Align-byte boundary.
template <typename T, std::size_t Align = 0>
struct DefaultInitAllocator : std::allocator<T> {
  using value_type = T;
  template <typename U>
  struct rebind {
    using other = DefaultInitAllocator<U, Align>;
  };
  DefaultInitAllocator() = default;
  template <typename U>
  DefaultInitAllocator(const DefaultInitAllocator<U, Align>&) noexcept {}

  T* allocate(std::size_t n) {
    if constexpr (Align == 0) {
      return std::allocator<T>::allocate(n);
    } else {
      return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(Align)));
    }
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if constexpr (Align == 0) {
      std::allocator<T>::deallocate(p, n);
    } else {
      ::operator delete(p, std::align_val_t(Align));
    }
  }

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

template <typename T, typename U, std::size_t Align>
bool operator==(const DefaultInitAllocator<T, Align>&,
                const DefaultInitAllocator<U, Align>&) noexcept {
  return true;
}

template <typename T>
using FreshVector = std::vector<T, DefaultInitAllocator<T>>;

inline constexpr std::size_t kCacheLine = 64;

// A FreshVector on a cache-line boundary: rows of values read at random (a batch's W values per
// page), so that a row of 64 bytes is one line, not two. (Large allocations come from mmap, 16
// bytes past a page boundary.)
template <typename T>
using FreshRows = std::vector<T, DefaultInitAllocator<T, kCacheLine>>;

// An uninitialized array of trivially copyable T on a cache-line boundary. (Not advised for huge
// pages: the kernel's compaction to find them slowed the blocked layout's set-up more than it sped
// up the sweeps; docs/performance.md.)
template <typename T>
class AlignedArray {
 public:
  AlignedArray() = default;
  explicit AlignedArray(std::size_t n)
      : data_(static_cast<T*>(::operator new[](std::max<std::size_t>(n, 1) * sizeof(T),
                                               std::align_val_t(kCacheLine)))),
        size_(n) {}
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  std::size_t size() const { return size_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }

 private:
  struct Free {
    void operator()(T* p) const { ::operator delete[](p, std::align_val_t(kCacheLine)); }
  };
  std::unique_ptr<T[], Free> data_;
  std::size_t size_ = 0;
};

// Advises the whole 2 MiB-aligned part of [data, data + bytes) for huge pages. A hint: errors
// (no THP support) are ignored.
inline void advise_huge_pages(void* data, std::size_t bytes) {
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  const auto begin = (reinterpret_cast<std::uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(kHuge - 1);
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

// Faults in [data, data + bytes) on all threads, in pieces run as OpenMP tasks: inside a
// parallel region by its threads (done by the region's next barrier or taskwait), else in a
// region of its own. Zeroing fresh pages is slow in a VM, and a fault is taken by the thread that
// touches the page first: the edge-list reader's arrays are filled by its one interning thread,
// a fresh vector by resize's memset (docs/performance.md has what this saves). A hint: populating
// never changes what memory holds, so a piece that runs late (after the owner touched, or even
// freed, it) is harmless, and errors (kernels before 5.14) are ignored.
inline constexpr std::size_t kPopulatePiece = std::size_t{8} << 20;
inline void populate_in_parallel(void* data, std::size_t bytes) {
#ifdef MADV_POPULATE_WRITE
  // madvise takes whole pages: the partial first page is left to the first touch.
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto start = reinterpret_cast<std::uintptr_t>(data);
  const auto aligned = (start + page - 1) & ~(page - 1);
  if (start + bytes <= aligned + kPopulatePiece) return;  // less than a piece: not worth a thread
  char* const begin = reinterpret_cast<char*>(aligned);
  bytes -= aligned - start;
  auto spawn = [begin, bytes] {
    for (std::size_t at = 0; at < bytes; at += kPopulatePiece) {
#pragma omp task firstprivate(begin, at, bytes)
      ::madvise(begin + at, std::min(kPopulatePiece, bytes - at), MADV_POPULATE_WRITE);
    }
  };
  if (omp_in_parallel()) {
    spawn();
  } else {
#pragma omp parallel
#pragma omp single
    spawn();
  }
#else
  (void)data;
  (void)bytes;
#endif
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
template <typename T, typename Allocator>
void resize_huge(std::vector<T, Allocator>& v, std::size_t n) {
  if (n > v.capacity()) {
    v.reserve(n);
    advise_huge_pages(v.data(), n * sizeof(T));
    populate_in_parallel(v.data() + v.size(), (n - v.size()) * sizeof(T));
  }
  v.resize(n);
}

}  // namespace webrank
