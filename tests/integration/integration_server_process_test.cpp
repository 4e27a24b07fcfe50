// The server under test as a process (`llmperf tune`'s ServerProcess): started through sh -c in a
// group of its own, ready on /health (llmperf-mock) or /v1/models, a start failure reported at
// once with its error line, a ready timeout, SIGKILL after the stop timeout for a server that
// ignores SIGTERM, the stop command, descendants that fork or leave the group, and no server left
// when llmperf (a stand-in child process) is SIGKILLed. Servers are shell scripts written into a
// temporary directory; every wait is for a condition, with a deadline.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <netinet/in.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "app/tune/gpu_sampler.h"
#include "app/tune/ports.h"
#include "app/tune/server_log.h"
#include "app/tune/server_process.h"
#include "core/clock.h"
#include "test_process.h"

namespace llmperf {
namespace {

using testing::make_temp_dir;
using testing::read_file;

// True once `condition()` holds, false if it still does not after `timeout_ms`.
bool sp_eventually(const std::function<bool()>& condition, int64_t timeout_ms) {
  const int64_t deadline = now_ns() + timeout_ms * 1'000'000;
  while (!condition()) {
    if (now_ns() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));  // polling a condition, bounded
  }
  return true;
}

ReadyOptions sp_ready(int64_t timeout_ms, int64_t poll_interval_ms = 250) {
  ReadyOptions options;
  options.timeout_ms = timeout_ms;
  options.poll_interval_ms = poll_interval_ms;
  return options;
}

bool sp_group_gone(pid_t pgid) { return kill(-pgid, 0) != 0 && errno == ESRCH; }
bool sp_process_gone(pid_t pid) { return kill(pid, 0) != 0 && errno == ESRCH; }

// Gone, or a zombie waiting for init to reap it (not running any more either way).
bool sp_process_dead(pid_t pid) {
  if (sp_process_gone(pid)) return true;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  std::getline(stat, text);
  const size_t paren = text.rfind(')');
  return paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] == 'Z';
}

std::string sp_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

class ServerProcessTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = make_temp_dir(); }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // A shell script `name` in the test's directory, run as the server's command.
  std::string script(const std::string& name, const std::string& body) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << "#!/bin/sh\ncd " << sp_quote(dir_) << "\n" << body;
    chmod(path.c_str(), 0755);
    return "exec " + sp_quote(path);
  }
  ServerSpec spec(const std::string& command, int port = 0) {
    ServerSpec s;
    s.command = command;
    s.log_path = log_path();
    s.port = port;
    s.stop_timeout_ms = 5'000;
    return s;
  }
  std::string log_path() const { return dir_ + "/server.log"; }
  std::string log() const { return read_file(log_path()); }
  // Waits until server.log holds `text` (the script reached that point).
  bool log_has(const std::string& text, int64_t timeout_ms = 10'000) const {
    return sp_eventually([&] { return log().find(text) != std::string::npos; }, timeout_ms);
  }
  pid_t read_pid(const std::string& name) const {
    pid_t pid = 0;
    sp_eventually(
        [&] {
          std::ifstream in(dir_ + "/" + name);
          return static_cast<bool>(in >> pid) && pid > 0;
        },
        10'000);
    return pid;
  }

  std::string dir_;
};

