// The guardian process (see process_guardian.h). Async-signal-safe calls only below this line:
// system calls, and loops over memory prepared before fork().
#include "app/tune/process_guardian.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>

namespace llmperf {
namespace {

// The signals the guardian takes through its signalfd: SIGCHLD to reap, the others mean "stop".
constexpr int kSignals[] = {SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGQUIT};
constexpr int64_t kSliceMs = 100;    // longest sleep while waiting for processes to go
constexpr int kMaxRemembered = 512;  // orphans remembered as already sent SIGTERM

int64_t monotonic_ms() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return int64_t{now.tv_sec} * 1000 + now.tv_nsec / 1'000'000;
}

void write_all(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    data += n;
    size -= static_cast<size_t>(n);
  }
}

// One line "[llmperf] stop: <text><number><tail>" into server.log (the guardian writes only while
// it stops the server; server_log.h's kLogStopMarker), in one write so that it lands whole between
// the server's own lines. number < 0: none.
void log_line(int fd, const char* text, long number = -1, const char* tail = "") {
  char line[256];
  size_t used = 0;
  const auto append = [&](const char* s) {
    while (*s != '\0' && used < sizeof line - 1) line[used++] = *s++;
  };
  append("[llmperf] stop: ");
  append(text);
  if (number >= 0) {
    char digits[24];
    int count = 0;
    do {
      digits[count++] = static_cast<char>('0' + number % 10);
      number /= 10;
    } while (number > 0);
    while (count > 0 && used < sizeof line - 1) line[used++] = digits[--count];
  }
  append(tail);
  line[used++] = '\n';
  write_all(fd, line, used);
}

void send(int fd, GuardianEvent event, int32_t value) {
  const GuardianMessage message{event, value};
  write_all(fd, reinterpret_cast<const char*>(&message), sizeof message);
}

void close_fds(unsigned first, unsigned last) {
  if (first > last || close_range(first, last, 0) == 0) return;
  unsigned limit = 65536;  // close_range is missing before Linux 5.9: close one by one
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY &&
      files.rlim_cur < (1u << 20)) {
    limit = static_cast<unsigned>(files.rlim_cur);
  }
  for (unsigned fd = first; fd <= last && fd < limit; ++fd) close(static_cast<int>(fd));
}

// Closes every descriptor from 3 up but those in `keep` (each >= 3), so that the guardian holds
// none of llmperf's connections, files or other guardians' pipes.
void close_all_but(int* keep, int count) {
  for (int i = 1; i < count; ++i) {  // insertion sort: a handful of descriptors
    for (int j = i; j > 0 && keep[j - 1] > keep[j]; --j) {
      const int t = keep[j];
      keep[j] = keep[j - 1];
      keep[j - 1] = t;
    }
  }
  unsigned from = 3;
  for (int i = 0; i < count; ++i) {
    const unsigned fd = static_cast<unsigned>(keep[i]);
    if (fd > from) close_fds(from, fd - 1);
    if (fd + 1 > from) from = fd + 1;
  }
  close_fds(from, ~0u);
}

// A descriptor numbered 3 or above (the guardian's 0, 1 and 2 become /dev/null and server.log).
int above_stdio(int fd) { return fd > 2 ? fd : fcntl(fd, F_DUPFD_CLOEXEC, 3); }

struct Guardian {
  const GuardianSpec* spec = nullptr;
  int control_fd = -1;
  int status_fd = -1;
  int log_fd = -1;
  int signal_fd = -1;
  pid_t server = -1;  // the server's main process and process group
  bool server_reaped = false;
  pid_t stop_child = -1;  // the stop command, while it runs
  bool stop_reaped = false;
  int stop_status = 0;
  pid_t terminated[kMaxRemembered] = {};  // orphans outside the group already sent SIGTERM
  int terminated_count = 0;
};

// Reaps every child that has exited; false once the guardian has no child left at all.
bool reap(Guardian& g) {
  for (;;) {
    int status = 0;
    const pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid > 0) {
      if (pid == g.server && !g.server_reaped) {
        g.server_reaped = true;
        send(g.status_fd, GuardianEvent::kExited, status);
      } else if (pid == g.stop_child) {
        g.stop_reaped = true;
        g.stop_status = status;
      }
      continue;
    }
    if (pid == 0) return true;
    if (errno == EINTR) continue;
    return false;  // ECHILD
  }
}

