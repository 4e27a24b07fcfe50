// server_metrics.jsonl: one line per scrape of the server's /metrics during a run, the scrape
// before and the scrape after included. Each line holds
//   phase        "before" | "during" | "after"
//   t_ns         steady time the answer arrived, from the run's anchor (as in requests.jsonl)
//   t_unix_ns    the same instant, wall clock
//   duration_ms  how long the scrape took;  ok, error  whether it answered Prometheus text
//   common       the engine's series in llmperf's vocabulary (running, waiting, kv_usage,
//                prompt_tokens, generation_tokens, requests, preemptions, prefix_hits,
//                prefix_queries), absent where the engine has none
//   series       every sample as "name{label=\"value\",...}": value (NaN and +-Inf as strings)
// Lines are appended as scrapes arrive (one writer at a time) and flushed, so an interrupted run
// keeps every scrape so far.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "core/server_sample.h"
#include "metrics/server_metrics.h"

namespace llmperf {

struct ScrapeLine {
  std::string_view phase;
  int64_t t_ns = 0;  // steady
  int64_t t_unix_ns = 0;
  int64_t duration_ns = 0;
  bool ok = false;
  std::string_view error;
  const ServerPoint* point = nullptr;               // null when not ok
  const std::vector<MetricSample>* samples = nullptr;  // null when not ok
};

// One line (without the newline); `anchor_ns` is the run's steady anchor.
std::string render_scrape_line(const ScrapeLine& scrape, int64_t anchor_ns);

class ServerMetricsFile {
 public:
  // Opens (truncates) `path`, creating its directory. Throws std::runtime_error naming the path.
  ServerMetricsFile(const std::string& path, int64_t anchor_ns);
  ~ServerMetricsFile();
  ServerMetricsFile(const ServerMetricsFile&) = delete;
  ServerMetricsFile& operator=(const ServerMetricsFile&) = delete;

  // Writes one line and flushes it; a write error is logged once by the caller's reading of ok().
  void append(const ScrapeLine& scrape);
  bool ok() const { return ok_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int64_t anchor_ns_ = 0;
  std::FILE* file_ = nullptr;
  bool ok_ = true;
};

}  // namespace llmperf
