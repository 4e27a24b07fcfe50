// llmperf-mock as a child process (see mock_process.h).
#include "app/calibrate/mock_process.h"

#include "app/programs.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <utility>

#include "app/child_process.h"
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
  int out_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) throw MockStartError("cannot start llmperf-mock: pipe");
  ChildOptions options;
  options.argv = {path, "--host", "127.0.0.1", "--port", "0"};
  options.argv.insert(options.argv.end(), args.begin(), args.end());
  options.stdin_fd = kChildDevNull;
  options.stdout_fd = out_pipe[1];
  options.new_process_group = true;
  options.parent_death_signal = SIGTERM;
  options.cpu = cpu;
  const ChildCommand command(std::move(options));
  const ChildStart started = start_child(command);
  close(out_pipe[1]);
  if (started.pid < 0) {
    close(out_pipe[0]);
    throw MockStartError(
        fmt::format("cannot start {}: fork: {}", path, std::strerror(started.error)));
  }
  pid_ = started.pid;
  stdout_fd_ = out_pipe[0];
  pidfd_ = static_cast<int>(syscall(SYS_pidfd_open, pid_, 0));
  if (started.error != 0) {
    release();
    throw MockStartError(
        fmt::format("cannot start llmperf-mock {}: {}", path, std::strerror(started.error)));
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
