// Long library calls from Python: run without the GIL, stoppable by Ctrl-C.
#pragma once

#include <pybind11/pybind11.h>

#include <exception>
#include <functional>
#include <mutex>
#include <stop_token>

namespace webrank::python {

// Runs work(stop) on a worker thread while the calling thread waits with the GIL released and,
// every 100 ms, lets Python run its signal handlers: a KeyboardInterrupt (Ctrl-C) requests the
// stop, and run() raises it once the work has ended (the library stops at its next check and
// cleans up after itself). Otherwise run() rethrows what the work threw. Small jobs
// (`background` false) run on the calling thread, still without the GIL, not interruptible.
class Interruptible {
 public:
  void run(const std::function<void(std::stop_token)>& work, bool background = true);

  // Calls fn with the GIL held, from any thread (a progress callback). If it raises, the run
  // is stopped and run() raises that exception.
  void call_python(const std::function<void()>& fn);

 private:
  std::stop_source stop_;
  std::mutex mutex_;
  std::exception_ptr python_error_;
};

}  // namespace webrank::python
