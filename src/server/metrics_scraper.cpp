// Scraping /metrics (see metrics_scraper.h).
#include "server/metrics_scraper.h"

#include <fmt/format.h>

#include <chrono>

#include "core/clock.h"
#include "protocol/chunk_decoder.h"

namespace llmperf {
std::optional<std::string> exposition_problem(const HttpReply& reply, const Exposition& parsed) {
  if (!reply.error.empty()) return reply.error;
  if (reply.status != 200) {
    return fmt::format("HTTP {}: {}", reply.status, error_message_from_body(reply.body, 160));
  }
  if (parsed.samples.empty()) {
    return parsed.bad_lines > 0
               ? fmt::format("not Prometheus text ({})", parsed.first_error)
               : std::string("an empty answer (no samples)");
  }
  // A page of HTML or JSON may yield a stray "sample"; real expositions are nearly all samples.
  if (parsed.bad_lines > static_cast<int64_t>(parsed.samples.size())) {
    return fmt::format("not Prometheus text ({} of {} lines unreadable, {})", parsed.bad_lines,
                       parsed.bad_lines + static_cast<int64_t>(parsed.samples.size()),
                       parsed.first_error);
  }
  return std::nullopt;
}

MetricsScraper::MetricsScraper(std::string url, HttpPoolOptions http) : url_(std::move(url)) {
  http.max_in_flight = 1;
  http.reuse_connections = false;
  pool_ = std::make_unique<HttpPool>(std::move(http));
}

MetricsScraper::~MetricsScraper() { stop(); }

Scrape MetricsScraper::scrape() {
  Scrape s;
  HttpCall call;
  call.url = url_;
  call.get = true;
  const int64_t started = now_ns();
  HttpReply reply = pool_->run_one(call, &stopping_);
  s.t_ns = now_ns();
  s.t_unix_ns = unix_now_ns();
  s.duration_ns = s.t_ns - started;
  if (reply.ok()) s.exposition = parse_prometheus(reply.body);
  const std::optional<std::string> problem = exposition_problem(reply, s.exposition);
  s.ok = !problem;
  if (problem) {
    s.error = *problem;
    s.exposition = Exposition{};
  }
  return s;
}

void MetricsScraper::start(double interval_s, std::function<void(Scrape&&)> on_scrape) {
  stop();
  stopping_ = false;
  const auto interval_ns = static_cast<int64_t>(interval_s * 1e9);
  thread_ = std::thread([this, interval_ns, on_scrape = std::move(on_scrape)] {
    loop(interval_ns, on_scrape);
  });
}

void MetricsScraper::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  stopping_ = false;  // scrape() may run again on the caller's thread
}

void MetricsScraper::loop(int64_t interval_ns, const std::function<void(Scrape&&)>& on_scrape) {
  int64_t due = now_ns() + interval_ns;
  while (true) {
    {
      std::unique_lock lock(mutex_);
      const auto deadline = std::chrono::steady_clock::time_point(std::chrono::nanoseconds(due));
      if (wake_.wait_until(lock, deadline, [this] { return stopping_.load(); })) return;
    }
    Scrape s = scrape();
    if (stopping_) return;  // cut short by stop(): not a scrape of the run
    on_scrape(std::move(s));
    // On schedule; after a scrape slower than the interval, the next one at once.
    due = std::max(due + interval_ns, now_ns());
  }
}

}  // namespace llmperf
