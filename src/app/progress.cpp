// Progress display (see progress.h).
#include "app/progress.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "app/log_tag.h"
#include "core/clock.h"

namespace llmperf {
namespace {

constexpr auto kTerminalRefresh = std::chrono::milliseconds(200);
constexpr auto kLogRefresh = std::chrono::milliseconds(1000);
constexpr int kBarWidth = 30;

std::string format_elapsed(double seconds) {
  const auto total = static_cast<int64_t>(seconds);
  return fmt::format("{:02}:{:02}:{:02}", total / 3600, (total / 60) % 60, total % 60);
}

}  // namespace

ProgressDisplay::ProgressDisplay(const LoadProgress& counters, int64_t total, std::string label,
                                 int64_t log_every)
    : counters_(counters),
      total_(total),
      label_(std::move(label)),
      tag_(log_tag()),
      log_every_(log_every < 1 ? 1 : log_every),
      terminal_(isatty(STDERR_FILENO) == 1 && tag_.empty()),
      start_ns_(now_ns()) {
  last_log_ns_ = start_ns_;
  thread_ = std::thread([this] { loop(); });
}

ProgressDisplay::~ProgressDisplay() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
  draw(true);
}

void ProgressDisplay::loop() {
  const ScopedLogTag tag(tag_);  // its lines are its run's thread's
  std::unique_lock<std::mutex> lock(mutex_);
  const auto period = terminal_ ? kTerminalRefresh : kLogRefresh;
  while (!wake_.wait_for(lock, period, [this] { return stop_; })) {
    draw(false);
  }
}

void ProgressDisplay::draw(bool final) {
  const int64_t finished = counters_.finished.load(std::memory_order_relaxed);
  const int64_t failed = counters_.failed.load(std::memory_order_relaxed);
  const double elapsed = static_cast<double>(now_ns() - start_ns_) / 1e9;
  const double rate = elapsed > 0 ? static_cast<double>(finished) / elapsed : 0.0;
  if (terminal_) {
    const double fraction =
        total_ > 0 ? static_cast<double>(finished) / static_cast<double>(total_) : 1;
    const int filled = static_cast<int>(fraction * kBarWidth);
    std::string bar(static_cast<size_t>(filled), '#');
    bar.append(static_cast<size_t>(kBarWidth - filled), '-');
    std::fprintf(stderr, "\r%s [%s] %lld/%lld  failed %lld  %.1f req/s  %s%s", label_.c_str(),
                 bar.c_str(), static_cast<long long>(finished), static_cast<long long>(total_),
                 static_cast<long long>(failed), rate, format_elapsed(elapsed).c_str(),
                 final ? "\n" : "");
    std::fflush(stderr);
    return;
  }
  if (final || finished / log_every_ > last_logged_ / log_every_) {
    if (!final && finished == last_logged_) return;
    last_logged_ = finished;
    spdlog::info("{}: {}/{} done, {} failed, {:.1f} req/s, elapsed {}", label_, finished, total_,
                 failed, rate, format_elapsed(elapsed));
  }
}

}  // namespace llmperf
