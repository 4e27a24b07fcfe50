// The progress display (app/progress.h) on a terminal: stderr is a pseudo-terminal here. A run
// alone redraws its bar with \r; a run whose thread carries a log tag (trials side by side,
// `tune --slots`) draws no bar, whose \r would overwrite the other trials', and writes log lines
// that start with its tag, from its own thread as from the run's.
#include "app/progress.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <pty.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <sstream>
#include <string>
#include <thread>

#include "app/log_tag.h"

namespace llmperf {
namespace {

// stderr on a pseudo-terminal and the log into a string, for the test's lifetime.
class ProgressOnTerminal : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(openpty(&master_, &slave_, nullptr, nullptr, nullptr), 0);
    fcntl(master_, F_SETFL, fcntl(master_, F_GETFL) | O_NONBLOCK);
    saved_stderr_ = dup(STDERR_FILENO);
    ASSERT_EQ(dup2(slave_, STDERR_FILENO), STDERR_FILENO);
    previous_logger_ = spdlog::default_logger();
    auto logger = std::make_shared<spdlog::logger>(
        "progress_test", std::make_shared<spdlog::sinks::ostream_sink_mt>(log_));
    logger->set_formatter(tagged_log_formatter("%*%v"));
    spdlog::set_default_logger(logger);
  }
  void TearDown() override {
    spdlog::set_default_logger(previous_logger_);
    dup2(saved_stderr_, STDERR_FILENO);
    close(saved_stderr_);
    close(slave_);
    close(master_);
  }

  // What reached the terminal.
  std::string terminal() {
    std::fflush(stderr);
    std::string text;
    char buffer[4096];
    for (ssize_t n; (n = read(master_, buffer, sizeof buffer)) > 0;) text.append(buffer, n);
    return text;
  }

  // A display of 4 of 10 requests done, 1 failed, shown for `ms` then ended.
  static void show(int ms) {
    LoadProgress counters;
    counters.finished = 4;
    counters.failed = 1;
    ProgressDisplay display(counters, 10, "parallel 2", 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
  }

  int master_ = -1;
  int slave_ = -1;
  int saved_stderr_ = -1;
  std::ostringstream log_;
  std::shared_ptr<spdlog::logger> previous_logger_;
};

TEST_F(ProgressOnTerminal, ARunAloneRedrawsItsBar) {
  ASSERT_EQ(isatty(STDERR_FILENO), 1);
  show(450);  // two redraws at 200 ms, and the final one
  const std::string text = terminal();
  EXPECT_NE(text.find("\rparallel 2 ["), std::string::npos) << text;
  EXPECT_NE(text.find("4/10  failed 1"), std::string::npos) << text;
  EXPECT_EQ(log_.str(), "");
}

TEST_F(ProgressOnTerminal, ATaggedRunWritesTaggedLinesAndNoBar) {
  {
    const ScopedLogTag tag("[1-64 slot 1] ");
    show(1100);  // a line from the display's thread at 1 s, and the final one
  }
  EXPECT_EQ(terminal(), "");  // no bar: nothing written past the log
  const std::string log = log_.str();
  EXPECT_EQ(log.find('\r'), std::string::npos) << log;
  size_t lines = 0;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line); ++lines) {
    EXPECT_EQ(line.rfind("[1-64 slot 1] parallel 2: 4/10 done, 1 failed", 0), 0U) << line;
  }
  EXPECT_GE(lines, 1U) << log;
}

}  // namespace
}  // namespace llmperf
