// Metrics: request records -> run summary (DESIGN §3), either all at once (summarize) or one record
// at a time as a run goes on (SummaryBuilder), so that records can be written out and dropped as
// they finish. No curl, threads, I/O or logging in here. Times stay in nanoseconds and throughputs
// in per-second units; only reports convert units.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/record.h"
#include "core/record_consumer.h"
#include "metrics/client_health.h"
#include "metrics/exactness.h"
#include "metrics/goodput.h"
#include "metrics/http_phases.h"
#include "metrics/reasoning.h"
#include "metrics/sessions.h"
#include "metrics/stats/pooled_samples.h"
#include "metrics/server_metrics.h"
#include "metrics/stats/stats.h"
#include "metrics/stats/time_bins.h"

namespace llmperf {

struct MetricsOptions {
  std::vector<double> percentiles = {10, 25, 50, 66, 75, 80, 90, 95, 98, 99};
  bool open_loop = false;  // compute the latency_from_planned_ns / ttft_from_planned_ns fields
  GoodputSpec goodput;     // --goodput bounds; goodput is computed only when goodput.enabled()
  // Pooled ITL samples kept exactly up to this many; past it their percentiles come from a
  // histogram (within PooledSamples::kRelativeError), so memory stays bounded.
  size_t itl_exact_limit = PooledSamples::kDefaultExactLimit;
  // Steady time the run started: TimeBins in RunTrace count from here.
  int64_t origin_ns = 0;
  // Open loop with a moving rate (ramp-up): the run cut into this many equal spans of planned
  // send time, each with its rate and latencies (RunSummary::rate_segments); 0: none.
  int rate_segments = 0;
  // --ignore-eos: every output was asked to run to its max_tokens, so one that stops short missed
  // its length (RunSummary::length_misses).
  bool output_forced = false;
  // Several --url: the number of URLs; each gets a summary of its own records (RunSummary::by_url,
  // by RequestRecord::url_index). 0 or 1: none.
  size_t url_count = 0;
  // --include-cancelled: requests closed on purpose (ErrorKind::kCancelled) count in the
  // statistics as successful ones do (TTFT, ITL, latency to the close, tokens, throughput);
  // otherwise they are only counted (RunSummary::cancelled).
  bool include_cancelled = false;
};

// One span of planned send time of a run whose rate moves: the rate the schedule asked for there
// and what the requests planned in it met.
struct RateSegment {
  double start_s = 0;  // from the first planned send
  double end_s = 0;
  int64_t requests = 0;     // measured requests planned in the span
  int64_t failed = 0;
  double planned_rate = 0;  // requests / span (req/s)
  double sent_rate = 0;     // requests actually sent in the span / span (req/s)
  std::optional<double> ttft_p50_ns, ttft_mean_ns, latency_p50_ns, latency_mean_ns;
};

// How a summary's token counts were obtained.
struct TokenProvenance {
  int64_t from_usage = 0;  // successful requests whose count came from `usage`
  int64_t estimated = 0;   // ... estimated (chunk count or characters)
  int64_t unknown = 0;     // ... with no count at all
  // "usage" or "estimated" when every successful request's count is of that kind, "none" when
  // no successful request has a known count, otherwise "mixed".
  std::string label() const;
};

struct RunSummary {
  int64_t total = 0;  // measured requests (warm-up excluded)
  int64_t succeeded = 0;
  int64_t failed = 0;
  int64_t warmup = 0;  // warm-up requests excluded from everything below
  // Measured requests closed on purpose (--cancel-rate): in total, never in failed; in succeeded
  // and the statistics only with MetricsOptions::include_cancelled.
  int64_t cancelled = 0;
  std::map<std::string, int64_t> failures_by_kind;      // failure_kind_name -> count
  std::map<std::string, std::string> failure_examples;  // kind -> first error message
  // Requests sent again after the reused connection they went out on had been closed by the
  // server before any response byte (RequestRecord::resends > 0); not failures.
  int64_t resent = 0;

