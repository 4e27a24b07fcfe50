// Reads the server's Prometheus /metrics: once on demand (before and after a run, from the
// caller's thread) and every interval during a run, on a thread of its own with its own HttpPool,
// so that scraping never touches the measured engine's event loop. A scrape that fails or is slow
// is reported as such and the next one follows on schedule.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "http/http_pool.h"
#include "protocol/prometheus.h"

namespace llmperf {

struct Scrape {
  int64_t t_ns = 0;         // steady time the answer arrived (or the call failed)
  int64_t t_unix_ns = 0;    // the same instant, wall clock
  int64_t duration_ns = 0;  // from the request to the answer
  bool ok = false;          // an HTTP 200 whose body is Prometheus text
  std::string error;        // why not: "HTTP 404: ...", "connection refused", ...
  Exposition exposition;    // what it said, when ok
};

// Why an answer is not a usable exposition, or nullopt when it is.
std::optional<std::string> exposition_problem(const HttpReply& reply, const Exposition& parsed);

class MetricsScraper {
 public:
  // Throws std::runtime_error when curl cannot be set up.
  MetricsScraper(std::string url, HttpPoolOptions http);
  // Several replicas: each scrape reads every URL at once and is their sum (sum_expositions);
  // it fails when any of them fails. One URL: as above.
  MetricsScraper(std::vector<std::string> urls, HttpPoolOptions http);
  ~MetricsScraper();  // stops the periodic scrapes
  MetricsScraper(const MetricsScraper&) = delete;
  MetricsScraper& operator=(const MetricsScraper&) = delete;

  const std::string& url() const { return url_; }

  // One scrape now, on the caller's thread; not while periodic scrapes run.
  Scrape scrape();

  // Scrapes every `interval_s` (the first one interval_s from now) on a thread of its own,
  // handing each to `on_scrape` on that thread, until stop().
  void start(double interval_s, std::function<void(Scrape&&)> on_scrape);
  // Ends the periodic scrapes (a scrape in progress is cancelled) and joins the thread; on_scrape
  // is not called after it returns.
  void stop();

 private:
  void loop(int64_t interval_ns, const std::function<void(Scrape&&)>& on_scrape);

  Scrape scrape_replicas();  // several URLs: each read, then summed

  std::string url_;                // the URL, or the replicas' joined by ", "
  std::vector<std::string> urls_;  // several replicas (empty: url_ only)
  std::unique_ptr<HttpPool> pool_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::atomic<bool> stopping_{false};
};

}  // namespace llmperf
