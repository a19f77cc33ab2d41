// Ctrl-C (SIGINT), SIGTERM and SIGHUP for the `webrank` command.
//
// A command whose operation can stop early arms a stop token (arm()) and passes it to the
// library: the first signal then asks the operation to stop, and it ends as it documents (a crawl
// builds what it fetched; a rank or a build is abandoned, its temporaries removed as it unwinds).
// A second signal, or the first when nothing is armed, removes every temporary of the process
// (webrank::remove_temporaries) and ends it by the signal, as the shell expects.
//
// Signals are taken by one thread that waits for them (sigwait), so no work happens in a signal
// handler. install() must run before any other thread starts (OpenMP's included): threads
// inherit the blocked signals.
#pragma once

#include <stop_token>

namespace webrank::cli {

// Blocks SIGINT, SIGTERM and SIGHUP in this thread and its future threads, starts the waiting
// thread, and makes SIGPIPE remove the temporaries before it ends the process.
void install_interrupts();

// From now on the first signal requests a stop on the returned token.
std::stop_token arm_interrupts();

// From now on every signal ends the process (after removing the temporaries).
void disarm_interrupts();

}  // namespace webrank::cli
