// The request engine: drives N concurrent requests over libcurl's multi interface and hands the
// raw records of finished requests to a sink while the run goes on. One worker thread per
// --threads, each with its own curl multi handle, epoll loop and slots; workers own their state and
// pass finished records on in batches (one lock per batch, at most every 50 ms; none per event).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/record.h"
#include "core/run_types.h"
#include "metrics/client_health.h"
#include "metrics/stats/pooled_samples.h"
#include "workload/dataset.h"
#include "workload/request_builder.h"
#include "workload/replay/session_script.h"

namespace llmperf {

// How every request of a benchmark is sent and read: the engine's share of the Config
// (plan/run_plan.h's request_settings fills it).
struct RequestSettings {
  std::string url;                  // --url
  double connect_timeout_s = 600;   // --connect-timeout
  double read_timeout_s = 600;      // --read-timeout: longest silence between reads (0: none)
  double total_timeout_s = 21600;   // --total-timeout: whole request
  bool insecure = false;            // --insecure
  std::string cacert;               // --cacert
  HttpMode http_mode = HttpMode::kHttp1;   // --http2, --http2-prior-knowledge
  int64_t max_streams_per_connection = 0;  // HTTP/2 streams per connection; 0: the server's limit
  bool stream = true;               // --stream (APIs that generate text only)
  bool history_recorded = false;    // --history recorded: later turns carry the dataset's answers
  double keep_text_mib = 64;        // --keep-text: answer text kept for the records, at most
  TurnDelay turn_delay;             // --turn-delay: think time before each later turn
  uint64_t seed = 0;                // --seed, for the turn delays' draws
  // Several --url: the replicas requests are spread over (empty: `url` only), and how: the one
  // with the fewest requests in flight at send time (ties by round-robin), or round-robin by
  // request id (by conversation with --multi-turn, so a conversation stays on one replica).
  std::vector<std::string> urls;
  bool least_inflight = false;
  // --cancel-rate / --cancel-after: the fraction of measured requests closed on purpose (0: none)
  // and when.
  double cancel_rate = 0;
  CancelAfter cancel_after;
};

// What one run asks of the engine.
struct LoadPlan {
  int parallel = 1;    // closed loop: requests kept in flight; open loop: cap on requests in flight
  int64_t number = 1;  // measured requests to send
  int64_t warmup = 0;  // requests sent first (same load shape), marked warm-up
  int threads = 1;     // worker threads (capped at parallel)
  // Open loop: planned send offset (ns from the run start) of every request, warm-up first; a
  // request that finds no free slot at its planned time waits, and the wait is recorded.
  // Empty: closed loop.
  std::vector<int64_t> schedule_ns;
  int64_t duration_ns = 0;  // stop dispatching this long after the start (0: no limit)
  // --multi-turn: the conversations. number and warmup then count conversations, each sent turn
  // by turn on one slot (the schedule plans their first turns); `prompts` is not used.
  const std::vector<SessionScript>* sessions = nullptr;
  // Sharded runs (--shard I/N): this process sends the requests (conversations) whose ids are
  // ≡ shard (mod shards) among the warmup + number of the whole benchmark, with the prompts,
  // warm-up marks and record ids they have there. `schedule_ns` then holds this shard's entries
  // only (the whole benchmark's schedule, partitioned), in id order.
  int shard = 0;
  int shards = 1;
  // The requests (conversations) of the whole benchmark this shard sends: ids shard,
  // shard + shards, ... below warmup + number.
  int64_t shard_total() const {
    const int64_t all = warmup + number;
    return all > shard ? (all - shard + shards - 1) / shards : 0;
  }
};

// Live counters the engine updates once per finished request (never per event), read by the
// progress display on another thread.
struct LoadProgress {
  std::atomic<int64_t> started{0};
  std::atomic<int64_t> finished{0};
  std::atomic<int64_t> failed{0};
};

// Ways to stop a run from outside: the count of interrupts (Ctrl-C/SIGTERM) seen so far.
// 1: stop dispatching, give in-flight requests a grace period, then cancel them; 2+: cancel now.
struct StopControl {
  const std::atomic<int>* interrupts = nullptr;
  int64_t grace_ns = 3'000'000'000;  // how long in-flight requests may finish after the first stop
  // An early stop (--max-errors, --max-error-rate, --stop-on-saturation), set to 1 by the app
  // from the record sink: read like `interrupts` (null: none).
  const std::atomic<int>* early_stop = nullptr;
};

// Receives the records of finished requests, in completion order, while the run goes on (about
// every 100 ms) and once more at its end, on one collector thread, a few dozen records per call
// (calls never overlap; run_load returns after the last). It may move the records out. Every
// dispatched request reaches the sink exactly once, unless the sink throws: then the run is
// cancelled and later records are dropped.
using RecordSink = std::function<void(std::span<RequestRecord> records)>;

struct LoadResult {
  int64_t start_ns = 0;      // steady time the first request could be dispatched
  int64_t end_ns = 0;        // steady time the last request finished
  bool interrupted = false;  // stopped early by StopControl
  // Client health: for every loop turn that found ready sockets, the time from epoll returning
  // to the last of them being handled, i.e. the longest a read event waited to be stamped.
  PooledSamples stamp_delay_ns;
  double cpu_s = 0;  // CPU time (user + system) of the worker threads' event loops, less the
                     // time spent spinning for open-loop send times
  // The rest of the machine meanwhile, and how often the worker threads waited for a CPU: what
  // tells a late client that was busy from one the machine did not give a core to.
  MachineLoad machine;
};

// Runs `plan` against settings.url, handing every finished request's record to `sink`. Never throws
// for request failures (they are recorded); throws std::runtime_error only when curl itself cannot
// be set up, and passes on what the sink throws (after the workers have stopped).
LoadResult run_load(const RequestSettings& settings, const LoadPlan& plan, const std::vector<Prompt>& prompts,
                    const RequestBuilder& builder, LoadProgress* progress, const StopControl& stop,
                    const RecordSink& sink);

}  // namespace llmperf
