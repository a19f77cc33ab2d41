#include "interrupts.hpp"

#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <thread>

#include "webrank/util/process.hpp"

namespace webrank::cli {
namespace {

std::stop_source g_stop;
std::atomic<bool> g_armed{false};

sigset_t stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  return set;
}

[[noreturn]] void die_by(int sig) {
  remove_temporaries();
  ::signal(sig, SIG_DFL);
  sigset_t one;
  sigemptyset(&one);
  sigaddset(&one, sig);
  ::pthread_sigmask(SIG_UNBLOCK, &one, nullptr);
  ::raise(sig);
  ::_exit(128 + sig);  // not reached: the default action of these signals ends the process
}

void wait_for_signals(sigset_t set) {
  for (;;) {
    int sig = 0;
    if (::sigwait(&set, &sig) != 0) continue;
    if (g_armed.exchange(false)) {
      g_stop.request_stop();
      continue;
    }
    die_by(sig);
  }
}

void on_sigpipe(int sig) {
  remove_temporaries();
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

}  // namespace

void install_interrupts() {
  const sigset_t set = stop_signals();
  ::pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread(wait_for_signals, set).detach();
  struct sigaction sa {};
  sa.sa_handler = on_sigpipe;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGPIPE, &sa, nullptr);
}

std::stop_token arm_interrupts() {
  g_armed = true;
  return g_stop.get_token();
}

void disarm_interrupts() {
  g_armed = false;
}

}  // namespace webrank::cli
