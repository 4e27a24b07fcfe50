// The server's side of each run: who the server is (once, at start-up), its /metrics scraped
// before, during and after every run on a thread of its own (written to server_metrics.jsonl and
// summarized against the client's totals), and its profiler around the measured requests
// (--profile). Nothing here touches the measured engine: the scrapes use their own curl handle.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/server_sample.h"
#include "metrics/server_metrics.h"
#include "report/server/server_metrics_file.h"
#include "server/metrics_scraper.h"
#include "server/profiler.h"
#include "server/server_view_options.h"

namespace llmperf {

class ServerWatch {
 public:
  // Asks the server who it is and probes its /metrics (unless --no-server-metrics), logging what
  // it found. The server's answers never throw; a probe that fails only turns scraping off.
  // `options`: the plan's (plan/side_channels.h's server_view_options).
  explicit ServerWatch(ServerViewOptions options);
  ~ServerWatch();
  ServerWatch(const ServerWatch&) = delete;
  ServerWatch& operator=(const ServerWatch&) = delete;

  const ServerIdentity& identity() const { return identity_; }

  // Just before a run's first request: the "before" scrape, server_metrics.jsonl opened in
  // `run_dir` (times from `anchor_ns`, as in requests.jsonl), periodic scrapes started, the
  // profiler started (--profile).
  void begin_run(const std::string& run_dir, int64_t anchor_ns);
  // Right after its last request: the profiler stopped, the periodic scrapes stopped, the
  // "after" scrape (repeated for up to a second while the server's counters still trail the
  // client's: some engines count a request only once it is done), and the run summarized.
  ServerSummary end_run(const ClientTotals& client);

 private:
  // The scrape reduced to the common series; nullopt when it failed.
  std::optional<ServerPoint> reduced(const Scrape& scrape) const;
  // Tallies the scrape and its reduction, writes its line, and keeps its samples in `keep`.
  void record(Scrape&& scrape, const std::optional<ServerPoint>& point, const char* phase,
              std::vector<MetricSample>* keep);

  const ServerViewOptions view_;  // where, how, --server-metrics, --metrics-url, ..., --profile
  ServerIdentity identity_;
  std::string metrics_url_;
  std::string engine_;  // whose names /metrics uses
  std::string unavailable_;  // why /metrics is not scraped ("" when it is)
  std::unique_ptr<MetricsScraper> scraper_;
  std::unique_ptr<ServerProfiler> profiler_;

  // The current run (the scraper's thread records "during" scrapes under mutex_).
  std::mutex mutex_;
  std::unique_ptr<ServerMetricsFile> file_;
  bool file_failed_ = false;
  std::vector<MetricSample> before_;
  std::vector<MetricSample> after_;
  bool before_ok_ = false;
  std::string before_error_;
  ScrapeTally tally_;
  bool profiled_ = false;
  std::string profile_note_;
};

}  // namespace llmperf
