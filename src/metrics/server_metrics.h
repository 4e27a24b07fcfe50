// The server's own view (its Prometheus /metrics) reduced to one vocabulary, and set beside the
// client's. Every engine's names are mapped onto common series (the table in server_metrics.cpp):
//   running / waiting requests, KV-cache usage (0-1)                 gauges
//   prompt and generated tokens, finished requests, preemptions,
//   prefix-cache hits and queries (tokens)                           counters
//   TTFT, inter-token latency, end-to-end latency, queue time        histograms (seconds)
// Counters and histograms are taken as deltas between the scrape before a run and the scrape
// after it; gauges as their mean and maximum over the scrapes during it. Histogram quantiles come
// from the bucket deltas by linear interpolation within a bucket (Prometheus' histogram_quantile),
// so they are only as fine as the server's buckets, which the summary states. Pure: no I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/record.h"
#include "core/record_consumer.h"
#include "core/server_sample.h"

namespace llmperf {

// One scrape reduced to the common series (absent where the engine has no such metric).
struct ServerPoint {
  int64_t t_ns = 0;  // steady time the scrape finished
  std::optional<double> running;
  std::optional<double> waiting;
  std::optional<double> kv_usage;           // fraction 0-1
  std::optional<double> prompt_tokens;      // cumulative counters
  std::optional<double> generation_tokens;
  std::optional<double> requests;  // finished requests
  std::optional<double> preemptions;
  std::optional<double> prefix_hits;     // tokens found in the prefix cache
  std::optional<double> prefix_queries;  // tokens looked up in it
};

// The engine whose names the samples use: "vLLM", "SGLang", "TGI", "llama.cpp", or "".
std::string detect_engine(const std::vector<MetricSample>& samples);

// The common series of one scrape (`engine` as detect_engine says).
ServerPoint reduce_scrape(const std::string& engine, const std::vector<MetricSample>& samples,
                          int64_t t_ns);

// A server histogram over a window: bucket deltas, summed over label sets.
struct HistogramWindow {
  std::string metric;           // the engine's name, e.g. "vllm:time_to_first_token_seconds"
  std::vector<double> bounds;   // upper bounds, ascending; +Inf last
  std::vector<double> counts;   // cumulative count per bound over the window
  double sum = 0;               // of the observations (seconds)
  double count = 0;             // observations
  // The q-quantile (0-1) and the bounds of the bucket it falls in; nullopt without observations.
  struct Quantile {
    double value = 0;
    double lower = 0;
    double upper = 0;
  };
  std::optional<Quantile> quantile(double q) const;
};

// A gauge over the scrapes of a window.
struct GaugeStats {
  int64_t samples = 0;    // scrapes during the run that had the gauge
  double mean = 0;        // over those scrapes
  double max = 0;         // over those scrapes
  bool reported = false;  // the server has this gauge (some scrape of the run had it)
  // Enough scrapes during the run for a mean and maximum: fewer than two (a run shorter than
  // the scraping interval) describe a moment, not the run.
  bool complete() const { return samples >= 2; }
};

// What the client counted, to set beside the server's counters: every request of the run,
// warm-up and failures included (the server saw them too); one of a run's RecordConsumers.
struct ClientTotals : RecordConsumer {
  int64_t requests = 0;           // requests that got an HTTP 200 answer
  int64_t prompt_tokens = 0;      // sum of usage.prompt_tokens
  int64_t completion_tokens = 0;  // sum of usage.completion_tokens
  int64_t without_usage = 0;      // answered requests whose usage is missing
  // A shard of a sharded benchmark: the server also counts the other shards' requests, so its
  // totals are not compared with these (the merged run has the whole benchmark's).
  bool shard_of_benchmark = false;
  void add(const RequestRecord& record);
  void add(std::span<const RequestRecord> records) override;
};

// One total, client beside server.
struct Reconciled {
  bool available = false;  // both sides have it
  double client = 0;
  double server = 0;
  double difference = 0;  // server - client
  double relative = 0;    // |difference| / client (0 when both are 0)
  bool matches = true;    // relative <= tolerance
  // The server's count leaves some out by design (llama.cpp's prompt counter skips cached
  // tokens): only a server count above the client's is a mismatch.
  bool lower_bound = false;
};

struct ServerSummary {
  bool available = false;   // the scrapes before and after the run both answered
  std::string unavailable_reason;  // why not, when the server was probed
  std::string engine;       // detect_engine's answer
  std::string url;          // where /metrics was read
  int64_t scrapes = 0;      // scrapes of this run, before and after included
  int64_t failed_scrapes = 0;
  int64_t slow_scrapes = 0;  // scrapes that took longer than the interval
  double interval_s = 0;
  double scrape_ms_max = 0;
  // Counter deltas over the run.
  std::optional<double> requests, prompt_tokens, generation_tokens, preemptions;
  std::optional<double> prefix_hits, prefix_queries;
  // Gauges over the scrapes during the run.
  GaugeStats running, waiting, kv_usage;
  // Histograms over the run.
  std::optional<HistogramWindow> ttft, itl, e2e, queue;
  // Client against server.
  double tolerance = 0.01;  // a relative difference beyond it is a mismatch
  Reconciled requests_check, prompt_check, generation_check;
  std::vector<std::string> warnings;  // mismatches with their likely causes, counter resets
  std::vector<std::string> notes;     // what a reader should know that is not a problem
  std::vector<ServerPoint> timeline;  // every scrape of the run, in order
  // --profile: whether the server's profiler ran during the run, and what it said.
  bool profiled = false;
  std::string profile_note;

  // The SLO values: the largest relative token difference (prompt or generated) and the
  // relative request difference; nullopt when not available.
  std::optional<double> token_mismatch() const;
  std::optional<double> request_mismatch() const;
};

// Reduces the scrapes of one run. `before` and `after` are the full samples of the scrapes taken
// just before and just after it; `timeline` every scrape reduced (before and after included).
ServerSummary summarize_server(const std::string& engine, const std::vector<MetricSample>& before,
                               const std::vector<MetricSample>& after,
                               std::vector<ServerPoint> timeline, const ClientTotals& client,
                               double tolerance = 0.01);

// How the scrapes of one run went, tallied as they come (live, or read back from
// server_metrics.jsonl) and then folded into the run's summary.
class ScrapeTally {
 public:
  // A scrape that takes longer than `interval_s` (the scraping interval, seconds) is slow.
  explicit ScrapeTally(double interval_s = 0) : interval_s_(interval_s) {}

  // One scrape that took `duration_ms`: `point` is its reduction when it answered, nullopt when it
  // failed with `error`.
  void add(double duration_ms, const std::optional<ServerPoint>& point, std::string_view error);

  // summarize_server over the answered scrapes, with the interval and the scrape counts filled in.
  ServerSummary summarize(const std::string& engine, const std::vector<MetricSample>& before,
                          const std::vector<MetricSample>& after, const ClientTotals& client) const;

  const std::string& last_error() const { return last_error_; }

 private:
  double interval_s_ = 0;              // the scraping interval (seconds)
  int64_t scrapes_ = 0;                // every scrape, failed ones included
  int64_t failed_ = 0;                 // scrapes that got no Prometheus text
  int64_t slow_ = 0;                   // scrapes that took longer than the interval
  double slowest_ms_ = 0;              // the longest scrape (milliseconds)
  std::string last_error_;             // why the last failed scrape failed
  std::vector<ServerPoint> timeline_;  // the answered scrapes, reduced, in order
};

}  // namespace llmperf
