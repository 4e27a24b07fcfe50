// The request engine: drives N concurrent requests over libcurl's multi interface and returns the
// raw records. One worker thread per --threads, each with its own curl multi handle, epoll loop
// and slots; workers own their state and their records are merged after they finish.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "llmperf/config.h"
#include "llmperf/dataset.h"
#include "llmperf/record.h"
#include "llmperf/request_builder.h"

namespace llmperf {

// What one run asks of the engine.
struct LoadPlan {
  int parallel = 1;     // requests kept in flight (closed loop)
  int64_t number = 1;   // requests to send in total
  int threads = 1;      // worker threads (capped at parallel)
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
};

struct LoadResult {
  std::vector<RequestRecord> records;  // every dispatched request, ordered by id
  int64_t start_ns = 0;                // steady time the first request could be dispatched
  int64_t end_ns = 0;                  // steady time the last request finished
  bool interrupted = false;            // stopped early by StopControl
};

// Runs `plan` against config.url. Never throws for request failures (they are recorded);
// throws std::runtime_error only when curl itself cannot be set up.
LoadResult run_load(const Config& config, const LoadPlan& plan, const std::vector<Prompt>& prompts,
                    const RequestBuilder& builder, LoadProgress* progress,
                    const StopControl& stop);

// Must be called once before any other thread starts (curl_global_init is not thread-safe).
void init_transport();

}  // namespace llmperf
