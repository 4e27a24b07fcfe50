// llmperf-mock as a child process of `llmperf calibrate`: found next to llmperf or on PATH,
// started on an ephemeral loopback port (optionally pinned to one CPU), stopped with SIGTERM so
// that it saves its event log, and killed on every other way out (the destructor, and
// PR_SET_PDEATHSIG should llmperf itself die).
#pragma once

#include <sys/types.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace llmperf {

// The mock could not be found or started; what() names the path tried and why.
class MockStartError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `given` when not empty (checked to be executable), else llmperf-mock in the directory of the
// running executable (/proc/self/exe), else the first on $PATH. Throws MockStartError naming
// every path tried.
std::string find_mock_binary(const std::string& given);

class MockProcess {
 public:
  // Starts `path` with `args` plus --host 127.0.0.1 --port 0 and waits (at most 20 s) for its
  // "listening on" line. `cpu` >= 0 pins it to that CPU. The child runs in its own process
  // group, so a Ctrl-C at the terminal reaches llmperf only, which then stops it. Throws
  // MockStartError.
  MockProcess(const std::string& path, const std::vector<std::string>& args, int cpu);
  ~MockProcess();  // SIGKILL and reap when still running
  MockProcess(const MockProcess&) = delete;
  MockProcess& operator=(const MockProcess&) = delete;

  int port() const { return port_; }

  // SIGTERM, then waits at most timeout_s for the exit (the mock writes its event log on the way
  // out); returns its exit code, or -1 when it had to be killed.
  int stop(int timeout_s);

 private:
  bool wait_exit(int timeout_ms, int& exit_code);
  void release();  // kills and reaps the child if still running, closes the descriptors

  pid_t pid_ = -1;
  int pidfd_ = -1;
  int stdout_fd_ = -1;
  bool reaped_ = false;
  int port_ = 0;
};

}  // namespace llmperf
