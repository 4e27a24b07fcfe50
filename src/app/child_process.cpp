// Starting a child process (see child_process.h). Below ChildCommand's constructor, system calls
// only: start_child may run in the guardian, a child forked from a multi-threaded llmperf.
#include "app/child_process.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

extern char** environ;

namespace llmperf {
namespace {

// What the child needs between vfork and exec, made by start_child before vfork.
struct ChildLaunch {
  const ChildCommand* command = nullptr;  // what to run
  char* const* envp = nullptr;            // its environment (environ, read before vfork)
  pid_t parent = 0;   // start_child's process: the parent-death check compares getppid() to it
  int error_fd = -1;  // write end of the pipe for a failed exec's errno (O_CLOEXEC)
};

// The child's way out before exec, with status 127: exit_group(2) itself, not _exit(), which
// the sanitizers intercept to finalise (ThreadSanitizer, whose vfork is a fork, then reports the
// parent's threads as leaked and may flush a copy of llmperf's stdio buffers).
[[noreturn]] void exit_child() {
  syscall(SYS_exit_group, 127);
  __builtin_unreachable();
}

// Makes `fd` (a ChildOptions stream) the child's descriptor `target`.
void child_stream(int fd, int target, int null_fd) {
  if (fd == kChildInherit) return;
  const int from = fd == kChildDevNull ? null_fd : fd;
  if (from < 0) return;
  if (from == target) {
    fcntl(target, F_SETFD, 0);  // dup2 onto itself would leave FD_CLOEXEC set
  } else {
    dup2(from, target);
  }
}

// The child's side, between vfork and exec: system calls on prepared data, and no write to
// llmperf's memory (errno aside, which is the waiting thread's).
[[noreturn]] void exec_in_child(const ChildLaunch& launch) {
  const ChildOptions& options = launch.command->options();
  if (options.new_process_group) setpgid(0, 0);
  if (options.parent_death_signal != 0) {
    prctl(PR_SET_PDEATHSIG, options.parent_death_signal);
    if (getppid() != launch.parent) exit_child();  // the parent died before the line above
  }
  if (options.cpu >= 0) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(options.cpu, &set);
    sched_setaffinity(0, sizeof set, &set);
  }
  const bool wants_null = options.stdin_fd == kChildDevNull || options.stdout_fd == kChildDevNull ||
                          options.stderr_fd == kChildDevNull;
  const int null_fd = wants_null ? open("/dev/null", O_RDWR | O_CLOEXEC) : -1;
  child_stream(options.stdin_fd, STDIN_FILENO, null_fd);
  child_stream(options.stdout_fd, STDOUT_FILENO, null_fd);
  child_stream(options.stderr_fd, STDERR_FILENO, null_fd);
  // The signal state of a fresh process: handlers first, so that nothing of llmperf's runs here
  // once signals are unblocked.
  struct sigaction action {};
  sigemptyset(&action.sa_mask);
  action.sa_handler = SIG_DFL;
  for (int s = 1; s < NSIG; ++s) {
    if (s != SIGKILL && s != SIGSTOP) sigaction(s, &action, nullptr);
  }
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  execve(options.argv.empty() ? "" : launch.command->argv()[0], launch.command->argv(),
         launch.envp);
  const int error = errno;
  [[maybe_unused]] const ssize_t n = write(launch.error_fd, &error, sizeof error);
  exit_child();
}

// vfork in a function of its own, so that nothing else of start_child's frame lives across it.
[[gnu::noinline]] pid_t vfork_and_exec(const ChildLaunch* launch) {
  const pid_t pid = vfork();
  if (pid == 0) exec_in_child(*launch);
  return pid;
}

}  // namespace

ChildCommand::ChildCommand(ChildOptions options) : options_(std::move(options)) {
  for (std::string& arg : options_.argv) argv_.push_back(arg.data());
  argv_.push_back(nullptr);
  if (options_.environment) {
    for (std::string& entry : *options_.environment) envp_.push_back(entry.data());
    envp_.push_back(nullptr);
  }
}

char* const* ChildCommand::envp() const { return options_.environment ? envp_.data() : environ; }

ChildStart start_child(const ChildCommand& command) noexcept {
  ChildStart out;
  int error_pipe[2] = {-1, -1};
  if (pipe2(error_pipe, O_CLOEXEC) != 0) {
    out.error = errno;
    return out;
  }
  const ChildLaunch launch{&command, command.envp(), getpid(), error_pipe[1]};
  // No handler of llmperf's may run in the child, which shares llmperf's memory until exec.
  sigset_t all;
  sigset_t old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  const pid_t pid = vfork_and_exec(&launch);
  const int vfork_error = errno;
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  close(error_pipe[1]);
  if (pid < 0) {
    close(error_pipe[0]);
    out.error = vfork_error;
    return out;
  }
  out.pid = pid;
  // The child has done so already, unless vfork is a fork (as under ThreadSanitizer) and the child
  // has not run yet.
  if (command.options().new_process_group) setpgid(pid, pid);
  // EOF once the child has exec'd (the pipe is close-on-exec); its errno when exec failed.
  int exec_error = 0;
  ssize_t got = 0;
  do {
    got = read(error_pipe[0], &exec_error, sizeof exec_error);
  } while (got < 0 && errno == EINTR);
  close(error_pipe[0]);
  if (got == static_cast<ssize_t>(sizeof exec_error)) out.error = exec_error;
  return out;
}

}  // namespace llmperf