  int64_t window_ns = 0;           // earliest t_send to latest end among measured requests
  double qps = 0;                  // successful requests / window (req/s)
  double output_throughput = 0;    // sum output tokens (successful) / window (tok/s)
  double total_throughput = 0;     // (input + output tokens) / window (tok/s)
  int64_t total_input_tokens = 0;  // successful requests only
  int64_t total_output_tokens = 0;
  TokenProvenance input_provenance;
  TokenProvenance output_provenance;
  // Requested vs realized lengths of the requests that had targets (synthetic workloads).
  LengthExactness input_exactness;   // target_input_tokens vs usage.prompt_tokens
  LengthExactness output_exactness;  // target_output_tokens vs usage.completion_tokens
  LengthMisses length_misses;        // requests that missed either (see exactness.h)
  // Characters, for those who compare in characters: Unicode code points of the prompts and of
  // the generated text of successful requests, per second of the window.
  int64_t total_input_chars = 0;
  int64_t total_output_chars = 0;
  double input_chars_throughput = 0;   // chars/s
  double output_chars_throughput = 0;  // chars/s
  // vLLM's peak figures: the most output tokens of successful requests in one second of the run
  // (one-second bins from the run's start; a chunk's tokens at its read time), and the most
  // successful requests in flight at once (half-open [t_send, end) intervals).
  double peak_output_throughput = 0;  // tok/s
  int64_t peak_concurrency = 0;       // requests
  bool streamed = false;              // any measured request was a stream
  bool pooling = false;  // any measured request was an embeddings or rerank request (items > 0)

  // Per-request distributions over successful requests (ns, tokens, tok/s).
  Distribution latency_ns;  // E2E: end - t_send
  Distribution ttft_ns;     // first_content - t_send (stream only)
  // Time to first answer token: first_answer - t_send (stream only): the first chunk of answer
  // output, after any reasoning. Equal to TTFT for streams that do not reason.
  Distribution ttfat_ns;
  Distribution ttfb_ns;     // first_byte - t_send
  Distribution tpot_ns;     // (E2E - TTFT) / (output_tokens - 1), output_tokens > 1 (stream only)
  Distribution itl_ns;      // pooled gaps between consecutive output chunks (stream only)
  Distribution input_tokens;
  Distribution output_tokens;
  Distribution chunks_per_request;      // output-carrying chunks per request (stream only)
  Distribution output_tps_per_request;  // output_tokens / E2E (tok/s)
  Distribution total_tps_per_request;   // (input + output tokens) / E2E (tok/s)
  // Only when MetricsOptions::open_loop: latencies from the planned send (wrk2's correction for
  // coordinated omission). Empty otherwise.
  Distribution latency_from_planned_ns;
  Distribution ttft_from_planned_ns;
  Distribution ttfat_from_planned_ns;
  Distribution ttfb_from_planned_ns;
  // Only when MetricsOptions::open_loop: actual - planned send of every measured request, and the
  // achieved arrival rate: (requests - 1) / (last send - first send).
  Distribution schedule_lag_ns;
  double achieved_rate = 0;
  // Only when MetricsOptions::open_loop: the rate the schedule asked for, (planned sends - 1) /
  // (last planned send - first planned send), and the rate the server sustained, (successful
  // requests - 1) / (last end - first end) of the successful requests (0 when fewer than two).
  // A server that keeps up ends its requests as fast as they were planned; one that cannot ends
  // them at its own capacity, whatever the client sent. Their ratio is the `rate_sustained` SLO.
  double scheduled_rate = 0;
  double sustained_rate = 0;
  OpenLoopSummary open_loop;        // only when MetricsOptions::open_loop: why sends were late
  std::vector<double> percentiles;  // the percentile points every Distribution above uses
  ClientHealth client;  // filled by the runner from engine measurements (not by summarize)
  // Only when MetricsOptions::rate_segments > 0: the run by planned send time.
  std::vector<RateSegment> rate_segments;
  // --dataset shared_prefix: TTFT of the successful streamed requests that were the first of the
  // run to use their group's prefix, and of the others (empty otherwise); groups seen.
  Distribution ttft_prefix_first_ns;
  Distribution ttft_prefix_repeated_ns;
  int64_t prefix_groups_used = 0;
  // --multi-turn: by turn index and by conversation (empty otherwise).
  SessionSummary sessions;
  // Reasoning models: the reasoning and answer phases of the streams that reasoned.
  ReasoningSummary reasoning;
  // libcurl's HTTP phases, split into new and reused connections, and the HTTP versions used.
  HttpPhaseSummary http;
  // Embeddings and rerank: the inputs (documents) of the successful requests, per second of the
  // window.
  int64_t total_items = 0;
  double items_throughput = 0;
  // usage.prompt_tokens_details.cached_tokens over the successful requests that carried it: how
  // many did, their cached tokens and their input tokens.
  int64_t cached_reported = 0;
  int64_t cached_tokens = 0;
  int64_t cached_of_input = 0;

