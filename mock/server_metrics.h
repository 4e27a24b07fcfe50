// llmperf-mock's own view of its work, served at GET /metrics in vLLM's Prometheus names: request
// gauges, token counters equal to the usage it reports (prefix-cache queries and hits included),
// finished requests by reason, and histograms of what it actually did (TTFT, inter-token gaps,
// end-to-end and queue time) in vLLM's bucket bounds. The counters are relaxed atomics, so any
// thread may render while the io thread records; each request's own progress lives in a
// MeteredRequest its connection owns.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace llmperf::mock {

// Where a completion request is in the server's view.
enum class RequestPhase {
  kNone,     // not counted: never accepted, or already finished
  kWaiting,  // accepted, held by --max-active until a slot frees
  kRunning,  // admitted: being answered (or stalled by a fault) until it finishes
};

// How a request ended, as vllm:request_success_total's finished_reason label names it.
enum class FinishReason {
  kStop,    // the reply ended with finish_reason "stop"
  kLength,  // the reply ended with finish_reason "length"
  kAbort,   // the reply did not complete: client gone, injected fault, shutdown
};

// One request's progress, owned by its connection and updated only through MockMetrics.
struct MeteredRequest {
  RequestPhase phase = RequestPhase::kNone;  // where the request is
  std::int64_t received_ns = 0;              // steady_clock ns of arrival (the event log's recv)
  std::int64_t prompt_tokens = 0;            // usage.prompt_tokens of the request
  std::int64_t generated_tokens = 0;         // tokens handed to the socket so far
  std::int64_t chunks_emitted = 0;           // content chunks handed to the socket so far
  std::int64_t last_emit_ns = 0;  // steady_clock ns of the latest chunk (valid when > 0 chunks)
};

// A cumulative histogram over fixed upper bounds in seconds (plus +Inf), observed in nanoseconds.
class LatencyHistogram {
 public:
  explicit LatencyHistogram(std::span<const double> bounds_s);

  void observe(std::int64_t ns);
  // Appends the _bucket, _count and _sum lines of `name`, labelled engine="0" and
  // model_name="`model_escaped`" (already escaped for a label value).
  void render(std::string& out, std::string_view name, std::string_view model_escaped) const;

 private:
  std::span<const double> bounds_s_;                // vLLM's upper bounds, in seconds
  std::vector<std::int64_t> bounds_ns_;             // the same bounds in ns, for exact bucketing
  std::vector<std::atomic<std::uint64_t>> counts_;  // per bucket (not cumulative), +Inf last
  std::atomic<std::int64_t> sum_ns_{0};             // sum of the observations, ns
};

// The mock's server-side metrics; owned by ServerContext.
class MockMetrics {
 public:
  // `kv_cache_tokens` (> 0) is the capacity behind vllm:kv_cache_usage_perc (--kv-cache-tokens).
  explicit MockMetrics(std::int64_t kv_cache_tokens);
  MockMetrics(const MockMetrics&) = delete;
  MockMetrics& operator=(const MockMetrics&) = delete;

  // The request was accepted at `received_ns` and waits for a response slot.
  void on_arrival(MeteredRequest& request, std::int64_t received_ns, std::int64_t prompt_tokens);
  // The request got its slot at `ns`: it runs, its prompt tokens count (vLLM counts them at
  // prefill, which is when a request starts) and its queue time is observed.
  void on_start(MeteredRequest& request, std::int64_t ns);
  // `chunks` content chunks carrying `tokens` tokens were handed to one write at `ns` (the same
  // stamp as the event log's evt lines). Generation tokens count as emitted, so the counter moves
  // while replies stream. The first chunk observes TTFT (arrival to it); every later chunk one
  // inter-token gap (0 for chunks sharing a write, as in the event log).
  void on_emit(MeteredRequest& request, std::int64_t chunks, std::int64_t tokens, std::int64_t ns);
  // The request ended at `ns`. A running request observes its end-to-end latency and frees its
  // KV tokens; a waiting one only counts as an abort. Does nothing for a request not counted.
  void on_finish(MeteredRequest& request, FinishReason reason, std::int64_t ns);
  // A request that started looked its `queried_tokens` prompt tokens up in the prefix cache and
  // found `hit_tokens` of them (its usage's cached_tokens), as vLLM counts prefix-cache stats.
  void on_prefix_cache_lookup(std::int64_t queried_tokens, std::int64_t hit_tokens);

  // The Prometheus text exposition (format 0.0.4), every series labelled engine="0" and
  // model_name=`model`, numbers formatted as Prometheus' Python client does ("1.0", "+Inf").
  std::string render(std::string_view model) const;

 private:
  std::int64_t kv_cache_tokens_;                    // KV capacity in tokens
  std::atomic<std::int64_t> running_{0};            // requests in kRunning
  std::atomic<std::int64_t> waiting_{0};            // requests in kWaiting
  std::atomic<std::int64_t> kv_tokens_{0};          // prompt + generated tokens of running requests
  std::atomic<std::int64_t> prompt_tokens_{0};      // vllm:prompt_tokens_total
  std::atomic<std::int64_t> generation_tokens_{0};  // vllm:generation_tokens_total
  std::atomic<std::int64_t> prefix_queries_{0};     // vllm:prefix_cache_queries_total, tokens
  std::atomic<std::int64_t> prefix_hits_{0};        // vllm:prefix_cache_hits_total, tokens
  std::array<std::atomic<std::int64_t>, 3> finished_{};  // requests ended, by FinishReason
  LatencyHistogram ttft_;                                // arrival -> first content chunk
  LatencyHistogram itl_;    // gap between consecutive content chunks of a request
  LatencyHistogram e2e_;    // arrival -> end of a request that ran
  LatencyHistogram queue_;  // arrival -> response slot
};

// `value` as Python's repr(float) writes it, which is how Prometheus' Python client formats
// sample values and le bounds: "0.001", "1.0", "2560.0", "1e-05", "+Inf".
std::string prometheus_number(double value);

}  // namespace llmperf::mock
