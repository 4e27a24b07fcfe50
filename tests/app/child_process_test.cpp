// Starting a child (app/child_process.h) with /bin/sh: its argv and streams, its environment
// (llmperf's own or one given), its process group, a failed exec, the parent-death signal when the
// thread that started it ends, the signal state of a fresh process and the CPU it is pinned to.
#include "app/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace llmperf {
namespace {

struct ChildRun {
  ChildStart start;
  std::string out;  // what it wrote to stdout
  int status = 0;   // its wait status
};

// Starts the child with its stdout on a pipe, reads the pipe to its end and reaps the child.
ChildRun run_child_to_end(ChildOptions options) {
  ChildRun run;
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) return run;
  options.stdout_fd = out[1];
  const ChildCommand command(std::move(options));
  run.start = start_child(command);
  close(out[1]);
  char buffer[4096];
  for (;;) {
    const ssize_t n = read(out[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    run.out.append(buffer, static_cast<size_t>(n));
  }
  close(out[0]);
  if (run.start.pid > 0) waitpid(run.start.pid, &run.status, 0);
  return run;
}

ChildOptions child_shell(const std::string& script) {
  ChildOptions options;
  options.argv = {"/bin/sh", "-c", script};
  return options;
}

TEST(ChildProcess, RunsItsArgvWithItsStreams) {
  ChildOptions options = child_shell("read line; echo \"[$line] $0 $1\"; echo to-stderr >&2");
  options.argv.push_back("zero");
  options.argv.push_back("one");
  options.stdin_fd = kChildDevNull;
  options.stderr_fd = kChildDevNull;
  const ChildRun run = run_child_to_end(std::move(options));
  ASSERT_GT(run.start.pid, 0);
  EXPECT_EQ(run.start.error, 0);
  EXPECT_EQ(run.out, "[] zero one\n");
  EXPECT_TRUE(WIFEXITED(run.status) && WEXITSTATUS(run.status) == 0);
}

TEST(ChildProcess, TakesLlmperfsEnvironmentOrTheOneGiven) {
  setenv("LLMPERF_CHILD_TEST", "inherited", 1);
  EXPECT_EQ(run_child_to_end(child_shell("echo \"$LLMPERF_CHILD_TEST\"")).out, "inherited\n");
  ChildOptions options = child_shell("echo \"$LLMPERF_CHILD_TEST ${HOME-no-home}\"");
  options.environment = std::vector<std::string>{"LLMPERF_CHILD_TEST=given"};
  EXPECT_EQ(run_child_to_end(std::move(options)).out, "given no-home\n");
  unsetenv("LLMPERF_CHILD_TEST");
}

TEST(ChildProcess, LeadsAProcessGroupOfItsOwnWhenAsked) {
  ChildOptions options = child_shell("exec sleep 20");
  options.new_process_group = true;
  const ChildCommand command(std::move(options));
  const ChildStart start = start_child(command);
  ASSERT_GT(start.pid, 0);
  EXPECT_EQ(getpgid(start.pid), start.pid);  // already when start_child returns
  kill(start.pid, SIGKILL);
  waitpid(start.pid, nullptr, 0);

  const ChildCommand same_group(child_shell("exec sleep 20"));
  const ChildStart other = start_child(same_group);
  ASSERT_GT(other.pid, 0);
  EXPECT_EQ(getpgid(other.pid), getpgrp());
  kill(other.pid, SIGKILL);
  waitpid(other.pid, nullptr, 0);
}

TEST(ChildProcess, AFailedExecIsItsErrnoAndAnExitWithStatus127) {
  ChildOptions options;
  options.argv = {"/nonexistent/llmperf-child-test"};
  const ChildRun run = run_child_to_end(std::move(options));
  ASSERT_GT(run.start.pid, 0);
  EXPECT_EQ(run.start.error, ENOENT);
  EXPECT_TRUE(WIFEXITED(run.status) && WEXITSTATUS(run.status) == 127);
}

TEST(ChildProcess, GetsItsParentDeathSignalWhenTheStartingThreadEnds) {
  pid_t pid = -1;
  std::thread starter([&pid] {
    ChildOptions options = child_shell("exec sleep 20");
    options.parent_death_signal = SIGTERM;
    const ChildCommand command(std::move(options));
    pid = start_child(command).pid;
  });
  starter.join();
  ASSERT_GT(pid, 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << status;
}

TEST(ChildProcess, StartsWithTheSignalStateOfAFreshProcess) {
  struct sigaction ignore {};
  struct sigaction old_action {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGUSR1, &ignore, &old_action);
  sigset_t block;
  sigset_t old_mask;
  sigemptyset(&block);
  sigaddset(&block, SIGUSR2);
  pthread_sigmask(SIG_BLOCK, &block, &old_mask);
  const ChildRun run =
      run_child_to_end(child_shell("exec grep -E '^Sig(Blk|Ign)' /proc/self/status"));
  pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  sigaction(SIGUSR1, &old_action, nullptr);
  EXPECT_EQ(run.out, "SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\n");
}

TEST(ChildProcess, IsPinnedToItsCpu) {
  ChildOptions options = child_shell("exec grep Cpus_allowed_list /proc/self/status");
  options.cpu = 0;
  EXPECT_EQ(run_child_to_end(std::move(options)).out, "Cpus_allowed_list:\t0\n");
}

}  // namespace
}  // namespace llmperf