  // Goodput (vLLM's meaning), only when MetricsOptions::goodput.enabled().
  bool goodput_enabled = false;  // the fields below are meaningful
  GoodputSpec goodput_spec;      // the bounds a good request met
  int64_t good_requests = 0;     // measured requests meeting every bound
  double goodput_rps = 0;        // good_requests / window (req/s)
  double good_fraction = 0;      // good_requests / total (failed requests count as not good)

  // The server's own view over the run, from its /metrics (filled by the runner, not by
  // summarize; server.available is false when it was not read).
  ServerSummary server;

  // Several --url: one summary per URL, of the records sent there (by url_index; summary i is
  // config.urls[i]), computed as this one is. Empty with one URL.
  std::vector<RunSummary> by_url;
};

// What report.html draws beyond the summary, gathered in the same pass: about 24 bytes per
// request plus bounded bins and CDF points.
struct RunTrace {
  struct Request {
    int64_t sent_ns = 0;
    int64_t end_ns = 0;
    bool ok = false;
  };
  std::vector<Request> requests;  // measured requests that were sent and ended, in arrival order
  TimeBins output_tokens;         // output tokens of measured requests by the read time of their
                                  // chunks (spread evenly over a request's chunks; at its end
                                  // when it had none)
  // Values at cdf_points() (0, 0.25, ..., 100 percent) of the successful requests' TTFT, ITL and
  // latency (ns), for CDF charts; empty where there are no samples.
  std::vector<double> ttft_cdf_ns;
  std::vector<double> itl_cdf_ns;
  std::vector<double> latency_cdf_ns;
  static const std::vector<double>& cdf_points();
};

// Builds a RunSummary one record at a time, keeping a 64-byte row per measured request (enough for
// every per-request metric, exact) and the pooled ITL samples, never the records themselves. A
// run's records reach it as a RecordConsumer; finish() summarises them once the run has ended.
class SummaryBuilder : public RecordConsumer {
 public:
  explicit SummaryBuilder(MetricsOptions options);

  void add(const RequestRecord& record);
  void add(std::span<const RequestRecord> records) override;

  // The summary of every record added; `trace`, when given, receives the chart data. Call once.
  RunSummary finish(RunTrace* trace = nullptr);

 private:
  struct Row;
  static std::vector<RateSegment> rate_segments(const std::deque<Row>& rows, int count);
  static OpenLoopSummary open_loop_summary(const std::deque<Row>& rows,
                                           const std::vector<double>& percentiles);
  // --dataset shared_prefix: TTFTs by first or repeated use of a prefix, and the groups seen.
  std::vector<double> ttft_prefix_first_;
  std::vector<double> ttft_prefix_repeated_;
  std::vector<char> prefix_groups_seen_;  // by group: 1 once a measured request used it
  SessionTally sessions_;                 // --multi-turn
  ReasoningTally reasoning_;              // streams that reasoned
  HttpPhaseTally http_;                   // every measured request's HTTP phases

  // One measured request: what the statistics need once its record is gone.
  struct Row {
    int64_t planned_ns;
    int64_t slot_wait_ns;  // -1: not recorded
    int64_t sent_ns;
    int64_t first_byte_ns;
    int64_t first_content_ns;
    int64_t first_answer_ns;
    int64_t end_ns;
    int64_t input_tokens;
    int64_t output_tokens;
    int32_t chunks;  // output-carrying chunks
    bool ok;
    bool stream;
  };
  void add_failure(const RequestRecord& record);
  void add_to_seconds(const RequestRecord& record);

  MetricsOptions options_;
  RunSummary summary_;
  std::deque<Row> rows_;  // grows in fixed blocks: no doubling, no copy, for long runs
  PooledSamples itl_;
  TimeBins output_tokens_;
  std::vector<double> tokens_per_second_;  // successful requests' output tokens, 1 s bins
  // Several --url (MetricsOptions::url_count > 1): a builder per URL, fed that URL's records.
  std::vector<std::unique_ptr<SummaryBuilder>> by_url_;
};

// summarize(records) == a SummaryBuilder fed every record, finished.
RunSummary summarize(const std::vector<RequestRecord>& records, const MetricsOptions& options,
                     RunTrace* trace = nullptr);

}  // namespace llmperf
