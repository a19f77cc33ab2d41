// Thresholds for OpenMP loops, and running two tasks at once. Loops over fewer items than the
// thresholds run on one thread: below them, OpenMP's fork and barrier cost more than the work
// (milliseconds per loop on a loaded machine).
#pragma once

#include <omp.h>

#include <cstdint>
#include <exception>

namespace webrank {

inline constexpr std::int64_t kMinParallelPages = 1 << 14;
inline constexpr std::int64_t kMinParallelLinks = 1 << 17;

// Sets the number of threads of the calling thread's parallel regions for its lifetime (0: leaves
// it as it is), then restores it. OpenMP keeps this number per thread, so a call that sets it
// changes nothing for calls running on other threads.
class ThreadCount {
 public:
  explicit ThreadCount(int threads) : previous_(omp_get_max_threads()) {
    if (threads > 0) omp_set_num_threads(threads);
  }
  ~ThreadCount() { omp_set_num_threads(previous_); }
  ThreadCount(const ThreadCount&) = delete;
  ThreadCount& operator=(const ThreadCount&) = delete;

 private:
  int previous_;
};

// Runs a() and b() at the same time when there is more than one thread; an exception (bad
// input, a failed write or allocation) is rethrown once both are done, as it may not leave an
// OpenMP region.
template <typename A, typename B>
void concurrently(A&& a, B&& b) {
  std::exception_ptr failed[2];
  auto guarded = [&](auto& f, std::exception_ptr& e) {
    try {
      f();
    } catch (...) {
      e = std::current_exception();
    }
  };
#pragma omp parallel sections if (omp_get_max_threads() > 1)
  {
#pragma omp section
    guarded(a, failed[0]);
#pragma omp section
    guarded(b, failed[1]);
  }
  for (const std::exception_ptr& e : failed) {
    if (e) std::rethrow_exception(e);
  }
}

}  // namespace webrank
