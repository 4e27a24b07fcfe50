// Client health: is llmperf itself the bottleneck? A load generator that cannot keep up measures
// itself, not the server. Judged from how long ready events waited to be stamped, how late
// open-loop requests were sent, and how much CPU the client used. Pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "metrics/stats/pooled_samples.h"
#include "metrics/stats/stats.h"

namespace llmperf {

// Thresholds beyond which the numbers describe the client rather than the server.
inline constexpr int64_t kStampDelayLimitNs = 1'000'000;   // p99 ready-to-stamp delay: 1 ms
inline constexpr int64_t kScheduleLagLimitNs = 1'000'000;  // p99 open-loop send lag: 1 ms
inline constexpr double kCpuLimit = 0.9;  // CPU time / (wall time x worker threads)

struct ClientHealth {
  bool measured = false;              // false: not assessed (e.g. summary rebuilt from records)
  Distribution stamp_delay_ns;        // per loop turn: socket ready -> last ready event stamped
  double cpu_s = 0;                   // CPU time of the worker threads' event loops during the run
  double cpu_utilization = 0;         // cpu_s / (wall time x worker threads)
  int threads = 1;                    // worker threads
  std::string threads_reason;         // how --threads chose them ("auto: ...", "--threads 4")
  bool client_bound = false;          // any threshold crossed
  std::vector<std::string> warnings;  // one line per crossed threshold
};

struct ClientHealthInput {
  PooledSamples stamp_delay_ns;  // LoadResult::stamp_delay_ns
  double cpu_s = 0;
  double wall_s = 0;
  int threads = 1;
  const Distribution* schedule_lag_ns = nullptr;  // open loop only
};

ClientHealth assess_client_health(const ClientHealthInput& input,
                                  const std::vector<double>& percentiles);

}  // namespace llmperf
