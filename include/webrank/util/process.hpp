// What a program's front end may do to the whole process, and the library never does itself:
// clean up after signals. Every output the library writes goes first to a hidden temporary
// sibling (`.NAME.webrank-tmp.PID`) renamed into place when complete; a process stopped by a
// signal should remove those temporaries before it dies.
#pragma once

namespace webrank {

// Removes the temporaries of every write in progress in this process. Async-signal-safe (fixed
// storage, raw system calls): meant for a signal handler, or a thread waiting for signals. The
// writes it interrupts can no longer commit: call it only when the process is about to end.
void remove_temporaries() noexcept;

}  // namespace webrank
