#include "interruptible.hpp"

#include <chrono>
#include <condition_variable>
#include <thread>

namespace py = pybind11;

namespace webrank::python {

void Interruptible::call_python(const std::function<void()>& fn) {
  py::gil_scoped_acquire gil;
  try {
    fn();
  } catch (...) {
    std::lock_guard lock(mutex_);
    if (!python_error_) python_error_ = std::current_exception();
    stop_.request_stop();
  }
}

void Interruptible::run(const std::function<void(std::stop_token)>& work, bool background) {
  std::exception_ptr failure;
  if (!background) {
    py::gil_scoped_release release;
    try {
      work(stop_.get_token());
    } catch (...) {
      failure = std::current_exception();
    }
  } else {
    std::mutex m;
    std::condition_variable cv;
    bool done = false;
    std::thread worker([&] {
      try {
        work(stop_.get_token());
      } catch (...) {
        failure = std::current_exception();
      }
      std::lock_guard lock(m);
      done = true;
      cv.notify_all();
    });
    bool interrupted = false;
    for (;;) {
      bool finished;
      {
        py::gil_scoped_release release;
        std::unique_lock lock(m);
        finished = cv.wait_for(lock, std::chrono::milliseconds(100), [&] { return done; });
      }
      if (finished) break;
      if (!interrupted && PyErr_CheckSignals() != 0) {
        interrupted = true;  // the KeyboardInterrupt stays pending until the work has ended
        stop_.request_stop();
      }
    }
    {
      py::gil_scoped_release release;
      worker.join();
    }
    if (interrupted) throw py::error_already_set();
  }
  {
    std::lock_guard lock(mutex_);
    if (python_error_) std::rethrow_exception(python_error_);
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace webrank::python