// Reads every pending signal; true when one of them asks the guardian to stop.
bool drain_signals(const Guardian& g) {
  bool stop = false;
  signalfd_siginfo info{};
  while (read(g.signal_fd, &info, sizeof info) == static_cast<ssize_t>(sizeof info)) {
    if (info.ssi_signo != SIGCHLD) stop = true;
  }
  return stop;
}

// Sleeps until a signal arrives or `timeout_ms` passes, then reaps; false once no child is left.
bool wait_a_little(Guardian& g, int64_t timeout_ms) {
  pollfd p{g.signal_fd, POLLIN, 0};
  poll(&p, 1, static_cast<int>(timeout_ms < 0 ? 0 : timeout_ms));
  drain_signals(g);
  return reap(g);
}

// Calls fn(pid) for every child of the guardian: the server's main process while it lives, and
// the orphans re-parented to the guardian as a subreaper (/proc/thread-self/children; the guardian
// is single-threaded, so its thread's children are all its children).
template <typename Fn>
void for_each_child(Fn fn) {
  const int fd = open("/proc/thread-self/children", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  char buffer[1024];
  long pid = 0;
  bool in_number = false;
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (ssize_t i = 0; i < n; ++i) {
      const char c = buffer[i];
      if (c >= '0' && c <= '9') {
        pid = pid * 10 + (c - '0');
        in_number = true;
      } else if (in_number) {
        fn(static_cast<pid_t>(pid));
        pid = 0;
        in_number = false;
      }
    }
  }
  if (in_number) fn(static_cast<pid_t>(pid));
  close(fd);
}

// SIGTERM, once each, to the orphans under the guardian that left the server's process group
// (those in it had the group's SIGTERM).
void terminate_orphans(Guardian& g) {
  for_each_child([&g](pid_t pid) {
    if (pid == g.server || getpgid(pid) == g.server) return;
    for (int i = 0; i < g.terminated_count; ++i) {
      if (g.terminated[i] == pid) return;
    }
    if (g.terminated_count < kMaxRemembered) g.terminated[g.terminated_count++] = pid;
    kill(pid, SIGTERM);
  });
}

void kill_everything(const Guardian& g) {
  kill(-g.server, SIGKILL);
  for_each_child([](pid_t pid) { kill(pid, SIGKILL); });
}

void run_stop_command(Guardian& g) {
  log_line(g.log_fd, "running the stop command");
  // A failed exec is a child that exits with status 127, reaped below as any other.
  const pid_t child = start_child(*g.spec->stop).pid;
  if (child < 0) {
    log_line(g.log_fd, "cannot start the stop command (fork failed)");
    send(g.status_fd, GuardianEvent::kStopCommand, -1);
    return;
  }
  g.stop_child = child;
  const int64_t deadline = monotonic_ms() + g.spec->stop_timeout_ms;
  reap(g);
  for (int64_t left = deadline - monotonic_ms(); !g.stop_reaped && left > 0;
       left = deadline - monotonic_ms()) {
    wait_a_little(g, left < kSliceMs ? left : kSliceMs);
  }
  if (g.stop_reaped) {
    send(g.status_fd, GuardianEvent::kStopCommand, g.stop_status);
    return;
  }
  log_line(g.log_fd, "the stop command did not finish within the stop timeout: SIGKILL");
  kill(-child, SIGKILL);
  kill(child, SIGKILL);
  while (!g.stop_reaped && wait_a_little(g, kSliceMs)) {
  }
  send(g.status_fd, GuardianEvent::kStopCommand, -1);
}