TEST_F(ServerProcessTest, MockServerGetsReadyAndStopsWithItsPortFree) {
  const int port = pick_free_port();
  ASSERT_TRUE(port_is_free(port));
  ServerProcess server(spec(
      fmt::format("exec {} --host 127.0.0.1 --port {}", sp_quote(LLMPERF_MOCK_BIN), port), port));
  const pid_t pgid = server.process_group();
  ASSERT_GT(pgid, 0);
  EXPECT_NE(pgid, getpgrp());

  const ReadyResult ready = server.wait_ready(sp_ready(30'000, 20));
  ASSERT_EQ(ready.outcome, ReadyOutcome::kReady) << ready.reason << "\n" << log();
  EXPECT_EQ(ready.endpoint, "/health");
  EXPECT_GT(ready.elapsed_s, 0.0);
  EXPECT_LT(ready.elapsed_s, 30.0);
  EXPECT_EQ(ready.reason, "");
  EXPECT_FALSE(port_is_free(port));
  EXPECT_EQ(server.exit_code(), std::nullopt);

  const StopResult stopped = server.stop();
  EXPECT_TRUE(stopped.terminated);
  EXPECT_FALSE(stopped.killed);
  EXPECT_FALSE(stopped.stop_command_ran);
  EXPECT_TRUE(stopped.gone);
  EXPECT_TRUE(stopped.port_free);
  EXPECT_TRUE(sp_group_gone(pgid));
  EXPECT_TRUE(port_is_free(port));
  const std::string text = log();
  EXPECT_NE(text.find(fmt::format("{} ", kLogStartMarker)), std::string::npos) << text;
  EXPECT_NE(text.find("llmperf-mock listening on"), std::string::npos) << text;
  EXPECT_NE(text.find(fmt::format("[llmperf] stop: SIGTERM to process group {}", pgid)),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("[llmperf] stop: every server process is gone"), std::string::npos) << text;

  const StopResult again = server.stop();  // idempotent: the first result, at once
  EXPECT_EQ(again.gone, stopped.gone);
  EXPECT_EQ(again.elapsed_s, stopped.elapsed_s);
}

TEST_F(ServerProcessTest, ServerWithoutHealthIsReadyOnModels) {
  const std::string python = find_on_path("python3");
  if (python.empty()) GTEST_SKIP() << "python3 not on PATH: no server without /health to try";
  std::filesystem::create_directories(dir_ + "/www/v1");
  std::ofstream(dir_ + "/www/v1/models") << R"({"data":[{"id":"m"}]})";
  const int port = pick_free_port();
  ServerProcess server(spec(fmt::format("exec {} -m http.server {} --bind 127.0.0.1 --directory {}",
                                        sp_quote(python), port, sp_quote(dir_ + "/www")),
                            port));
  const ReadyResult ready = server.wait_ready(sp_ready(30'000, 20));
  ASSERT_EQ(ready.outcome, ReadyOutcome::kReady) << ready.reason << "\n" << log();
  EXPECT_EQ(ready.endpoint, "/v1/models");
  EXPECT_TRUE(server.stop().gone);
}

TEST_F(ServerProcessTest, ServerThatExitsEarlyIsReportedAtOnceWithItsErrorLine) {
  // It exits while wait_ready pauses between probes: a 10 s pause must not delay the news.
  const int port = pick_free_port();
  ServerProcess server(spec(script("fails.sh",
                                   "echo 'INFO starting the engine'\n"
                                   "sleep 0.3\n"
                                   "echo 'Traceback (most recent call last):' >&2\n"
                                   "echo '  File \"config.py\", line 1' >&2\n"
                                   "echo '    raise ValueError(' >&2\n"
                                   "echo 'ValueError: max_num_batched_tokens (535) is smaller than "
                                   "max_model_len (32768)' >&2\n"
                                   "exit 1\n"),
                            port));
  const ReadyResult ready = server.wait_ready(sp_ready(60'000, 10'000));
  ASSERT_EQ(ready.outcome, ReadyOutcome::kExited) << log();
  EXPECT_LT(ready.elapsed_s, 1.0);
  EXPECT_GE(ready.elapsed_s, 0.3);
  EXPECT_EQ(ready.exit_code, 1);
  EXPECT_EQ(ready.exit_text, "exited with status 1");
  EXPECT_EQ(ready.error_line,
            "ValueError: max_num_batched_tokens (535) is smaller than max_model_len (32768)");
  EXPECT_EQ(ready.reason, ready.error_line);
  EXPECT_EQ(server.exit_code(), 1);
  const StopResult stopped = server.stop();
  EXPECT_TRUE(stopped.gone);
  EXPECT_EQ(stopped.exit_code, 1);
  EXPECT_EQ(log_tail(log_path(), 2).back(), ready.error_line);
}

TEST_F(ServerProcessTest, ServerThatDiesSilentlyIsReportedByItsExit) {
  ServerProcess server(spec(script("dies.sh", "ulimit -c 0\nkill -ABRT $$\n"), pick_free_port()));
  const ReadyResult ready = server.wait_ready(sp_ready(60'000, 10'000));
  ASSERT_EQ(ready.outcome, ReadyOutcome::kExited);
  EXPECT_LT(ready.elapsed_s, 1.0);
  EXPECT_EQ(ready.exit_code, 128 + SIGABRT);
  EXPECT_EQ(ready.exit_text, "killed by signal 6 (SIGABRT)");
  EXPECT_EQ(ready.error_line, "");
  EXPECT_EQ(ready.reason, "the server killed by signal 6 (SIGABRT) before it was ready");
}

TEST_F(ServerProcessTest, CommandNotFoundIsAStartFailure) {
  ServerProcess server(spec("llmperf-no-such-server --port 1", pick_free_port()));
  const ReadyResult ready = server.wait_ready(sp_ready(60'000));
  ASSERT_EQ(ready.outcome, ReadyOutcome::kExited);
  EXPECT_EQ(ready.exit_code, 127);
  EXPECT_NE(ready.reason.find("llmperf-no-such-server"), std::string::npos) << ready.reason;
  EXPECT_NE(ready.reason.find("not found"), std::string::npos) << ready.reason;
}

TEST_F(ServerProcessTest, ServerThatNeverGetsReadyTimesOut) {
  const int port = pick_free_port();
  ServerProcess server(spec(script("never.sh", "exec sleep 1000\n"), port));
  const ReadyResult ready = server.wait_ready(sp_ready(600, 50));
  ASSERT_EQ(ready.outcome, ReadyOutcome::kTimedOut);
  EXPECT_GE(ready.elapsed_s, 0.6);
  EXPECT_LT(ready.elapsed_s, 5.0);
  EXPECT_EQ(ready.reason,
            fmt::format("not ready after 0.6 s (nothing answered on 127.0.0.1:{})", port));
  const StopResult stopped = server.stop();
  EXPECT_TRUE(stopped.gone);
  EXPECT_FALSE(stopped.killed);
  EXPECT_EQ(stopped.exit_code, 128 + SIGTERM);
  EXPECT_TRUE(sp_group_gone(server.process_group()));
}

TEST_F(ServerProcessTest, InterruptEndsTheWaitPromptly) {
  ServerProcess server(spec(script("never.sh", "exec sleep 1000\n"), pick_free_port()));
  const int64_t interrupt_at = now_ns() + 200'000'000;
  const int64_t start = now_ns();
  ReadyOptions options = sp_ready(60'000, 10'000);
  options.interrupted = [&] { return now_ns() >= interrupt_at; };
  const ReadyResult ready = server.wait_ready(options);
  EXPECT_EQ(ready.outcome, ReadyOutcome::kInterrupted);
  EXPECT_EQ(ready.reason, "interrupted");
  EXPECT_LT(now_ns() - start, 1'000'000'000);
}

TEST_F(ServerProcessTest, StopAllServersFromAnotherThreadEndsTheWait) {
  ServerProcess server(spec(script("never.sh", "echo up\nexec sleep 1000\n"), pick_free_port()));
  ASSERT_TRUE(log_has("up"));
  std::thread interrupter([] { stop_all_servers(); });
  const ReadyResult ready = server.wait_ready(sp_ready(60'000, 10'000));
  interrupter.join();
  EXPECT_EQ(ready.outcome, ReadyOutcome::kInterrupted);
  EXPECT_TRUE(sp_group_gone(server.process_group()));
  EXPECT_TRUE(server.stop().gone);
}

TEST_F(ServerProcessTest, ServerIgnoringSigtermIsKilledAfterTheStopTimeout) {
  ServerSpec s = spec(script("stubborn.sh", "trap '' TERM\necho trapped\nexec sleep 1000\n"));
  s.stop_timeout_ms = 300;
  ServerProcess server(s);
  ASSERT_TRUE(log_has("trapped"));
  const StopResult stopped = server.stop();
  EXPECT_TRUE(stopped.terminated);
  EXPECT_TRUE(stopped.killed);
  EXPECT_TRUE(stopped.gone);
  EXPECT_EQ(stopped.exit_code, 128 + SIGKILL);
  EXPECT_GE(stopped.elapsed_s, 0.3);
  EXPECT_LT(stopped.elapsed_s, 5.0);
  EXPECT_TRUE(sp_group_gone(server.process_group()));
  EXPECT_NE(log().find("[llmperf] stop: SIGKILL to process group"), std::string::npos) << log();
}

TEST_F(ServerProcessTest, DescendantsInAndOutOfTheGroupAreGoneAfterStop) {
  // A background child, an orphaned grandchild (its parent exits) and a child that leaves the
  // group and session with setsid: none may survive the stop.
  ServerProcess server(spec(script("family.sh",
                                   "sleep 1000 &\n"
                                   "echo $! > child.pid\n"
                                   "(sleep 1000 & echo $! > orphan.pid) &\n"
                                   "setsid sleep 1000 &\n"
                                   "echo $! > escaped.pid\n"
                                   "echo family-started\n"
                                   "wait\n")));
  ASSERT_TRUE(log_has("family-started"));
  const pid_t child = read_pid("child.pid");
  const pid_t orphan = read_pid("orphan.pid");
  const pid_t escaped = read_pid("escaped.pid");
  ASSERT_GT(child, 0);
  ASSERT_GT(orphan, 0);
  ASSERT_GT(escaped, 0);
  const pid_t pgid = server.process_group();
  EXPECT_EQ(getpgid(child), pgid);
  EXPECT_TRUE(sp_eventually([&] { return getpgid(escaped) == escaped; }, 10'000));

  const StopResult stopped = server.stop();
  EXPECT_TRUE(stopped.gone);
  EXPECT_FALSE(stopped.killed);  // SIGTERM sufficed, the escaped one's too
  EXPECT_TRUE(sp_group_gone(pgid));
  EXPECT_TRUE(sp_process_gone(child));
  EXPECT_TRUE(sp_process_gone(orphan));
  EXPECT_TRUE(sp_process_gone(escaped));
}

TEST_F(ServerProcessTest, StubbornProcessOutsideTheGroupIsKilledToo) {
  // It left the group and session and ignores SIGTERM: only the guardian, as its subreaper, can
  // still reach it once its parent is gone, with SIGKILL after the stop timeout.
  ServerSpec s = spec(script("escapee.sh",
                             "setsid sh -c \"trap '' TERM; echo \\$\\$ > escaped.pid; exec sleep "
                             "1000\" &\n"
                             "echo started\n"
                             "wait\n"));
  s.stop_timeout_ms = 300;
  ServerProcess server(s);
  ASSERT_TRUE(log_has("started"));
  const pid_t escaped = read_pid("escaped.pid");
  ASSERT_GT(escaped, 0);
  ASSERT_TRUE(sp_eventually([&] { return getpgid(escaped) == escaped; }, 10'000));
  const StopResult stopped = server.stop();
  EXPECT_TRUE(stopped.killed);
  EXPECT_TRUE(stopped.gone);
  EXPECT_TRUE(sp_process_gone(escaped));
  EXPECT_TRUE(sp_group_gone(server.process_group()));
}

TEST_F(ServerProcessTest, StopCommandRunsFirst) {
  ServerSpec s = spec(script("served.sh", "echo serving\nexec sleep 1000\n"));
  s.stop_command = "echo stop-command-ran-in-$(pwd)";
  ServerProcess server(s);
  ASSERT_TRUE(log_has("serving"));
  const StopResult stopped = server.stop();
  EXPECT_TRUE(stopped.stop_command_ran);
  EXPECT_EQ(stopped.stop_command_status, 0);
  EXPECT_TRUE(stopped.gone);
  const std::string text = log();
  const size_t ran = text.find("stop-command-ran-in-");
  const size_t terminated = text.find("[llmperf] stop: SIGTERM");
  ASSERT_NE(ran, std::string::npos) << text;
  EXPECT_LT(ran, terminated) << text;
}

TEST_F(ServerProcessTest, HungStopCommandIsKilledAtTheStopTimeout) {
  ServerSpec s = spec(script("served.sh", "echo serving\nexec sleep 1000\n"));
  s.stop_command = "exec sleep 1000";
  s.stop_timeout_ms = 300;
  ServerProcess server(s);
  ASSERT_TRUE(log_has("serving"));
  const StopResult stopped = server.stop();
  EXPECT_TRUE(stopped.stop_command_ran);
  EXPECT_EQ(stopped.stop_command_status, -1);
  EXPECT_TRUE(stopped.terminated);
  EXPECT_FALSE(stopped.killed);  // the server itself went at SIGTERM
  EXPECT_TRUE(stopped.gone);
  EXPECT_LT(stopped.elapsed_s, 5.0);
}

TEST_F(ServerProcessTest, DestructorStopsTheServer) {
  pid_t pgid = 0;
  {
    ServerProcess server(spec(script("served.sh", "echo serving\nexec sleep 1000\n")));
    pgid = server.process_group();
    ASSERT_TRUE(log_has("serving"));
    EXPECT_FALSE(sp_group_gone(pgid));
  }
  EXPECT_TRUE(sp_group_gone(pgid));
}

TEST_F(ServerProcessTest, UnwritableLogIsAStartError) {
  ServerSpec s = spec("exec sleep 1000");
  s.log_path = dir_ + "/no-such-dir/server.log";
  EXPECT_THROW(ServerProcess server(s), ServerStartError);
}

// llmperf SIGKILLed while its server runs: a child process of the test stands in for llmperf; it
// starts the server (which ignores SIGTERM, for good measure) and reports its group; the test
// kills it with SIGKILL and the server's group must disappear on its own.
TEST_F(ServerProcessTest, SigkilledLlmperfLeavesNoServerBehind) {
  ServerSpec s = spec(script(
      "orphaned.sh", "trap '' TERM\nsleep 1000 &\necho orphaned-started\nexec sleep 1000\n"));
  s.stop_timeout_ms = 300;
  int report[2];
  ASSERT_EQ(pipe2(report, O_CLOEXEC), 0);
  const pid_t stand_in = fork();
  ASSERT_GE(stand_in, 0);
  if (stand_in == 0) {
    close(report[0]);
    try {
      ServerProcess server(s);
      const pid_t pgid = server.process_group();
      if (write(report[1], &pgid, sizeof pgid) == sizeof pgid) {
        for (;;) pause();
      }
    } catch (...) {
    }
    _exit(1);
  }
  close(report[1]);
  pid_t pgid = 0;
  pollfd p{report[0], POLLIN, 0};
  ASSERT_EQ(poll(&p, 1, 10'000), 1);
  ASSERT_EQ(read(report[0], &pgid, sizeof pgid), static_cast<ssize_t>(sizeof pgid));
  close(report[0]);
  ASSERT_GT(pgid, 0);
  ASSERT_TRUE(log_has("orphaned-started"));
  EXPECT_FALSE(sp_group_gone(pgid));

  ASSERT_EQ(kill(stand_in, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(waitpid(stand_in, &status, 0), stand_in);
  EXPECT_TRUE(WIFSIGNALED(status));
  EXPECT_TRUE(sp_eventually([&] { return sp_group_gone(pgid); }, 10'000))
      << "the server's process group " << pgid << " outlived its llmperf";
  EXPECT_TRUE(log_has("[llmperf] stop: every server process is gone")) << log();
}

// The guardian itself killed (by anyone): the server's main process gets SIGTERM through
// PR_SET_PDEATHSIG, and stop() stops the rest of the group from llmperf.
TEST_F(ServerProcessTest, KilledGuardianStillLeavesNoServerAfterStop) {
  ServerSpec s = spec(
      script("served.sh", "sleep 1000 &\necho $! > child.pid\necho serving\nexec sleep 1000\n"));
  s.stop_timeout_ms = 300;
  ServerProcess server(s);
  ASSERT_TRUE(log_has("serving"));
  const pid_t child = read_pid("child.pid");
  ASSERT_GT(child, 0);
  const pid_t main_process = server.process_group();
  ASSERT_EQ(kill(server.guardian_pid(), SIGKILL), 0);
  EXPECT_TRUE(sp_eventually([&] { return sp_process_dead(main_process); }, 10'000));
  const StopResult stopped = server.stop();
  EXPECT_TRUE(stopped.terminated);
  EXPECT_TRUE(sp_process_dead(child));
  EXPECT_TRUE(sp_process_dead(main_process));
}

TEST(ServerPorts, PickedPortIsFreeUntilSomethingListens) {
  const int port = pick_free_port();
  ASSERT_GT(port, 0);
  ASSERT_LT(port, 65536);
  EXPECT_TRUE(port_is_free(port));
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_ANY);
  ASSERT_EQ(bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(listen(fd, 1), 0);
  EXPECT_FALSE(port_is_free(port));  // 0.0.0.0 covers 127.0.0.1
  close(fd);
  EXPECT_TRUE(port_is_free(port));
  EXPECT_FALSE(port_is_free(0));
  EXPECT_FALSE(port_is_free(70000));
}

// A socket on 127.0.0.1:`port` bound with these options (-1 when it cannot be bound).
int sp_bound_socket(int port, bool reuse_address, bool reuse_port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const int on = 1;
  if (reuse_address) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  if (reuse_port) setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof on);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// What an HTTP server leaves on its port when it closes a kept-alive connection first (as
// llama.cpp's does after each streamed answer): a listener bound with these options accepts one
// connection and closes it, the client closes its end, and the listener is closed. The server's
// end of the connection stays in TIME_WAIT for 60 s. False when it did not come to that.
bool sp_leave_server_time_wait(int port, bool reuse_address, bool reuse_port) {
  const int listener = sp_bound_socket(port, reuse_address, reuse_port);
  if (listener < 0 || listen(listener, 1) != 0) return false;
  const int client = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bool done = connect(client, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
  const int accepted = done ? accept4(listener, nullptr, nullptr, SOCK_CLOEXEC) : -1;
  if (accepted >= 0) close(accepted);  // the server closes first
  char byte = 0;
  done = done && accepted >= 0 && recv(client, &byte, 1, 0) == 0;  // its FIN reached the client
  close(client);
  close(listener);
  return done && sp_eventually([&] { return port_sockets(port).time_wait > 0; }, 10'000);
}

// A server's TIME_WAIT blocks a bind as servers bind theirs only when the server set neither
// SO_REUSEADDR nor SO_REUSEPORT (which its accepted connections inherit). llama.cpp's server sets
// SO_REUSEPORT: its next start binds the port at once, and so does port_is_free's probe.
TEST(ServerPorts, TimeWaitBlocksTheBindOnlyAfterAServerWithoutReuseOptions) {
  {
    const int port = pick_free_port();
    ASSERT_TRUE(sp_leave_server_time_wait(port, false, true));  // as llama.cpp
    EXPECT_EQ(port_sockets(port).listening, 0);
    EXPECT_TRUE(port_is_free(port));
    const int next = sp_bound_socket(port, false, true);  // the next llama-server's bind
    EXPECT_GE(next, 0);
    close(next);
  }
  {
    const int port = pick_free_port();
    ASSERT_TRUE(sp_leave_server_time_wait(port, true, false));  // as uvicorn (vLLM, SGLang)
    EXPECT_TRUE(port_is_free(port));
  }
  {
    const int port = pick_free_port();
    ASSERT_TRUE(sp_leave_server_time_wait(port, false, false));  // a server without options
    EXPECT_GT(port_sockets(port).time_wait, 0);
    EXPECT_EQ(port_sockets(port).listening, 0);
    EXPECT_FALSE(port_is_free(port));
    EXPECT_LT(sp_bound_socket(port, false, false), 0);  // its next start would be refused
  }
}

TEST(ServerPorts, AListenerWithReusePortStillMakesThePortBusy) {
  const int port = pick_free_port();
  const int fd = sp_bound_socket(port, true, true);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(listen(fd, 1), 0);
  EXPECT_EQ(port_sockets(port).listening, 1);
  EXPECT_FALSE(port_is_free(port));  // a bind with SO_REUSEPORT alone would share it
  close(fd);
  EXPECT_TRUE(port_is_free(port));
}

// A port picked for the trial: what its server's closed connections leave in TIME_WAIT does not
// matter (the next trial gets another port), so stop() does not wait for it.
TEST_F(ServerProcessTest, StopDoesNotWaitForTimeWaitOnAPortOfItsOwn) {
  const int port = pick_free_port();
  ASSERT_TRUE(sp_leave_server_time_wait(port, false, false));
  ServerProcess server(spec(script("idle.sh", "exec sleep 1000\n"), port));
  const StopResult stopped = server.stop();
  EXPECT_TRUE(stopped.gone);
  EXPECT_TRUE(stopped.port_free);
  EXPECT_GT(port_sockets(port).time_wait, 0) << "stop() waited for TIME_WAIT to end";
  EXPECT_EQ(log().find("TIME_WAIT"), std::string::npos) << log();
}

TEST_F(ServerProcessTest, AListenerLeftOnThePortIsReported) {
  const int port = pick_free_port();
  const int fd = sp_bound_socket(port, false, false);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(listen(fd, 1), 0);  // not the server's: something else listens there
  ServerProcess server(spec(script("idle.sh", "exec sleep 1000\n"), port));
  const StopResult stopped = server.stop();
  close(fd);
  EXPECT_TRUE(stopped.gone);
  EXPECT_FALSE(stopped.port_free);
}

// A port the user's command fixes is bound again by the next server: stop() waits until it could
// be, and says why in server.log. Here a socket bound without options (listening to nothing)
// holds the port until the test closes it.
TEST_F(ServerProcessTest, StopWaitsUntilAFixedPortCanBeBoundAgain) {
  const int port = pick_free_port();
  const int holder = sp_bound_socket(port, false, false);
  ASSERT_GE(holder, 0);
  ServerSpec fixed = spec(script("idle.sh", "exec sleep 1000\n"), port);
  fixed.fixed_port = true;
  ServerProcess server(fixed);
  std::atomic<bool> returned{false};
  StopResult stopped;
  std::thread stopper([&] {
    stopped = server.stop();
    returned = true;
  });
  const bool said_why = log_has(fmt::format("[llmperf] stop: port {} is fixed by --serve", port));
  const bool waited = !returned;
  close(holder);
  stopper.join();
  ASSERT_TRUE(said_why) << log();
  EXPECT_TRUE(waited) << "stop() returned while the port could not be bound";
  EXPECT_TRUE(stopped.gone);
  EXPECT_TRUE(stopped.port_free);
  EXPECT_NE(log().find(fmt::format("[llmperf] stop: port {} can be bound again after", port)),
            std::string::npos)
      << log();
}

// The same after a server that set no reuse option: its connections in TIME_WAIT hold the port
// for up to 60 s, and the log says so (here with a shorter wait, which then ends in a warning).
TEST_F(ServerProcessTest, StopSaysThatTimeWaitHoldsAFixedPort) {
  const int port = pick_free_port();
  ASSERT_TRUE(sp_leave_server_time_wait(port, false, false));
  ServerSpec fixed = spec(script("idle.sh", "exec sleep 1000\n"), port);
  fixed.fixed_port = true;
  fixed.port_free_timeout_ms = 200;
  ServerProcess server(fixed);
  const StopResult stopped = server.stop();
  EXPECT_TRUE(stopped.gone);
  EXPECT_FALSE(stopped.port_free);
  EXPECT_NE(log().find("connection(s) that the server closed are in TIME_WAIT on it"),
            std::string::npos)
      << log();
}

// llama.cpp's server, where it is beside the project: a real start failure and a real start.
class ServerProcessLlamaTest : public ServerProcessTest {
 protected:
  void SetUp() override {
    ServerProcessTest::SetUp();
    // As integration_llama_server_test: $LLMPERF_LLAMA_SERVER_DIR, the build's, the shared one.
    std::vector<std::filesystem::path> candidates;
    if (const char* env = std::getenv("LLMPERF_LLAMA_SERVER_DIR"); env != nullptr && *env != 0) {
      candidates.emplace_back(env);
    } else {
      candidates = {LLMPERF_LLAMA_SERVER_DIR, "/work/shared/llama-server"};
    }
    std::string tried;
    for (const std::filesystem::path& where : candidates) {
      binary_ = (where / "llama-server").string();
      model_ = (where / "tiny-llama-spm.gguf").string();
      if (std::filesystem::exists(binary_) && std::filesystem::exists(model_)) return;
      tried += (tried.empty() ? "" : ", ") + where.string();
    }
    GTEST_SKIP() << "llama-server and its model not found (tried " << tried
                 << "; set LLMPERF_LLAMA_SERVER_DIR to their directory)";
  }
  std::string binary_;
  std::string model_;
};

TEST_F(ServerProcessLlamaTest, RefusedFlagAndMissingModelAreStartFailures) {
  {
    const int port = pick_free_port();
    ServerProcess server(spec(fmt::format("exec {} -m {} --host 127.0.0.1 --port {} --bogus-flag",
                                          sp_quote(binary_), sp_quote(model_), port),
                              port));
    const ReadyResult ready = server.wait_ready(sp_ready(60'000));
    ASSERT_EQ(ready.outcome, ReadyOutcome::kExited) << log();
    EXPECT_EQ(ready.reason, "error: invalid argument: --bogus-flag");
  }
  {
    const int port = pick_free_port();
    ServerProcess server(
        spec(fmt::format("exec {} -m {} --host 127.0.0.1 --port {}", sp_quote(binary_),
                         sp_quote(dir_ + "/missing.gguf"), port),
             port));
    const ReadyResult ready = server.wait_ready(sp_ready(60'000));
    ASSERT_EQ(ready.outcome, ReadyOutcome::kExited) << log();
    // "gguf_init_from_file: failed to open GGUF file '.../missing.gguf'", or the loader's
    // "error loading model: ... missing.gguf" when its thread logs before the abort.
    EXPECT_NE(ready.reason.find("missing.gguf"), std::string::npos) << ready.reason;
    EXPECT_TRUE(ready.reason.find("fail") != std::string::npos ||
                ready.reason.find("error") != std::string::npos)
        << ready.reason;
    EXPECT_TRUE(server.stop().gone);
  }
}

TEST_F(ServerProcessLlamaTest, StartsAndStops) {
  const int port = pick_free_port();
  ServerProcess server(spec(fmt::format("exec {} -m {} --host 127.0.0.1 --port {} -c 1024 -t 1",
                                        sp_quote(binary_), sp_quote(model_), port),
                            port));
  const ReadyResult ready = server.wait_ready(sp_ready(60'000, 50));
  ASSERT_EQ(ready.outcome, ReadyOutcome::kReady) << ready.reason << "\n" << log();
  EXPECT_EQ(ready.endpoint, "/health");
  const StopResult stopped = server.stop();
  EXPECT_TRUE(stopped.gone);
  EXPECT_FALSE(stopped.killed);
  EXPECT_TRUE(stopped.port_free);
}

}  // namespace
}  // namespace llmperf
