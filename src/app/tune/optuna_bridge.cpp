// The Optuna bridge's process (optuna_bridge.h): started with start_child, its stdin and stdout
// on pipes, ended by closing its stdin (it exits at end of input), SIGKILL after a grace period.
#include "app/tune/optuna_bridge.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "app/child_process.h"
#include "app/programs.h"
#include "core/clock.h"

namespace llmperf {
namespace {

constexpr int kHelloTimeoutMs = 120'000;   // importing Optuna (numpy, scipy, sqlalchemy) cold
constexpr int kAnswerTimeoutMs = 600'000;  // one ask or tell; TPE takes milliseconds
constexpr int kExitGraceMs = 5'000;        // from closing its stdin to SIGKILL
constexpr const char* kSystemPython = "/usr/bin/python3";

}  // namespace

std::string find_optuna_bridge() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  std::vector<std::string> tried;
  if (!ec) {
    for (const std::filesystem::path& dir :
         {self.parent_path().parent_path() / "share" / "llmperf",
          self.parent_path() / "share" / "llmperf"}) {
      const std::string path = (dir / "optuna_bridge.py").lexically_normal().string();
      if (std::filesystem::is_regular_file(path, ec)) return path;
      tried.push_back(path);
    }
  }
  std::string list;
  for (const std::string& path : tried) list += (list.empty() ? "" : ", ") + path;
  throw std::runtime_error(fmt::format(
      "cannot find llmperf's Optuna bridge optuna_bridge.py (tried {}): reinstall llmperf",
      list.empty() ? std::string("nothing: /proc/self/exe is unreadable") : list));
}

OptunaBridge::OptunaBridge(const std::string& python) {
  const std::string script = find_optuna_bridge();
  std::vector<std::pair<std::string, std::string>> candidates;  // path, what it is
  if (!python.empty()) {
    candidates.emplace_back(find_on_path(python), python);
  } else {
    candidates.emplace_back(find_on_path("python3"), "python3 on $PATH");
    candidates.emplace_back(kSystemPython, kSystemPython);
  }
  std::vector<std::string> tried;
  for (const auto& [path, what] : candidates) {
    if (path.empty()) {
      tried.push_back(fmt::format("{}: not found", what));
      continue;
    }
    if (!tried.empty() && candidates.front().first == path) continue;  // the same Python again
    std::string why;
    if (start(path, script, why)) {
      python_ = path;
      break;
    }
    tried.push_back(fmt::format("{} ({}): {}", what, path, why));
  }
  std::string list;
  for (const std::string& line : tried) list += "\n  " + line;
  if (python_.empty()) {
    throw std::invalid_argument(fmt::format(
        "--strategy: the learned searches need Optuna, and no Python here imports it:{}\n"
        "Install Debian's python3-optuna (apt-get install python3-optuna), or name a Python that "
        "has Optuna with --python PATH",
        list));
  }
  if (!tried.empty()) passed_over_ = list.substr(3);
}

OptunaBridge::~OptunaBridge() { stop(); }

bool OptunaBridge::start(const std::string& python, const std::string& script, std::string& why) {
  int in_pipe[2];   // the child's stdin
  int out_pipe[2];  // the child's stdout
  if (pipe2(in_pipe, O_CLOEXEC) != 0) throw std::runtime_error("the Optuna bridge: pipe");
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    close(in_pipe[0]);
    close(in_pipe[1]);
    throw std::runtime_error("the Optuna bridge: pipe");
  }
  ChildOptions options;
  options.argv = {python, script};
  options.stdin_fd = in_pipe[0];
  options.stdout_fd = out_pipe[1];
  options.parent_death_signal = SIGTERM;
  const ChildCommand command(std::move(options));
  const ChildStart started = start_child(command);
  close(in_pipe[0]);
  close(out_pipe[1]);
  to_child_ = in_pipe[1];
  from_child_ = out_pipe[0];
  pid_ = started.pid;
  buffer_.clear();
  if (started.pid < 0 || started.error != 0) {
    why = fmt::format("cannot run it: {}", std::strerror(started.error));
    stop();
    return false;
  }
  std::string line;
  try {
    line = read_line(kHelloTimeoutMs);
  } catch (const std::runtime_error& error) {
    why = error.what();
    stop();
    return false;
  }
  BridgeHello hello;
  try {
    hello = parse_bridge_hello(line);
  } catch (const std::invalid_argument& error) {
    why = error.what();
    stop();
    return false;
  }
  if (!hello.ready) {
    why = hello.error.empty() ? std::string("cannot import optuna") : hello.error;
    stop();
    return false;
  }
  optuna_ = hello.optuna;
  return true;
}

std::string OptunaBridge::read_line(int timeout_ms) {
  const int64_t deadline = now_ns() + int64_t{timeout_ms} * 1'000'000;
  while (true) {
    if (const size_t end = buffer_.find('\n'); end != std::string::npos) {
      std::string line = buffer_.substr(0, end);
      buffer_.erase(0, end + 1);
      return line;
    }
    const int64_t left_ms = (deadline - now_ns()) / 1'000'000;
    if (left_ms <= 0) throw std::runtime_error("the Optuna bridge did not answer in time");
    pollfd p{from_child_, POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(left_ms));
    if (ready < 0 && errno == EINTR) continue;
    if (ready != 1) continue;
    char chunk[4096];
    const ssize_t n = read(from_child_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error("the Optuna bridge exited (its messages are above)");
    buffer_.append(chunk, static_cast<size_t>(n));
  }
}

std::string OptunaBridge::request(const std::string& line) {
  const std::string text = line + "\n";
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(to_child_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error("the Optuna bridge exited (its messages are above)");
    done += static_cast<size_t>(n);
  }
  return read_line(kAnswerTimeoutMs);
}

void OptunaBridge::stop() {
  if (to_child_ >= 0) close(to_child_);
  to_child_ = -1;
  if (pid_ > 0) {
    // It exits at the end of its input; a bridge stuck in a computation is killed.
    int status = 0;
    const int64_t deadline = now_ns() + int64_t{kExitGraceMs} * 1'000'000;
    while (waitpid(pid_, &status, WNOHANG) == 0) {
      if (now_ns() > deadline) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
        break;
      }
      usleep(10'000);
    }
  }
  pid_ = -1;
  if (from_child_ >= 0) close(from_child_);
  from_child_ = -1;
}

}  // namespace llmperf
