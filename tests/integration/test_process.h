// Process helpers for integration tests: run the real llmperf binary to completion, and keep
// llmperf-mock running in the background on an ephemeral loopback port.
#pragma once

#include <sys/types.h>

#include <cstdlib>
#include <string>
#include <vector>

// The llmperf binary the integration tests run: LLMPERF_TEST_BIN when the environment sets it
// (tests/CMakeLists.txt: LLMPERF_TEST_TUNE_BIN), else this build's.
#define LLMPERF_BIN ::llmperf::testing::llmperf_bin()

namespace llmperf::testing {

inline const char* llmperf_bin() {
  const char* bin = std::getenv("LLMPERF_TEST_BIN");
  return bin != nullptr && *bin != '\0' ? bin : LLMPERF_BIN_PATH;
}

struct ProcessResult {
  int exit_code = -1;      // exit status, or 128 + signal number
  bool timed_out = false;  // killed after the timeout
  std::string out;         // everything written to stdout
  std::string err;         // everything written to stderr
};

// Runs argv[0] with arguments in `cwd` ("" = current), waiting at most timeout_s seconds.
ProcessResult run_process(const std::vector<std::string>& argv, int timeout_s,
                          const std::string& cwd = "");

// A child process whose stdout is a pipe and whose stderr goes to a file.
class BackgroundProcess {
 public:
  explicit BackgroundProcess(const std::vector<std::string>& argv, const std::string& cwd = "");
  ~BackgroundProcess();  // SIGKILL if still running
  BackgroundProcess(const BackgroundProcess&) = delete;
  BackgroundProcess& operator=(const BackgroundProcess&) = delete;

  // Reads one line from the child's stdout, waiting at most timeout_s; "" on timeout or EOF.
  std::string read_line(int timeout_s);
  // Waits until the child's stderr file contains `text`; false after timeout_s.
  bool wait_for_stderr(const std::string& text, int timeout_s);
  void signal(int signal_number);
  // Waits for exit; returns the exit code (128 + signal when killed), -1 on timeout.
  int wait(int timeout_s);
  std::string stderr_text() const;
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
  int pidfd_ = -1;
  int stdout_fd_ = -1;
  std::string stderr_path_;
  std::string buffered_;
  bool reaped_ = false;
  int exit_code_ = -1;
};

// llmperf-mock started with `args` on port 0; url() is its chat completions endpoint.
class MockServer {
 public:
  explicit MockServer(const std::vector<std::string>& args);
  int port() const { return port_; }
  std::string base() const;  // http://127.0.0.1:<port>
  std::string chat_url() const { return base() + "/v1/chat/completions"; }
  BackgroundProcess& process() { return process_; }

 private:
  BackgroundProcess process_;
  int port_ = 0;
};

std::string make_temp_dir();
std::string read_file(const std::string& path);

}  // namespace llmperf::testing
