// llmperf-mock as a child process (see mock_process.h).
#include "app/calibrate/mock_process.h"

#include "app/programs.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string_view>

#include "core/clock.h"

namespace llmperf {
namespace {

constexpr int kStartTimeoutMs = 20'000;

}  // namespace

std::string find_mock_binary(const std::string& given) {
  if (!given.empty()) {
    if (is_executable_file(given)) return given;
    throw MockStartError(
        fmt::format("cannot start llmperf-mock: {} is not an executable file (--mock)", given));
  }
  std::vector<std::string> tried;
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::string beside = (self.parent_path() / "llmperf-mock").string();
    if (is_executable_file(beside)) return beside;
    tried.push_back(beside);
  }
  if (const std::string on_path = find_on_path("llmperf-mock"); !on_path.empty()) return on_path;
  tried.push_back("llmperf-mock on $PATH");
  std::string list;
  for (const std::string& t : tried) list += (list.empty() ? "" : ", ") + t;
  throw MockStartError(fmt::format(
      "cannot find llmperf-mock (tried {}): build it (ninja llmperf-mock) or pass --mock PATH",
      list));
}

MockProcess::MockProcess(const std::string& path, const std::vector<std::string>& args, int cpu) {
  std::vector<std::string> argv = {path, "--host", "127.0.0.1", "--port", "0"};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> c_argv;
  for (std::string& a : argv) c_argv.push_back(a.data());
  c_argv.push_back(nullptr);

  int out_pipe[2];
  int error_pipe[2];  // the child's errno when exec fails; closed by a successful exec
  if (pipe2(out_pipe, O_CLOEXEC) != 0) throw MockStartError("cannot start llmperf-mock: pipe");
  if (pipe2(error_pipe, O_CLOEXEC) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    throw MockStartError("cannot start llmperf-mock: pipe");
  }
  const pid_t parent = getpid();
  pid_ = fork();
  if (pid_ < 0) {
    for (int fd : {out_pipe[0], out_pipe[1], error_pipe[0], error_pipe[1]}) close(fd);
    throw MockStartError(fmt::format("cannot start {}: fork: {}", path, std::strerror(errno)));
  }
  if (pid_ == 0) {  // child: only async-signal-safe calls until exec
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) _exit(126);
    if (cpu >= 0) {
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(cpu, &set);
      sched_setaffinity(0, sizeof set, &set);
    }
    dup2(out_pipe[1], STDOUT_FILENO);
    const int null_fd = open("/dev/null", O_RDONLY);
    if (null_fd >= 0) dup2(null_fd, STDIN_FILENO);
    execv(c_argv[0], c_argv.data());
    const int error = errno;
    [[maybe_unused]] const ssize_t n = write(error_pipe[1], &error, sizeof error);
    _exit(127);
  }
  close(out_pipe[1]);
  close(error_pipe[1]);
  stdout_fd_ = out_pipe[0];
  pidfd_ = static_cast<int>(syscall(SYS_pidfd_open, pid_, 0));

  int exec_error = 0;
  const ssize_t got = read(error_pipe[0], &exec_error, sizeof exec_error);
  close(error_pipe[0]);
  if (got == static_cast<ssize_t>(sizeof exec_error)) {
    release();
    throw MockStartError(
        fmt::format("cannot start llmperf-mock {}: {}", path, std::strerror(exec_error)));
  }
  // The first stdout line: "llmperf-mock listening on http://127.0.0.1:<port>".
  std::string line;
  const int64_t deadline = now_ns() + int64_t{kStartTimeoutMs} * 1'000'000;
  while (line.find('\n') == std::string::npos) {
    const int64_t left_ms = (deadline - now_ns()) / 1'000'000;
    pollfd p{stdout_fd_, POLLIN, 0};
    if (left_ms <= 0 || poll(&p, 1, static_cast<int>(left_ms)) != 1) break;
    char chunk[256];
    const ssize_t n = read(stdout_fd_, chunk, sizeof chunk);
    if (n <= 0) break;
    line.append(chunk, static_cast<size_t>(n));
  }
  const size_t colon = line.rfind(':');
  if (line.find("listening on") == std::string::npos || colon == std::string::npos) {
    release();
    throw MockStartError(
        fmt::format("llmperf-mock {} did not start (its first line: '{}'; see its messages above)",
                    path, line.substr(0, line.find('\n'))));
  }
  port_ = std::atoi(line.c_str() + colon + 1);
}

bool MockProcess::wait_exit(int timeout_ms, int& exit_code) {
  if (reaped_) return true;
  if (pidfd_ >= 0) {
    pollfd p{pidfd_, POLLIN, 0};
    if (poll(&p, 1, timeout_ms) != 1) return false;
  }
  int status = 0;
  if (waitpid(pid_, &status, 0) != pid_) return false;
  reaped_ = true;
  exit_code = exit_code_of(status);
  return true;
}

int MockProcess::stop(int timeout_s) {
  int code = -1;
  if (reaped_) return code;
  kill(pid_, SIGTERM);
  if (wait_exit(timeout_s * 1000, code)) return code;
  kill(pid_, SIGKILL);
  wait_exit(10'000, code);
  return -1;
}

void MockProcess::release() {
  if (pid_ > 0 && !reaped_) {
    kill(pid_, SIGKILL);
    int code = 0;
    wait_exit(10'000, code);
  }
  if (stdout_fd_ >= 0) close(stdout_fd_);
  if (pidfd_ >= 0) close(pidfd_);
  stdout_fd_ = -1;
  pidfd_ = -1;
}

MockProcess::~MockProcess() { release(); }

}  // namespace llmperf
