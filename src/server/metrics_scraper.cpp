// Scraping /metrics (see metrics_scraper.h).
#include "server/metrics_scraper.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "core/clock.h"
#include "core/text.h"
#include "protocol/chunk_decoder.h"
#include "protocol/prometheus_sum.h"

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

MetricsScraper::MetricsScraper(std::vector<std::string> urls, HttpPoolOptions http) {
  if (urls.size() == 1) url_ = url_without_userinfo(urls.front());  // e.g. replicas of one host
  if (urls.size() > 1) {
    for (const std::string& url : urls) {  // shown and logged: no credentials
      url_ += (url_.empty() ? "" : ", ") + url_without_userinfo(url);
    }
    urls_ = std::move(urls);
  }
  http.max_in_flight = std::max<int>(1, static_cast<int>(urls_.size()));
  http.reuse_connections = false;
  pool_ = std::make_unique<HttpPool>(std::move(http));
}

MetricsScraper::~MetricsScraper() { stop(); }

Scrape MetricsScraper::scrape_replicas() {
  Scrape s;
  std::vector<HttpCall> calls(urls_.size());
  for (size_t i = 0; i < urls_.size(); ++i) {
    calls[i].url = urls_[i];
    calls[i].get = true;
  }
  const int64_t started = now_ns();
  const std::vector<HttpReply> replies = pool_->run(calls, {}, &stopping_);
  s.t_ns = now_ns();
  s.t_unix_ns = unix_now_ns();
  s.duration_ns = s.t_ns - started;
  std::vector<Exposition> parts(replies.size());
  for (size_t i = 0; i < replies.size(); ++i) {
    if (replies[i].ok()) parts[i] = parse_prometheus(replies[i].body);
    if (const std::optional<std::string> problem = exposition_problem(replies[i], parts[i])) {
      s.error = fmt::format("{}: {}", urls_[i], *problem);
      return s;
    }
  }
  s.exposition = sum_expositions(parts);
  s.ok = true;
  return s;
}

Scrape MetricsScraper::scrape() {
  if (!urls_.empty()) return scrape_replicas();
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
