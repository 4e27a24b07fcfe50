// Client health: is llmperf itself the bottleneck? A load generator that cannot keep up measures
// itself, not the server. Judged from how long ready events waited to be stamped, how late
// open-loop requests were sent by the client's own doing (not while they waited for a free slot),
// and how much CPU the client used. Pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "metrics/stats/pooled_samples.h"
#include "metrics/stats/stats.h"

namespace llmperf {

// Why open-loop sends left after their planned time. A send waits for a free slot when every slot
// of its worker is held by an unfinished request: the in-flight cap (--parallel) was reached
// because the server did not keep up with the rate. What is left of its lag (actual - planned
// send) is the client's own lateness: only that makes a run client-bound.
struct OpenLoopSummary {
  int64_t sends = 0;           // measured requests with a planned send time
  int64_t slot_waits = 0;      // of them, sent late because no slot was free at their planned time
  int64_t slot_unknown = 0;    // of them, without a recorded slot wait (records from before it)
  Distribution slot_wait_ns;   // how long those waited for a slot (sends that waited only)
  Distribution client_lag_ns;  // per send: its lag minus its slot wait: the client's lateness
  // The share of sends that found the in-flight cap reached (0-1; 0 without sends).
  double cap_reached_share() const {
    return sends > 0 ? static_cast<double>(slot_waits) / static_cast<double>(sends) : 0;
  }
};

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
  // Open loop only: each send's own lateness (OpenLoopSummary::client_lag_ns), which excludes
  // waits for a free slot: a server that holds every slot does not make the client late.
  const Distribution* client_lag_ns = nullptr;
};

ClientHealth assess_client_health(const ClientHealthInput& input,
                                  const std::vector<double>& percentiles);

}  // namespace llmperf
