// The guardian: a small process that llmperf forks between itself and the server under test, so
// that no server process outlives llmperf, whatever happens to llmperf (a crash, SIGKILL, an
// exception, Ctrl-C). It leads a session of its own, is a child subreaper (orphaned descendants of
// the server are re-parented to it, never to init), starts `sh -c CMD` as the leader of a new
// process group, and waits. When llmperf closes its end of the control pipe, which the kernel does
// when llmperf dies, or when the guardian gets SIGTERM (PR_SET_PDEATHSIG, or anyone else), it runs
// the stop command if there is one, sends SIGTERM to the server's group, waits up to the stop
// timeout, then SIGKILLs the group and every process still under it, reaps them all, and exits.
//
// The guardian is forked from a multi-threaded llmperf and never calls exec itself, so it may only
// make async-signal-safe calls (system calls, in effect): no allocation, no locks, no stdio. Every
// string it needs is prepared before fork() in a GuardianSpec, the server and the stop command as
// ChildCommands that it starts with child_process.h's start_child, which makes system calls only.
// It waits on a signalfd, not in signal handlers, so no handler code runs inside it at all.
#pragma once

#include <sys/types.h>

#include <cstdint>

#include "app/child_process.h"

namespace llmperf {

// What the guardian tells llmperf: one fixed-size message per event on its status pipe (writes of
// 8 bytes are atomic on a pipe, so messages never interleave or split).
enum class GuardianEvent : int32_t {
  kStarted = 1,      // value: the server's pid, which is also its process group id
  kSpawnFailed = 2,  // value: the errno of start_child's vfork() (or pipe2()) for the server
  kExited = 3,       // value: the wait status of the server's main process (the sh)
  kStopCommand = 4,  // value: the stop command's wait status; -1 when it was killed at its timeout
  kTerminated = 5,   // SIGTERM sent to the server's group (value unused)
  kKilled = 6,       // something was left at the stop timeout: SIGKILL sent (value unused)
  kAllGone = 7,      // every process under the guardian is reaped; the guardian exits next
};
struct GuardianMessage {
  GuardianEvent event = GuardianEvent::kStarted;
  int32_t value = 0;
};
static_assert(sizeof(GuardianMessage) == 8);

// Everything the guardian needs, prepared before fork(). The descriptors are open in the parent
// when it forks (with O_CLOEXEC); the guardian keeps these and closes every other one.
struct GuardianSpec {
  // `sh -c command`, in a process group of its own, SIGTERM should the guardian die; its streams
  // are the guardian's own (/dev/null and server.log).
  const ChildCommand* server = nullptr;
  const ChildCommand* stop = nullptr;  // the same for the stop command; nullptr: none
  int control_fd = -1;  // read end of the control pipe: EOF (llmperf closed it or died) = stop
  int status_fd = -1;   // write end of the status pipe, for GuardianMessages
  int log_fd = -1;      // server.log, opened with O_APPEND: the server's stdout and stderr
  int null_fd = -1;     // /dev/null, the server's stdin
  pid_t parent = 0;     // llmperf's pid: closes the race of PR_SET_PDEATHSIG with llmperf's death
  int64_t stop_timeout_ms = 30'000;  // the stop command's budget, then SIGTERM's before SIGKILL
};

// The guardian's whole life; called in the child of fork() and never returns.
[[noreturn]] void run_guardian(const GuardianSpec& spec);

}  // namespace llmperf
