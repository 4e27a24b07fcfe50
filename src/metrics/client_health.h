// Client health: is llmperf itself the bottleneck? A load generator that cannot keep up measures
// itself, not the server. Judged from how long ready events waited to be stamped and how late
// open-loop requests were sent by the client's own doing (not while they waited for a free slot),
// each weighed against what the run measured (a 2 ms lateness does not matter beside waits of
// seconds, and does beside a 1 ms gap between sends), and from how much CPU the client used. A
// material lateness while llmperf used little CPU is the machine's doing (other processes, a
// hypervisor), not llmperf's: it is reported as such, with the kernel's figures. Pure functions.
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

// A p99 lateness (stamp delay, the client's own send lateness) matters when it exceeds a share of
// an interval the run measures with it: a tenth of a measured latency (TTFT, ITL, E2E at p50),
// which it adds to directly, or a quarter of the mean gap between planned sends, beyond which the
// arrivals the server sees lose their shape. Never below the floor: sub-millisecond lateness is
// what any client on a general-purpose kernel shows.
inline constexpr double kLatencyShare = 0.1;
inline constexpr double kGapShare = 0.25;
inline constexpr int64_t kLatenessFloorNs = 1'000'000;  // 1 ms
inline constexpr double kCpuLimit = 0.9;                // CPU time / (wall time x worker threads)
// Below this busy share (ClientHealth::busy_share) the worker threads had time to spare: a
// material lateness then came from the machine (its scheduler gave the cores to other processes
// when llmperf woke up), and --threads would not help. At or above it, llmperf's own work filled
// its time: its lateness is its own, even where the machine also made it wait.
inline constexpr double kLowCpuShare = 0.5;

// The machine around the client during a run, from the kernel's accounting: what tells a busy
// machine from a busy llmperf.
struct MachineLoad {
  bool measured = false;             // false: /proc/stat was not readable (not Linux)
  int cores = 0;                     // CPUs online (/proc/stat's cpuN lines)
  double others_cpu_s = 0;           // CPU time of every other process during the run
  double steal_s = 0;                // time a hypervisor ran other guests on this machine's CPUs
  int64_t involuntary_switches = 0;  // times the worker threads were preempted while runnable
  double run_queue_wait_s = -1;      // time the worker threads waited, runnable, for a CPU (-1:
                                     // unknown: no /proc/thread-self/schedstat)
  // Other runs in this process at the same time (`tune --slots`: the other trials' benchmarks),
  // and this process's CPU time beyond this run's own threads meanwhile: mostly theirs. Load on
  // the machine that others_cpu_s, which counts other processes only, leaves out. 0 and 0 when the
  // run had the process to itself (its other threads then are its own helpers).
  int side_by_side_runs = 0;
  double side_by_side_cpu_s = 0;
};

// One judged lateness: its p99, the limit it was held to and what that limit came from.
struct LatenessJudgement {
  double p99_ns = 0;    // p99 (or max when 99 is not among the percentiles); 0: not measured
  double limit_ns = 0;  // the smallest share of a measured interval, at least kLatenessFloorNs
  std::string scale;    // where the limit came from ("10% of the ITL p50 of 12.0 ms"); empty:
                        // the floor
  bool material() const { return p99_ns > limit_ns; }
};

struct ClientHealth {
  bool measured = false;        // false: not assessed (e.g. summary rebuilt from records)
  Distribution stamp_delay_ns;  // per loop turn: socket ready -> last ready event stamped
  double cpu_s = 0;             // CPU time of the worker threads' event loops during the run
  double cpu_utilization = 0;   // cpu_s / (wall time x worker threads)
  // cpu_s / (wall time x worker threads - their run-queue wait): how much of the time the machine
  // let the workers run they spent working (cpu_utilization when the wait is unknown). On a busy
  // machine a client that never slept still shows 100% here, however little CPU it was given.
  double busy_share = 0;
  int threads = 1;                    // worker threads
  std::string threads_reason;         // how --threads chose them ("auto: ...", "--threads 4")
  LatenessJudgement stamp_delay;      // the stamp delay against the stamped intervals
  LatenessJudgement client_lag;       // open loop: the client's own send lateness
  MachineLoad machine;                // the rest of the machine meanwhile
  bool client_bound = false;          // llmperf's own work limited the measurement
  std::vector<std::string> warnings;  // one line per reason it is client-bound
  // A material lateness while the worker threads were busy under kLowCpuShare of the time they
  // could run: the machine was busy with other work, not llmperf.
  bool machine_busy = false;
  std::vector<std::string> machine_warnings;  // one line per lateness the machine caused
};

// What a lateness is weighed against: the run's own measurements (null or empty: not measured).
struct MeasuredIntervals {
  double arrival_gap_ns = 0;                 // open loop: mean gap between planned sends (1/rate)
  const Distribution* ttft_ns = nullptr;     // streams
  const Distribution* itl_ns = nullptr;      // streams
  const Distribution* latency_ns = nullptr;  // every request (the scale without a stream)
};

struct ClientHealthInput {
  PooledSamples stamp_delay_ns;  // LoadResult::stamp_delay_ns
  double cpu_s = 0;
  double wall_s = 0;
  int threads = 1;
  int usable_cores = 0;  // cores llmperf may run on (0: unknown): whether --threads would help
  // Open loop only: each send's own lateness (OpenLoopSummary::client_lag_ns), which excludes
  // waits for a free slot: a server that holds every slot does not make the client late.
  const Distribution* client_lag_ns = nullptr;
  MeasuredIntervals measured;
  MachineLoad machine;  // LoadResult::machine
};

ClientHealth assess_client_health(const ClientHealthInput& input,
                                  const std::vector<double>& percentiles);

}  // namespace llmperf
