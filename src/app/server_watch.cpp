// The server's side of each run (see server_watch.h).
#include "app/server_watch.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <utility>

#include "core/clock.h"
#include "server/server_identity.h"
#include "server/side_channel.h"

namespace llmperf {
namespace {

std::string identity_line(const ServerIdentity& id) {
  std::string line = id.name().empty() ? std::string("unknown engine") : id.name();
  if (!id.server_header.empty()) line += fmt::format(" (Server: {})", id.server_header);
  if (!id.models.empty()) {
    line += fmt::format(", model{} {}", id.models.size() > 1 ? "s" : "", id.models.front());
    if (id.models.size() > 1) line += fmt::format(" and {} more", id.models.size() - 1);
  }
  if (id.max_model_len > 0) line += fmt::format(", max_model_len {}", id.max_model_len);
  return line;
}

// Whether the server's counters still trail what the client counted (it may count a request
// only after its last token has gone out).
bool trails_client(const ServerPoint& p, const ClientTotals& client) {
  const auto below = [](const std::optional<double>& server, int64_t counted) {
    return server && *server < static_cast<double>(counted);
  };
  return below(p.requests, client.requests) ||
         (client.without_usage == 0 && below(p.generation_tokens, client.completion_tokens));
}

}  // namespace

ServerWatch::ServerWatch(ServerViewOptions options)
    : view_(std::move(options)), tally_(view_.metrics_interval_s) {
  const ServerViewOptions& view = view_;
  const std::string& base = view.base_url;
  const HttpPoolOptions& http = view.http;
  identity_ = fetch_server_identity(base, http);
  spdlog::info("server: {}", identity_line(identity_));
  if (view.profile) profiler_ = std::make_unique<ServerProfiler>(base, http);

  if (!view.server_metrics) {
    unavailable_ = "--no-server-metrics";
    return;
  }
  metrics_url_ = view.metrics_url.empty() ? base + "/metrics" : view.metrics_url;
  std::vector<std::string> replica_metrics;     // several --url: each replica's /metrics, summed
  for (const std::string& url : view.urls) {  // a replica given twice is read once
    const std::string metrics = base_url_of(url) + "/metrics";
    if (std::find(replica_metrics.begin(), replica_metrics.end(), metrics) ==
        replica_metrics.end()) {
      replica_metrics.push_back(metrics);
    }
  }
  HttpPoolOptions scrape_http = http;
  // A scrape that takes longer than the interval is slow; longer than 10 s (or two intervals)
  // it is given up, so that the run's "after" scrape cannot hold the results back for long.
  scrape_http.total_timeout_ms =
      static_cast<int64_t>(std::max(10.0, 2 * view.metrics_interval_s) * 1000);
  scraper_ = replica_metrics.empty()
                 ? std::make_unique<MetricsScraper>(metrics_url_, scrape_http)
                 : std::make_unique<MetricsScraper>(replica_metrics, scrape_http);
  metrics_url_ = scraper_->url();
  Scrape probe = scraper_->scrape();
  if (!probe.ok) {
    unavailable_ = fmt::format("{} did not answer Prometheus text: {}", metrics_url_, probe.error);
    const auto level =
        view.metrics_url.empty() ? spdlog::level::info : spdlog::level::warn;
    spdlog::log(level, "server metrics: {}; the summary holds the client's view only{}",
                unavailable_,
                view.metrics_url.empty() ? " (--metrics-url names another place, "
                                                    "--no-server-metrics skips the probe)"
                                                  : "");
    scraper_.reset();
    return;
  }
  engine_ = detect_engine(probe.exposition.samples);
  if (identity_.engine.empty() && !engine_.empty()) identity_.engine = engine_;
  spdlog::info("server metrics: {} answers {} samples{}; scraped every {:g} s during each run",
               metrics_url_, probe.exposition.samples.size(),
               engine_.empty()
                   ? " in names llmperf does not know (kept raw in server_metrics.jsonl)"
                   : fmt::format(" in {}'s names", engine_),
               view.metrics_interval_s);
}

ServerWatch::~ServerWatch() {
  if (scraper_) scraper_->stop();
}

std::optional<ServerPoint> ServerWatch::reduced(const Scrape& scrape) const {
  if (!scrape.ok) return std::nullopt;
  return reduce_scrape(engine_, scrape.exposition.samples, scrape.t_ns);
}

void ServerWatch::record(Scrape&& scrape, const std::optional<ServerPoint>& point,
                         const char* phase, std::vector<MetricSample>* keep) {
  std::lock_guard lock(mutex_);
  tally_.add(static_cast<double>(scrape.duration_ns) / 1e6, point, scrape.error);
  if (file_) {
    ScrapeLine line;
    line.phase = phase;
    line.t_ns = scrape.t_ns;
    line.t_unix_ns = scrape.t_unix_ns;
    line.duration_ns = scrape.duration_ns;
    line.ok = scrape.ok;
    line.error = scrape.error;
    line.point = point ? &*point : nullptr;
    line.samples = scrape.ok ? &scrape.exposition.samples : nullptr;
    file_->append(line);
    if (!file_->ok() && !file_failed_) {
      file_failed_ = true;
      spdlog::warn("cannot write {}: later scrapes are kept in memory only", file_->path());
    }
  }
  if (keep != nullptr && scrape.ok) *keep = std::move(scrape.exposition.samples);
}

void ServerWatch::begin_run(const std::string& run_dir, int64_t anchor_ns) {
  {
    std::lock_guard lock(mutex_);
    file_.reset();
    file_failed_ = false;
    before_.clear();
    after_.clear();
    tally_ = ScrapeTally(view_.metrics_interval_s);
    profiled_ = false;
    profile_note_.clear();
  }
  if (scraper_) {
    try {
      file_ = std::make_unique<ServerMetricsFile>(run_dir + "/server_metrics.jsonl", anchor_ns);
    } catch (const std::runtime_error& e) {
      spdlog::warn("{}: the scrapes are summarized but not written", e.what());
    }
    Scrape before = scraper_->scrape();
    before_ok_ = before.ok;
    before_error_ = before.error;
    const std::optional<ServerPoint> point = reduced(before);
    record(std::move(before), point, "before", &before_);
    scraper_->start(view_.metrics_interval_s, [this](Scrape&& s) {
      const std::optional<ServerPoint> during = reduced(s);
      record(std::move(s), during, "during", nullptr);
    });
  }
  if (profiler_) {
    const ProfilerCall call = profiler_->start();
    profiled_ = call.ok;
    profile_note_ = call.message;
    if (call.ok) {
      spdlog::info("profiler started: {} (the server runs slower while it profiles)", call.message);
    } else {
      spdlog::warn("--profile: {}; the run goes on without it", call.message);
    }
  }
}

ServerSummary ServerWatch::end_run(const ClientTotals& client) {
  if (profiler_ && profiled_) {
    spdlog::info("stopping the server's profiler (it writes its traces now; this can take "
                 "minutes)");
    const ProfilerCall call = profiler_->stop();
    profile_note_ += "; " + call.message;
    if (call.ok) {
      spdlog::info("profiler stopped: {}", call.message);
    } else {
      spdlog::warn("--profile: {}", call.message);
    }
  }
  ServerSummary summary;
  if (scraper_) {
    scraper_->stop();
    // Some engines count a request (and its tokens) only once it is done: wait for them briefly.
    Scrape after = scraper_->scrape();
    std::optional<ServerPoint> point = reduced(after);
    const int64_t give_up = now_ns() + 1'000'000'000;
    while (point && now_ns() < give_up && trails_client(*point, client)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      record(std::move(after), point, "settling", nullptr);
      after = scraper_->scrape();
      point = reduced(after);
    }
    const bool after_ok = after.ok;
    const std::string after_error = after.error;
    record(std::move(after), point, "after", &after_);
    std::lock_guard lock(mutex_);
    summary = tally_.summarize(engine_, before_, after_, client);
    if (!before_ok_) {
      summary.unavailable_reason = "the scrape before the run failed: " + before_error_;
    } else if (!after_ok) {
      summary.unavailable_reason = "the scrape after the run failed: " + after_error;
    } else if (engine_.empty()) {
      summary.unavailable_reason =
          "the server's metric names are not among those llmperf knows (raw series in "
          "server_metrics.jsonl)";
    }
    if (summary.failed_scrapes > 0) {
      summary.warnings.push_back(fmt::format("{} of {} scrapes of {} failed (last: {})",
                                             summary.failed_scrapes, summary.scrapes, metrics_url_,
                                             tally_.last_error()));
    }
    if (summary.slow_scrapes > 0) {
      summary.warnings.push_back(fmt::format(
          "{} of {} scrapes took longer than the {:g} s interval (slowest {:.0f} ms): the server "
          "is busy, or --metrics-interval is too short",
          summary.slow_scrapes, summary.scrapes, view_.metrics_interval_s,
          summary.scrape_ms_max));
    }
    file_.reset();
  } else {
    summary.unavailable_reason = unavailable_;
  }
  summary.url = metrics_url_;
  summary.interval_s = view_.metrics_interval_s;
  summary.profiled = profiled_;
  summary.profile_note = profile_note_;
  return summary;
}

}  // namespace llmperf