// The stop command, SIGTERM to the group, the stop timeout, SIGKILL to whatever is left, every
// process reaped; then the guardian exits.
[[noreturn]] void stop_and_exit(Guardian& g) {
  if (g.spec->stop != nullptr) run_stop_command(g);
  log_line(g.log_fd, "SIGTERM to process group ", g.server);
  send(g.status_fd, GuardianEvent::kTerminated, 0);
  kill(-g.server, SIGTERM);
  terminate_orphans(g);
  const int64_t deadline = monotonic_ms() + g.spec->stop_timeout_ms;
  bool left = reap(g);
  for (int64_t remaining = deadline - monotonic_ms(); left && remaining > 0;
       remaining = deadline - monotonic_ms()) {
    left = wait_a_little(g, remaining < kSliceMs ? remaining : kSliceMs);
    if (left) terminate_orphans(g);
  }
  if (left) {
    log_line(g.log_fd, "SIGKILL to process group ", g.server,
             " and every process left under it (the stop timeout passed)");
    send(g.status_fd, GuardianEvent::kKilled, 0);
    while (left) {
      kill_everything(g);
      left = wait_a_little(g, kSliceMs);
    }
  }
  log_line(g.log_fd, "every server process is gone");
  send(g.status_fd, GuardianEvent::kAllGone, 0);
  _exit(0);
}

}  // namespace

void run_guardian(const GuardianSpec& spec) {
  // Signals first: from here on SIGTERM (from PR_SET_PDEATHSIG or anyone) waits in the signalfd
  // instead of killing the guardian before it has stopped the server.
  sigset_t signals;
  sigemptyset(&signals);
  for (int s : kSignals) sigaddset(&signals, s);
  sigprocmask(SIG_SETMASK, &signals, nullptr);
  struct sigaction action {};
  sigemptyset(&action.sa_mask);
  action.sa_handler = SIG_DFL;  // SIGCHLD must not be ignored, or children would not be waitable
  for (int s : kSignals) sigaction(s, &action, nullptr);
  action.sa_handler = SIG_IGN;  // a status message to a dead llmperf is EPIPE, not death
  sigaction(SIGPIPE, &action, nullptr);

  setsid();  // out of llmperf's session and terminal: Ctrl-C reaches llmperf only
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != spec.parent) _exit(0);  // llmperf died before the line above: start nothing
  prctl(PR_SET_CHILD_SUBREAPER, 1);

  Guardian g;
  g.spec = &spec;
  g.control_fd = above_stdio(spec.control_fd);
  g.status_fd = above_stdio(spec.status_fd);
  g.log_fd = above_stdio(spec.log_fd);
  const int null_fd = above_stdio(spec.null_fd);
  dup2(null_fd, STDIN_FILENO);  // the server's stdin, stdout and stderr, inherited through fork
  dup2(g.log_fd, STDOUT_FILENO);
  dup2(g.log_fd, STDERR_FILENO);
  g.signal_fd = signalfd(-1, &signals, SFD_CLOEXEC | SFD_NONBLOCK);
  if (g.signal_fd < 0) {
    send(g.status_fd, GuardianEvent::kSpawnFailed, errno);
    _exit(1);
  }
  int keep[] = {g.control_fd, g.status_fd, g.log_fd, null_fd, g.signal_fd};
  close_all_but(keep, static_cast<int>(sizeof keep / sizeof keep[0]));

  // The server's group exists once start_child returns, before anyone signals it; a failed exec
  // is a server that exits with status 127 (kExited).
  const ChildStart server = start_child(*spec.server);
  if (server.pid < 0) {
    send(g.status_fd, GuardianEvent::kSpawnFailed, server.error);
    _exit(1);
  }
  g.server = server.pid;
  send(g.status_fd, GuardianEvent::kStarted, g.server);

  for (;;) {
    pollfd fds[2] = {{g.control_fd, POLLIN, 0}, {g.signal_fd, POLLIN, 0}};
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    bool stop = false;
    if (fds[1].revents != 0) {
      stop = drain_signals(g);
      reap(g);
    }
    if (fds[0].revents != 0) {
      char byte[16];
      const ssize_t n = read(g.control_fd, byte, sizeof byte);
      if (!(n < 0 && errno == EINTR)) stop = true;  // EOF, or a byte: either asks for a stop
    }
    if (stop) break;
  }
  stop_and_exit(g);
}

}  // namespace llmperf
