// The server under test as a process (see server_process.h).
#include "app/tune/server_process.h"

#include "app/programs.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <vector>

#include "app/child_process.h"
#include "app/tune/ports.h"
#include "app/tune/process_guardian.h"
#include "app/tune/ready_probe.h"
#include "app/tune/server_log.h"
#include "core/clock.h"

namespace llmperf {
namespace {

constexpr int64_t kStartReplyMs = 10'000;  // the guardian answers at once; this is a safety net
constexpr int64_t kKillGraceMs = 15'000;   // beyond the timeouts: SIGKILL and reaping
constexpr int64_t kCheckSliceMs = 50;           // longest sleep between checks of a condition

std::string exit_text_of(int wait_status) {
  if (WIFSIGNALED(wait_status)) {
    const int signal = WTERMSIG(wait_status);
    const char* name = sigabbrev_np(signal);
    return name != nullptr ? fmt::format("killed by signal {} (SIG{})", signal, name)
                           : fmt::format("killed by signal {}", signal);
  }
  return fmt::format("exited with status {}", exit_code_of(wait_status));
}

// Waits until `fd` is readable or `timeout_ms` passes (0 when < 0).
void wait_readable(int fd, int64_t timeout_ms) {
  pollfd p{fd, POLLIN, 0};
  poll(&p, fd >= 0 ? 1 : 0, static_cast<int>(std::max<int64_t>(timeout_ms, 0)));
}

std::mutex& registry_mutex() {
  static std::mutex mutex;
  return mutex;
}
std::vector<ServerProcess*>& registry() {
  static std::vector<ServerProcess*> servers;
  return servers;
}

// `sh -c command` as the guardian starts it: the leader of a process group of its own, SIGTERM
// should the guardian die; its streams are the guardian's (/dev/null and server.log).
ChildOptions shell_child(const std::string& command) {
  ChildOptions options;
  options.argv = {"/bin/sh", "-c", command};
  options.new_process_group = true;
  options.parent_death_signal = SIGTERM;
  return options;
}

void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

}  // namespace

const char* to_string(ReadyOutcome outcome) {
  switch (outcome) {
    case ReadyOutcome::kReady:
      return "ready";
    case ReadyOutcome::kExited:
      return "exited";
    case ReadyOutcome::kTimedOut:
      return "timed_out";
    case ReadyOutcome::kInterrupted:
      return "interrupted";
  }
  return "?";
}

ServerProcess::ServerProcess(ServerSpec spec) : spec_(std::move(spec)) {
  if (spec_.command.empty()) throw ServerStartError("cannot start the server: empty command");
  int log_fd = open(spec_.log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log_fd < 0) {
    throw ServerStartError(fmt::format("cannot start the server: cannot open its log {}: {}",
                                       spec_.log_path, std::strerror(errno)));
  }
  // The start line begins the section that server_log.h's readers judge (not the command: it may
  // carry a secret; the study's ledger has it).
  const std::string start_line =
      fmt::format("{} {} port {}\n", kLogStartMarker,
                  wall_clock_text("%Y-%m-%dT%H:%M:%SZ", TimeZone::kUtc), spec_.port);
  [[maybe_unused]] const ssize_t written = write(log_fd, start_line.data(), start_line.size());
  int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
  int control[2] = {-1, -1};
  int status[2] = {-1, -1};
  if (null_fd < 0 || pipe2(control, O_CLOEXEC) != 0 || pipe2(status, O_CLOEXEC) != 0) {
    const int error = errno;
    for (int* fd : {&log_fd, &null_fd, &control[0], &control[1], &status[0], &status[1]}) {
      close_fd(*fd);
    }
    throw ServerStartError(
        fmt::format("cannot start the server: /dev/null or pipe: {}", std::strerror(error)));
  }

  // Everything the guardian uses after fork() is made here, before it.
  const ChildCommand server_child(shell_child(spec_.command));
  std::optional<ChildCommand> stop_child;
  if (!spec_.stop_command.empty()) stop_child.emplace(shell_child(spec_.stop_command));
  GuardianSpec guardian;
  guardian.server = &server_child;
  guardian.stop = stop_child ? &*stop_child : nullptr;
  guardian.control_fd = control[0];
  guardian.status_fd = status[1];
  guardian.log_fd = log_fd;
  guardian.null_fd = null_fd;
  guardian.parent = getpid();
  guardian.stop_timeout_ms = spec_.stop_timeout_ms;

  start_ns_ = now_ns();
  guardian_ = fork();
  if (guardian_ == 0) run_guardian(guardian);
  const int fork_error = errno;
  close_fd(control[0]);
  close_fd(status[1]);
  close_fd(log_fd);
  close_fd(null_fd);
  control_fd_ = control[1];
  status_fd_ = status[0];
  if (guardian_ < 0) {
    stop();
    release();
    throw ServerStartError(
        fmt::format("cannot start the server: fork: {}", std::strerror(fork_error)));
  }
  fcntl(status_fd_, F_SETFL, fcntl(status_fd_, F_GETFL) | O_NONBLOCK);
  guardian_pidfd_ = static_cast<int>(syscall(SYS_pidfd_open, guardian_, 0));

  // The guardian's first word: the server's pid (its group), or why it could not fork it.
  const int64_t deadline = now_ns() + kStartReplyMs * 1'000'000;
  std::unique_lock lock(mutex_);
  while (pgid_ < 0 && !guardian_closed_ && now_ns() < deadline) {
    wait_readable(status_fd_, (deadline - now_ns()) / 1'000'000);
    read_messages_locked();
  }
  lock.unlock();
  if (pgid_ < 0) {
    stop();  // the guardian exits on its own after a failed fork; this reaps it
    release();
    throw ServerStartError(
        "cannot start the server: its guardian process did not start it (fork failed)");
  }
  std::lock_guard registry_lock(registry_mutex());
  registry().push_back(this);
}

ServerProcess::~ServerProcess() {
  {
    std::lock_guard lock(registry_mutex());  // waits for a stop_all_servers() in progress
    std::erase(registry(), this);
  }
  stop();
  release();
}

void ServerProcess::read_messages_locked() {
  for (;;) {
    char buffer[256];
    const ssize_t n = read(status_fd_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) guardian_closed_ = true;
    if (n <= 0) break;
    partial_.append(buffer, static_cast<size_t>(n));
  }
  size_t used = 0;
  for (; used + sizeof(GuardianMessage) <= partial_.size(); used += sizeof(GuardianMessage)) {
    GuardianMessage message;
    std::memcpy(&message, partial_.data() + used, sizeof message);
    switch (message.event) {
      case GuardianEvent::kStarted:
        pgid_ = message.value;
        break;
      case GuardianEvent::kSpawnFailed:
        spdlog::error("cannot start the server: fork: {}", std::strerror(message.value));
        break;
      case GuardianEvent::kExited:
        exit_status_ = message.value;
        break;
      case GuardianEvent::kStopCommand:
        stop_result_.stop_command_ran = true;
        stop_result_.stop_command_status = message.value < 0 ? -1 : exit_code_of(message.value);
        break;
      case GuardianEvent::kTerminated:
        stop_result_.terminated = true;
        break;
      case GuardianEvent::kKilled:
        stop_result_.killed = true;
        break;
      case GuardianEvent::kAllGone:
        all_gone_ = true;
        break;
    }
  }
  partial_.erase(0, used);
}

std::optional<int> ServerProcess::exit_code() {
  std::lock_guard lock(mutex_);
  read_messages_locked();
  if (!exit_status_) return std::nullopt;
  return exit_code_of(*exit_status_);
}

std::string ServerProcess::ready_url(const char* path) const {
  return fmt::format("http://{}:{}{}", spec_.host, spec_.port, path);
}

ReadyResult ServerProcess::wait_ready(const ReadyOptions& options) {
  ReadyResult result;
  const auto finish = [&](ReadyOutcome outcome) {
    result.outcome = outcome;
    result.elapsed_s = static_cast<double>(now_ns() - start_ns_) / 1e9;
    return result;
  };
  const auto interrupted = [&] {
    return stopping_.load() || (options.interrupted && options.interrupted());
  };
  // The main process exited, or the guardian is gone (killed): either way no server is coming.
  const auto exited = [&]() -> bool {
    std::lock_guard lock(mutex_);
    if (stopping_) return false;  // stopped meanwhile: interrupted, whatever the exit
    read_messages_locked();
    if (exit_status_) {
      result.exit_code = exit_code_of(*exit_status_);
      result.exit_text = exit_text_of(*exit_status_);
    } else if (guardian_closed_) {
      result.exit_text = "lost its guardian process (killed?)";
    } else {
      return false;
    }
    return true;
  };
  const int64_t deadline = start_ns_ + options.timeout_ms * 1'000'000;
  std::optional<ReadyProbe> probe;
  if (spec_.port > 0) probe.emplace();
  std::string last_answer = fmt::format("nothing answered on {}:{}", spec_.host, spec_.port);

  for (;;) {
    if (exited()) {
      result.error_line = first_error_line(spec_.log_path);
      result.reason = !result.error_line.empty()
                          ? result.error_line
                          : fmt::format("the server {} before it was ready", result.exit_text);
      return finish(ReadyOutcome::kExited);
    }
    if (interrupted()) {
      result.reason = "interrupted";
      return finish(ReadyOutcome::kInterrupted);
    }
    if (now_ns() >= deadline) {
      result.reason = fmt::format("not ready after {:g} s ({})",
                                  static_cast<double>(options.timeout_ms) / 1000.0, last_answer);
      return finish(ReadyOutcome::kTimedOut);
    }
    if (probe) {
      const int64_t left_ms = (deadline - now_ns()) / 1'000'000;
      const int64_t probe_ms = std::clamp<int64_t>(left_ms, 1, options.probe_timeout_ms);
      for (const char* path : {"/health", "/v1/models"}) {
        const ReadyProbe::Result got =
            probe->get(ready_url(path), probe_ms, status_fd_, interrupted);
        if (got.status >= 200 && got.status < 300) {
          result.endpoint = path;
          return finish(ReadyOutcome::kReady);
        }
        if (got.status != 0) last_answer = fmt::format("GET {} answered {}", path, got.status);
        // /v1/models only where /health does not exist (llama.cpp answers 503 to both while it
        // loads; other servers may list their models before they can serve them).
        if (got.cut || !(got.status == 404 || got.status == 405 || got.status == 501)) break;
      }
    }
    // The pause between probes, cut short by the guardian's news or an interrupt.
    const int64_t pause_end = std::min(deadline, now_ns() + options.poll_interval_ms * 1'000'000);
    while (now_ns() < pause_end && !interrupted()) {
      wait_readable(status_fd_, std::min<int64_t>(kCheckSliceMs, (pause_end - now_ns()) / 1'000'000));
      if (exited()) break;
    }
  }
}

StopResult ServerProcess::stop() {
  std::lock_guard lock(mutex_);
  if (stopped_) return stop_result_;
  stopping_ = true;
  const int64_t start = now_ns();
  close_fd(control_fd_);  // the guardian reads EOF: stop command, SIGTERM, SIGKILL, reap

  const int64_t budget_ms =
      (spec_.stop_command.empty() ? 1 : 2) * spec_.stop_timeout_ms + kKillGraceMs;
  const int64_t deadline = start + budget_ms * 1'000'000;
  read_messages_locked();
  while (!guardian_closed_ && now_ns() < deadline) {
    wait_readable(status_fd_, std::min<int64_t>(1000, (deadline - now_ns()) / 1'000'000));
    read_messages_locked();
  }
  if (guardian_ > 0 && guardian_closed_ && !guardian_reaped_) {  // it is exiting: reap it
    wait_readable(guardian_pidfd_, 2000);
    int status = 0;
    guardian_reaped_ = waitpid(guardian_, &status, guardian_pidfd_ >= 0 ? WNOHANG : 0) == guardian_;
  }
  StopResult& result = stop_result_;
  result.gone = all_gone_;
  if (!all_gone_ && pgid_ > 0) result.gone = stop_group_without_guardian();
  if (exit_status_) result.exit_code = exit_code_of(*exit_status_);

  result.port_free = port_free_after_stop();
  result.elapsed_s = static_cast<double>(now_ns() - start) / 1e9;
  stopped_ = true;
  return result;
}

bool ServerProcess::port_free_after_stop() {
  if (spec_.port <= 0) return true;
  if (!spec_.fixed_port) {
    // The next trial gets a port of its own: connections in TIME_WAIT here hold nothing it needs.
    if (port_sockets(spec_.port).listening == 0) return true;
    spdlog::warn(
        "port {}: something still listens on it after every process of the server is "
        "gone (a program that the server started outside its process group?)",
        spec_.port);
    return false;
  }
  // The user's command binds this port again in the next trial.
  const int64_t start = now_ns();
  const int64_t deadline = start + spec_.port_free_timeout_ms * 1'000'000;
  bool said_why = false;
  for (;;) {
    if (port_is_free(spec_.port, spec_.host)) {
      if (said_why) {
        const std::string text =
            fmt::format("port {} can be bound again after {:.1f} s", spec_.port,
                        static_cast<double>(now_ns() - start) / 1e9);
        spdlog::info("{}", text);
        append_log_line(text);
      }
      return true;
    }
    const PortSockets sockets = port_sockets(spec_.port);
    if (sockets.listening > 0) {
      spdlog::warn(
          "port {}, fixed by --serve: something still listens on it after every process "
          "of the server is gone; the next server may not get it",
          spec_.port);
      return false;
    }
    if (!said_why) {
      const std::string text =
          sockets.time_wait > 0
              ? fmt::format(
                    "port {} is fixed by --serve, and {} connection(s) that the server "
                    "closed are in TIME_WAIT on it, which keeps a server that binds as "
                    "this one did from binding it for up to 60 s: waiting until it can",
                    spec_.port, sockets.time_wait)
              : fmt::format(
                    "port {} is fixed by --serve and cannot be bound yet, although "
                    "nothing listens on it: waiting until it can",
                    spec_.port);
      spdlog::info("{}", text);
      append_log_line(text);
      said_why = true;
    }
    // After the why, so that the log says it even when the deadline has passed already (a busy
    // machine can take longer than a short --port-free-timeout between two checks).
    if (now_ns() >= deadline) {
      spdlog::warn(
          "port {}, fixed by --serve, still cannot be bound {:.1f} s after the server "
          "stopped; the next server may not get it",
          spec_.port, static_cast<double>(spec_.port_free_timeout_ms) / 1000.0);
      return false;
    }
    // Polling: nothing announces the end of TIME_WAIT.
    poll(nullptr, 0, static_cast<int>(kCheckSliceMs));
  }
}

void ServerProcess::append_log_line(const std::string& text) const {
  const int fd = open(spec_.log_path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) return;
  const std::string line = fmt::format("{} {}\n", kLogStopMarker, text);
  [[maybe_unused]] const ssize_t written = write(fd, line.data(), line.size());
  close(fd);
}

bool ServerProcess::stop_group_without_guardian() {
  // The guardian died before it had stopped everything (someone killed it; the server's main
  // process had SIGTERM from PR_SET_PDEATHSIG, its other processes nothing), or it is still at it
  // after its budget (a process stuck in the kernel). What it would have done, from here, on the
  // group alone: its orphans outside the group are out of reach now.
  const auto group_gone = [this] { return kill(-pgid_, 0) != 0 && errno == ESRCH; };
  const auto wait_gone = [&](int64_t timeout_ms) {
    const int64_t deadline = now_ns() + timeout_ms * 1'000'000;
    while (!group_gone() && now_ns() < deadline) poll(nullptr, 0, static_cast<int>(kCheckSliceMs));
    return group_gone();
  };
  if (group_gone()) return true;
  spdlog::warn("server (process group {}): its guardian {}; stopping the group from llmperf", pgid_,
               guardian_closed_ ? "exited before it had stopped everything"
                                : "has not finished stopping it in time");
  if (guardian_closed_) {
    kill(-pgid_, SIGTERM);
    stop_result_.terminated = true;
    if (wait_gone(spec_.stop_timeout_ms)) return true;
  }
  kill(-pgid_, SIGKILL);
  stop_result_.killed = true;
  return wait_gone(kKillGraceMs);
}

void ServerProcess::release() {
  close_fd(control_fd_);
  if (guardian_ > 0 && !guardian_reaped_) {
    int status = 0;
    guardian_reaped_ = waitpid(guardian_, &status, WNOHANG) == guardian_;
  }
  close_fd(status_fd_);
  close_fd(guardian_pidfd_);
}

void stop_all_servers() {
  std::lock_guard lock(registry_mutex());
  for (ServerProcess* server : registry()) server->stop();
}

}  // namespace llmperf
