// Process helpers for integration tests (see test_process.h). Waiting uses pidfd + poll, so no
// test sleeps to synchronise with a child.
#include "test_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "core/clock.h"

namespace llmperf::testing {
namespace {

int pidfd_open(pid_t pid) { return static_cast<int>(syscall(SYS_pidfd_open, pid, 0)); }

// posix_spawn rather than fork: the test processes run under AddressSanitizer, whose fork copies
// the page tables of its shadow memory (9 ms of system time per start for a test process of
// 200 MB, against 2 ms; the suite starts a few thousand processes).
pid_t spawn(const std::vector<std::string>& argv, const std::string& cwd, int stdout_fd,
            int stderr_fd) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  posix_spawn_file_actions_adddup2(&actions, stdout_fd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, stderr_fd, STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  pid_t pid = -1;
  const int error = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) {
    throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(error));
  }
  return pid;
}

int decode_status(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

// Waits for the child behind pidfd; returns false on timeout.
bool wait_pidfd(int pidfd, int timeout_s) {
  pollfd p{pidfd, POLLIN, 0};
  return poll(&p, 1, timeout_s * 1000) == 1;
}

}  // namespace

namespace {

// The directories make_temp_dir made in this process. Removed once every test of the process has
// run and passed; a failure keeps them all (its message may name a file in one), as does
// LLMPERF_KEEP_TEST_DIRS=1.
class TempDirs : public ::testing::Environment {
 public:
  static TempDirs& instance() {
    static TempDirs* dirs = [] {
      auto* made = new TempDirs;
      ::testing::AddGlobalTestEnvironment(made);  // gtest owns it
      return made;
    }();
    return *dirs;
  }
  void add(std::string dir) {
    std::lock_guard lock(mutex_);
    dirs_.push_back(std::move(dir));
  }
  void TearDown() override {
    const char* keep = std::getenv("LLMPERF_KEEP_TEST_DIRS");
    if (!::testing::UnitTest::GetInstance()->Passed() || (keep != nullptr && *keep != '\0')) {
      return;
    }
    std::lock_guard lock(mutex_);
    for (const std::string& dir : dirs_) {
      std::error_code ignored;  // a directory a test removed itself, or a server still writing
      std::filesystem::remove_all(dir, ignored);
    }
    dirs_.clear();
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> dirs_;  // guarded by mutex_
};

// Registered before the tests run (AddGlobalTestEnvironment must be called before
// RUN_ALL_TESTS for TearDown to run).
[[maybe_unused]] const TempDirs& kTempDirs = TempDirs::instance();

}  // namespace

std::string make_temp_dir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "llmperf-test-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  TempDirs::instance().add(pattern);
  return pattern;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

ProcessResult run_process(const std::vector<std::string>& argv, int timeout_s,
                          const std::string& cwd) {
  const std::string dir = make_temp_dir();
  const std::string out_path = dir + "/stdout";
  const std::string err_path = dir + "/stderr";
  const int out_fd = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  const int err_fd = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  const pid_t pid = spawn(argv, cwd, out_fd, err_fd);
  close(out_fd);
  close(err_fd);
  const int pidfd = pidfd_open(pid);
  ProcessResult result;
  if (!wait_pidfd(pidfd, timeout_s)) {
    result.timed_out = true;
    kill(pid, SIGKILL);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  close(pidfd);
  result.exit_code = decode_status(status);
  result.out = read_file(out_path);
  result.err = read_file(err_path);
  std::filesystem::remove_all(dir);
  return result;
}

BackgroundProcess::BackgroundProcess(const std::vector<std::string>& argv, const std::string& cwd) {
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  stderr_path_ = make_temp_dir() + "/stderr";
  const int err_fd = open(stderr_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  pid_ = spawn(argv, cwd, pipe_fds[1], err_fd);
  close(pipe_fds[1]);
  close(err_fd);
  stdout_fd_ = pipe_fds[0];
  pidfd_ = pidfd_open(pid_);
}

BackgroundProcess::~BackgroundProcess() {
  if (!reaped_) {
    kill(pid_, SIGKILL);
    wait(10);
  }
  close(stdout_fd_);
  close(pidfd_);
  std::filesystem::remove_all(std::filesystem::path(stderr_path_).parent_path());
}

std::string BackgroundProcess::read_line(int timeout_s) {
  const int64_t deadline = now_ns() + int64_t{timeout_s} * 1'000'000'000;
  while (true) {
    const size_t newline = buffered_.find('\n');
    if (newline != std::string::npos) {
      std::string line = buffered_.substr(0, newline);
      buffered_.erase(0, newline + 1);
      return line;
    }
    const int64_t left_ms = (deadline - now_ns()) / 1'000'000;
    if (left_ms <= 0) return "";
    pollfd p{stdout_fd_, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left_ms)) != 1) return "";
    char chunk[4096];
    const ssize_t n = read(stdout_fd_, chunk, sizeof chunk);
    if (n <= 0) return "";
    buffered_.append(chunk, static_cast<size_t>(n));
  }
}

bool BackgroundProcess::wait_for_stderr(const std::string& text, int timeout_s) {
  // The child writes stderr to a regular file, which cannot be polled for new data: re-read it
  // every few milliseconds until the text appears or the child exits.
  const int64_t deadline = now_ns() + int64_t{timeout_s} * 1'000'000'000;
  while (now_ns() < deadline) {
    if (stderr_text().find(text) != std::string::npos) return true;
    pollfd p{pidfd_, POLLIN, 0};
    if (poll(&p, 1, 5) == 1) return stderr_text().find(text) != std::string::npos;
  }
  return false;
}

void BackgroundProcess::signal(int signal_number) { kill(pid_, signal_number); }

int BackgroundProcess::wait(int timeout_s) {
  if (reaped_) return exit_code_;
  if (!wait_pidfd(pidfd_, timeout_s)) return -1;
  int status = 0;
  waitpid(pid_, &status, 0);
  reaped_ = true;
  exit_code_ = decode_status(status);
  return exit_code_;
}

std::string BackgroundProcess::stderr_text() const { return read_file(stderr_path_); }

MockServer::MockServer(const std::vector<std::string>& args)
    : process_([&] {
        std::vector<std::string> argv = {LLMPERF_MOCK_BIN, "--port", "0"};
        argv.insert(argv.end(), args.begin(), args.end());
        return argv;
      }()) {
  const std::string line = process_.read_line(20);
  const size_t colon = line.rfind(':');
  if (line.find("listening on") == std::string::npos || colon == std::string::npos) {
    throw std::runtime_error("llmperf-mock did not start: '" + line + "' " +
                             process_.stderr_text());
  }
  port_ = std::atoi(line.c_str() + colon + 1);
}

std::string MockServer::base() const { return "http://127.0.0.1:" + std::to_string(port_); }

}  // namespace llmperf::testing
