// Starting a child process from an argv: the one way llmperf starts the programs it runs (the
// server under test and its stop command from the guardian, process_guardian.h; llmperf-mock for
// `calibrate`; nvidia-smi for `tune`'s GPU sampler). A ChildCommand is made first, with every
// allocation (argv, environment); start_child then makes only system calls, so that it may run
// where only async-signal-safe calls are allowed: in the guardian, a child forked from a
// multi-threaded llmperf.
//
// start_child uses vfork(), as posix_spawn does: the calling thread waits until the child has
// called exec (or failed to), llmperf's memory is not copied, and no fork handler or malloc lock
// stalls the other threads, so that a sample of GPU memory taken during a benchmark does not
// disturb the request engine's threads. posix_spawn itself cannot set a parent-death signal, which
// the server and the mock need. Between vfork and exec the child writes no memory of llmperf's: it
// makes system calls on prepared data and reports a failed exec through a pipe.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace llmperf {

// What one of the child's standard streams is: a descriptor of the parent's (above 2, or the
// stream's own number), or one of these.
inline constexpr int kChildInherit = -1;  // the parent's own stream
inline constexpr int kChildDevNull = -2;  // /dev/null (left as inherited when it cannot be opened)

struct ChildOptions {
  // The program and its arguments; argv[0] is the path executed (not looked up on PATH).
  std::vector<std::string> argv;
  // The child's environment as "NAME=value" strings; none: llmperf's own (environ when started).
  std::optional<std::vector<std::string>> environment;
  int stdin_fd = kChildInherit;   // a descriptor of the parent's, kChildInherit or kChildDevNull
  int stdout_fd = kChildInherit;  // the same
  int stderr_fd = kChildInherit;  // the same
  // The child leads a process group of its own (its pgid is its pid), set by both the child and
  // the parent, so that the group exists before start_child returns.
  bool new_process_group = false;
  // PR_SET_PDEATHSIG: the signal the child gets when the thread that started it ends (with its
  // process, for a single-threaded guardian); a child whose parent has already gone exits with
  // status 127 before exec. 0: none.
  int parent_death_signal = 0;
  int cpu = -1;  // pin the child to this CPU; -1: no pinning
};

// A child ready to start: the options with argv and environment as execve takes them. Made before
// fork() where start_child must be async-signal-safe; neither copied nor moved (its arrays point
// into itself).
class ChildCommand {
 public:
  explicit ChildCommand(ChildOptions options);
  ChildCommand(const ChildCommand&) = delete;
  ChildCommand& operator=(const ChildCommand&) = delete;

  const ChildOptions& options() const { return options_; }
  char* const* argv() const { return argv_.data(); }  // null-terminated
  char* const* envp() const;  // null-terminated; environ when options().environment is none

 private:
  ChildOptions options_;
  std::vector<char*> argv_;
  std::vector<char*> envp_;
};

// What start_child did.
struct ChildStart {
  pid_t pid = -1;  // the child, or -1 when none could be created
  // 0; with pid -1, the errno of pipe2() or vfork(); with a pid, the errno of a failed exec: the
  // child has then exited with status 127 and is the caller's to reap, as any child.
  int error = 0;
};

// Starts the child. In the child, before exec: its own process group and parent-death signal
// (when asked), the CPU, stdin/stdout/stderr, and the signal state of a fresh process (every
// disposition default, nothing blocked: llmperf ignores SIGPIPE, the guardian blocks signals, and
// exec would pass both on). Async-signal-safe; the calling thread's signals are blocked while the
// child runs before exec. Returns once the child has called exec or failed to.
ChildStart start_child(const ChildCommand& command) noexcept;

}  // namespace llmperf
