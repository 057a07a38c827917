#ifndef CRADIOGUARD_H
#define CRADIOGUARD_H
// The last word to a controller when the process crashes (docs/exit-paths.md).
//
// A crash (a Swift trap is SIGILL or SIGTRAP; SIGSEGV, SIGBUS, SIGABRT, SIGFPE) cannot run the async
// clean-up that disables scanning or advertising, and the kernel does not do it when the socket
// closes: the controller would go on scanning or advertising for whoever uses it next. A signal
// handler may call write(2) (async-signal-safe, POSIX.1-2017 2.4.3), so the live source keeps the
// bytes of the disabling command ready here, with the descriptor they go to, and the crash handler
// writes them before the process dies.

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/// Installs the crash handlers (once; later calls do nothing). Each writes the armed packet, calls
/// the handler that was there before (the Swift runtime's backtracer reports the crash), then dies by
/// the signal's default action.
void crg_install(void);
/// Arms: on a crash, write `length` bytes of `packet` (an H4 command, at most 64 bytes) to `fd`.
/// Returns 0, or -1 if the packet is too long.
int crg_arm(int fd, const uint8_t *packet, size_t length);
/// Disarms (after the command was sent the normal way, or the descriptor closed).
void crg_disarm(void);
/// The end of a crash handler (this one's, and the monitor's terminal restorer in CNcursesw): calls
/// the handler that was installed before it with the original context (the Swift runtime's
/// backtracer reports the crash), then dies by the signal's default action. Never returns: returning
/// would resume a process in an unknown state.
void crg_pass_on(int sig, siginfo_t *info, void *context, const struct sigaction *before);

#endif
