// Tests for summarize(): hand-built records on round millisecond timestamps, with every expected
// number worked out by hand in the comments (DESIGN §3 definitions).
#include "metrics/metrics.h"
#include "test_units.h"

#include <gtest/gtest.h>

#include <cmath>

namespace llmperf {
namespace {

// A successful stream record; times in ms. first_content is the first chunk.
RequestRecord stream_record(int64_t sent_ms, int64_t first_byte_ms, std::vector<int64_t> chunks_ms,
                            int64_t end_ms, int64_t input_tokens, int64_t output_tokens) {
  RequestRecord r;
  r.stream = true;
  r.planned_ns = sent_ms * kMs;
  r.sent_ns = sent_ms * kMs;
  r.first_byte_ns = first_byte_ms * kMs;
  for (int64_t c : chunks_ms) r.chunk_ns.push_back(c * kMs);
  if (!r.chunk_ns.empty()) {
    r.first_content_ns = r.chunk_ns.front();
    r.last_event_ns = r.chunk_ns.back();
  }
  r.end_ns = end_ms * kMs;
  r.input_tokens = input_tokens;
  r.output_tokens = output_tokens;
  r.input_source = TokenSource::kUsage;
  r.output_source = TokenSource::kUsage;
  return r;
}

RequestRecord failed_record(int64_t sent_ms, int64_t end_ms, ErrorKind kind, int status,
                            std::string message) {
  RequestRecord r;
  r.planned_ns = sent_ms * kMs;
  r.sent_ns = sent_ms * kMs;
  r.end_ns = end_ms < 0 ? -1 : end_ms * kMs;
  r.error = kind;
  r.http_status = status;
  r.error_message = std::move(message);
  return r;
}

// A: sent 0, first byte 50, chunks 100..140 every 10 ms, end 150; 10 in / 5 out.
// B: sent 100, first byte 150, chunks 200..220 every 10 ms, end 250; 20 in / 3 out.
// C: sent 200, first byte 230, chunks 250..310 every 20 ms, end 1000; 30 in / 4 out.
std::vector<RequestRecord> closed_loop_trace() {
  return {stream_record(0, 50, {100, 110, 120, 130, 140}, 150, 10, 5),
          stream_record(100, 150, {200, 210, 220}, 250, 20, 3),
          stream_record(200, 230, {250, 270, 290, 310}, 1000, 30, 4)};
}

MetricsOptions p50_p90() {
  MetricsOptions o;
  o.percentiles = {50, 90};
  return o;
}

void expect_finite(const Distribution& d) {
  EXPECT_TRUE(std::isfinite(d.mean));
  EXPECT_TRUE(std::isfinite(d.std));
  EXPECT_TRUE(std::isfinite(d.min));
  EXPECT_TRUE(std::isfinite(d.max));
  for (double p : d.percentiles) EXPECT_TRUE(std::isfinite(p));
}

void expect_all_finite(const RunSummary& s) {
  EXPECT_TRUE(std::isfinite(s.qps));
  EXPECT_TRUE(std::isfinite(s.output_throughput));
  EXPECT_TRUE(std::isfinite(s.total_throughput));
  for (const Distribution* d :
       {&s.latency_ns, &s.ttft_ns, &s.ttfb_ns, &s.tpot_ns, &s.itl_ns, &s.input_tokens,
        &s.output_tokens, &s.chunks_per_request, &s.output_tps_per_request,
        &s.total_tps_per_request, &s.latency_from_planned_ns, &s.ttft_from_planned_ns}) {
    expect_finite(*d);
  }
}

TEST(Summarize, ClosedLoopStreamTrace) {
  const RunSummary s = summarize(closed_loop_trace(), p50_p90());
  EXPECT_EQ(s.total, 3);
  EXPECT_EQ(s.succeeded, 3);
  EXPECT_EQ(s.failed, 0);
  EXPECT_EQ(s.warmup, 0);
  EXPECT_TRUE(s.streamed);
  EXPECT_EQ(s.percentiles, (std::vector<double>{50, 90}));

  // Window 0 .. 1000 ms = 1 s.
  EXPECT_EQ(s.window_ns, 1000 * kMs);
  EXPECT_DOUBLE_EQ(s.qps, 3.0);                 // 3 ok / 1 s
  EXPECT_EQ(s.total_output_tokens, 12);         // 5 + 3 + 4
  EXPECT_EQ(s.total_input_tokens, 60);          // 10 + 20 + 30
  EXPECT_DOUBLE_EQ(s.output_throughput, 12.0);  // 12 tok / 1 s
  EXPECT_DOUBLE_EQ(s.total_throughput, 72.0);   // (60 + 12) tok / 1 s

  // Latency: 150, 150, 800 ms. p50 = 150; p90 rank 1.8: 150 + 0.8*650 = 670.
  EXPECT_EQ(s.latency_ns.count, 3u);
  EXPECT_DOUBLE_EQ(s.latency_ns.min, 150.0 * kMs);
  EXPECT_DOUBLE_EQ(s.latency_ns.max, 800.0 * kMs);
  EXPECT_NEAR(s.latency_ns.mean, 1100.0 / 3 * kMs, 1);
  EXPECT_DOUBLE_EQ(s.latency_ns.percentiles[0], 150.0 * kMs);
  EXPECT_NEAR(s.latency_ns.percentiles[1], 670.0 * kMs, 1);

  // TTFT: 100, 100, 50 ms. TTFB: 50, 50, 30 ms.
  EXPECT_EQ(s.ttft_ns.count, 3u);
  EXPECT_DOUBLE_EQ(s.ttft_ns.min, 50.0 * kMs);
  EXPECT_DOUBLE_EQ(s.ttft_ns.max, 100.0 * kMs);
  EXPECT_DOUBLE_EQ(s.ttft_ns.percentiles[0], 100.0 * kMs);
  EXPECT_NEAR(s.ttft_ns.mean, 250.0 / 3 * kMs, 1);
  EXPECT_EQ(s.ttfb_ns.count, 3u);
  EXPECT_DOUBLE_EQ(s.ttfb_ns.min, 30.0 * kMs);
  EXPECT_DOUBLE_EQ(s.ttfb_ns.max, 50.0 * kMs);

  // TPOT: A (150-100)/4 = 12.5; B (250-200)/2 = 25; C (1000-250)/3 = 250 ms.
  EXPECT_EQ(s.tpot_ns.count, 3u);
  EXPECT_DOUBLE_EQ(s.tpot_ns.min, 12.5 * kMs);
  EXPECT_DOUBLE_EQ(s.tpot_ns.percentiles[0], 25.0 * kMs);
  EXPECT_DOUBLE_EQ(s.tpot_ns.max, 250.0 * kMs);
  EXPECT_NEAR(s.tpot_ns.mean, 287.5 / 3 * kMs, 1);

  // ITL pooled: A 4 gaps of 10, B 2 gaps of 10, C 3 gaps of 20 -> six 10s and three 20s.
  // mean = 120/9 = 13.33 ms; p50 rank 4 -> 10; p90 rank 7.2 -> 20.
  // std: deviations -10/3 (x6), +20/3 (x3): (6*100/9 + 3*400/9)/9 = 200/9 ms^2.
  EXPECT_EQ(s.itl_ns.count, 9u);
  EXPECT_DOUBLE_EQ(s.itl_ns.min, 10.0 * kMs);
  EXPECT_DOUBLE_EQ(s.itl_ns.max, 20.0 * kMs);
  EXPECT_NEAR(s.itl_ns.mean, 120.0 / 9 * kMs, 1);
  EXPECT_DOUBLE_EQ(s.itl_ns.percentiles[0], 10.0 * kMs);
  EXPECT_DOUBLE_EQ(s.itl_ns.percentiles[1], 20.0 * kMs);
  EXPECT_NEAR(s.itl_ns.std, std::sqrt(200.0 / 9) * kMs, 1);

  // Chunks per request 5, 3, 4 -> mean 4. Tokens: in 10/20/30, out 5/3/4.
  EXPECT_DOUBLE_EQ(s.chunks_per_request.mean, 4.0);
  EXPECT_DOUBLE_EQ(s.input_tokens.mean, 20.0);
  EXPECT_DOUBLE_EQ(s.output_tokens.mean, 4.0);
  EXPECT_DOUBLE_EQ(s.output_tokens.max, 5.0);

  // Per-request output tok/s: 5/0.15 = 33.33, 3/0.15 = 20, 4/0.8 = 5.
  EXPECT_EQ(s.output_tps_per_request.count, 3u);
  EXPECT_DOUBLE_EQ(s.output_tps_per_request.min, 5.0);
  EXPECT_NEAR(s.output_tps_per_request.percentiles[0], 20.0, 1e-9);
  EXPECT_NEAR(s.output_tps_per_request.max, 100.0 / 3, 1e-9);
  // Per-request total tok/s: 15/0.15 = 100, 23/0.15 = 153.33, 34/0.8 = 42.5.
  EXPECT_DOUBLE_EQ(s.total_tps_per_request.min, 42.5);
  EXPECT_NEAR(s.total_tps_per_request.max, 460.0 / 3, 1e-9);

  // Closed loop: no planned-send distributions.
  EXPECT_TRUE(s.latency_from_planned_ns.empty());
  EXPECT_TRUE(s.ttft_from_planned_ns.empty());
  EXPECT_EQ(s.output_provenance.label(), "usage");
  EXPECT_EQ(s.input_provenance.label(), "usage");
}

TEST(Summarize, FailuresAreCountedByKindAndWidenTheWindow) {
  auto records = closed_loop_trace();
  records.push_back(failed_record(300, 1500, ErrorKind::kHttp, 429, "429: rate limited"));
  records.push_back(failed_record(400, 600, ErrorKind::kHttp, 429, "429: slow down"));
  records.push_back(failed_record(500, 700, ErrorKind::kTimeoutRead, 0, "no bytes for 120 s"));
  records.push_back(failed_record(600, -1, ErrorKind::kHttp, 0, "no status"));
  const RunSummary s = summarize(records, p50_p90());

  EXPECT_EQ(s.total, 7);
  EXPECT_EQ(s.succeeded, 3);
  EXPECT_EQ(s.failed, 4);
  EXPECT_EQ(s.failures_by_kind.at("http_429"), 2);
  EXPECT_EQ(s.failures_by_kind.at("timeout_read"), 1);
  EXPECT_EQ(s.failures_by_kind.at("http_error"), 1);
  EXPECT_EQ(s.failures_by_kind.size(), 3u);
  EXPECT_EQ(s.failure_examples.at("http_429"), "429: rate limited");  // the first one
  EXPECT_EQ(s.failure_examples.at("timeout_read"), "no bytes for 120 s");

  // Window 0 .. 1500 ms (the failed request ends last) = 1.5 s; 3 ok / 1.5 s = 2 req/s.
  EXPECT_EQ(s.window_ns, 1500 * kMs);
  EXPECT_DOUBLE_EQ(s.qps, 2.0);
  EXPECT_DOUBLE_EQ(s.output_throughput, 8.0);  // 12 tok / 1.5 s
  EXPECT_DOUBLE_EQ(s.total_throughput, 48.0);  // 72 tok / 1.5 s

  // Latency still only the three successes: 150, 150, 800 ms.
  EXPECT_EQ(s.latency_ns.count, 3u);
  EXPECT_DOUBLE_EQ(s.latency_ns.max, 800.0 * kMs);
  EXPECT_EQ(s.ttft_ns.count, 3u);
  EXPECT_EQ(s.itl_ns.count, 9u);
}

// A request sent again after its kept-alive connection had been closed is a success like any
// other, with its latency from the first send; the summary counts such requests.
TEST(Summarize, ResentRequestsAreCountedNotFailed) {
  auto records = closed_loop_trace();
  records[1].resends = 1;
  records[2].resends = 3;  // curl's own retries of dead reused connections, then ours
  RequestRecord warm = stream_record(0, 1, {5000, 9000}, 10000, 999, 2);
  warm.warmup = true;
  warm.resends = 1;
  records.push_back(warm);
  const RunSummary s = summarize(records, p50_p90());
  EXPECT_EQ(s.resent, 2);
  EXPECT_EQ(s.failed, 0);
  EXPECT_EQ(s.succeeded, 3);
  EXPECT_DOUBLE_EQ(s.latency_ns.max, 800.0 * kMs);
  EXPECT_EQ(summarize(closed_loop_trace(), p50_p90()).resent, 0);
}

TEST(Summarize, WarmupIsExcludedEntirely) {
  auto records = closed_loop_trace();
  RequestRecord ok_warm = stream_record(0, 1, {5000, 9000}, 10000, 999, 2);
  ok_warm.warmup = true;
  RequestRecord bad_warm = failed_record(0, 20000, ErrorKind::kConnectRefused, 0, "refused");
  bad_warm.warmup = true;
  records.insert(records.begin(), ok_warm);
  records.push_back(bad_warm);
  const RunSummary s = summarize(records, p50_p90());

  EXPECT_EQ(s.warmup, 2);
  EXPECT_EQ(s.total, 3);
  EXPECT_EQ(s.succeeded, 3);
  EXPECT_EQ(s.failed, 0);
  EXPECT_TRUE(s.failures_by_kind.empty());
  EXPECT_EQ(s.window_ns, 1000 * kMs);  // not 20 s
  EXPECT_DOUBLE_EQ(s.qps, 3.0);
  EXPECT_EQ(s.total_input_tokens, 60);
  EXPECT_EQ(s.latency_ns.count, 3u);
  EXPECT_EQ(s.itl_ns.count, 9u);
  EXPECT_DOUBLE_EQ(s.latency_ns.max, 800.0 * kMs);
}

TEST(Summarize, NonStreamHasNoTtftTpotItlOrChunks) {
  RequestRecord r;
  r.stream = false;
  r.planned_ns = 0;
  r.sent_ns = 0;
  r.first_byte_ns = 400 * kMs;
  r.first_content_ns = 500 * kMs;  // even if stamped, a non-stream request has no TTFT
  r.end_ns = 500 * kMs;
  r.input_tokens = 100;
  r.output_tokens = 50;
  r.input_source = TokenSource::kNone;
  r.output_source = TokenSource::kCharCount;
  const RunSummary s = summarize({r}, p50_p90());

  EXPECT_FALSE(s.streamed);
  EXPECT_EQ(s.latency_ns.count, 1u);
  EXPECT_DOUBLE_EQ(s.latency_ns.mean, 500.0 * kMs);
  EXPECT_DOUBLE_EQ(s.ttfb_ns.mean, 400.0 * kMs);
  EXPECT_TRUE(s.ttft_ns.empty());
  EXPECT_TRUE(s.tpot_ns.empty());
  EXPECT_TRUE(s.itl_ns.empty());
  EXPECT_TRUE(s.chunks_per_request.empty());
  EXPECT_DOUBLE_EQ(s.output_tps_per_request.mean, 100.0);  // 50 tok / 0.5 s
  EXPECT_DOUBLE_EQ(s.total_tps_per_request.mean, 300.0);   // 150 tok / 0.5 s
  EXPECT_DOUBLE_EQ(s.output_throughput, 100.0);            // window 0.5 s
  EXPECT_EQ(s.output_provenance.label(), "estimated");
  EXPECT_EQ(s.input_provenance.label(), "none");  // no known input count at all
  EXPECT_EQ(s.input_provenance.unknown, 1);
}

TEST(Summarize, SingleOutputTokenHasNoTpot) {
  // sent 0, one chunk at 80 ms, end 90 ms, 1 output token.
  const RunSummary s = summarize({stream_record(0, 40, {80}, 90, 7, 1)}, p50_p90());
  EXPECT_TRUE(s.tpot_ns.empty());
  EXPECT_TRUE(s.itl_ns.empty());  // one chunk, no gaps
  EXPECT_EQ(s.ttft_ns.count, 1u);
  EXPECT_DOUBLE_EQ(s.ttft_ns.mean, 80.0 * kMs);
  EXPECT_DOUBLE_EQ(s.chunks_per_request.mean, 1.0);
}

TEST(Summarize, ProvenanceLabels) {
  EXPECT_EQ((TokenProvenance{}).label(), "none");
  EXPECT_EQ((TokenProvenance{3, 0, 0}).label(), "usage");
  EXPECT_EQ((TokenProvenance{0, 3, 0}).label(), "estimated");
  EXPECT_EQ((TokenProvenance{2, 1, 0}).label(), "mixed");
  EXPECT_EQ((TokenProvenance{2, 0, 1}).label(), "mixed");
  EXPECT_EQ((TokenProvenance{0, 2, 1}).label(), "mixed");

  auto records = closed_loop_trace();
  records[1].output_source = TokenSource::kChunkCount;
  records[2].output_source = TokenSource::kCharCount;
  records.push_back(failed_record(0, 10, ErrorKind::kNoOutput, 200, "empty"));  // not counted
  const RunSummary s = summarize(records, p50_p90());
  EXPECT_EQ(s.output_provenance.from_usage, 1);
  EXPECT_EQ(s.output_provenance.estimated, 2);
  EXPECT_EQ(s.output_provenance.unknown, 0);
  EXPECT_EQ(s.output_provenance.label(), "mixed");
  EXPECT_EQ(s.input_provenance.from_usage, 3);
  EXPECT_EQ(s.input_provenance.label(), "usage");

  const RunSummary only_failures =
      summarize({failed_record(0, 10, ErrorKind::kTransport, 0, "tls")}, p50_p90());
  EXPECT_EQ(only_failures.output_provenance.label(), "none");
}

TEST(Summarize, OpenLoopMeasuresFromPlannedSend) {
  // Planned at 0, sent late at 50 ms; chunks 150, 200; end 250 ms.
  RequestRecord r = stream_record(50, 60, {150, 200}, 250, 4, 2);
  r.planned_ns = 0;
  r.first_answer_ns = 150 * kMs;  // no reasoning: the first chunk is the answer's
  MetricsOptions options = p50_p90();
  options.open_loop = true;
  const RunSummary s = summarize({r}, options);
  EXPECT_DOUBLE_EQ(s.latency_ns.mean, 200.0 * kMs);               // 250 - 50
  EXPECT_DOUBLE_EQ(s.ttft_ns.mean, 100.0 * kMs);                  // 150 - 50
  EXPECT_DOUBLE_EQ(s.latency_from_planned_ns.mean, 250.0 * kMs);  // 250 - 0
  EXPECT_DOUBLE_EQ(s.ttft_from_planned_ns.mean, 150.0 * kMs);     // 150 - 0
  EXPECT_DOUBLE_EQ(s.tpot_ns.mean, 100.0 * kMs);                  // (250 - 150) / (2 - 1)

  EXPECT_DOUBLE_EQ(s.ttfb_from_planned_ns.mean, 60.0 * kMs);      // 60 - 0
  EXPECT_DOUBLE_EQ(s.ttfat_from_planned_ns.mean, 150.0 * kMs);    // 150 - 0

  options.open_loop = false;
  const RunSummary closed = summarize({r}, options);
  EXPECT_TRUE(closed.latency_from_planned_ns.empty());
  EXPECT_TRUE(closed.ttft_from_planned_ns.empty());
  EXPECT_TRUE(closed.ttfb_from_planned_ns.empty());
  EXPECT_TRUE(closed.ttfat_from_planned_ns.empty());
}

// What the server sustained: a server that keeps up ends its requests as fast as they were
// planned, one that cannot ends them at its own pace, whatever the client sent.
TEST(Summarize, OpenLoopSustainedRateIsTheSuccessfulEndsAgainstThePlannedSends) {
  // Planned every 10 ms (100 req/s), sent on time, but the server ends one every 100 ms: 10 req/s.
  // A fifth request fails early and counts for neither end.
  std::vector<RequestRecord> records;
  for (int64_t i = 0; i < 4; ++i) {
    RequestRecord r = stream_record(i * 10, 100 * (i + 1) - 5, {100 * (i + 1) - 1}, 100 * (i + 1),
                                    4, 1);
    r.planned_ns = i * 10 * kMs;
    records.push_back(r);
  }
  RequestRecord failed = failed_record(40, 45, ErrorKind::kHttp, 503, "busy");
  failed.planned_ns = 40 * kMs;
  records.push_back(failed);
  MetricsOptions options = p50_p90();
  options.open_loop = true;
  const RunSummary s = summarize(records, options);
  EXPECT_DOUBLE_EQ(s.scheduled_rate, 4 / 0.040);  // 5 planned sends over 40 ms
  EXPECT_DOUBLE_EQ(s.sustained_rate, 3 / 0.300);  // 4 successful ends over 300 ms
  EXPECT_DOUBLE_EQ(s.achieved_rate, 4 / 0.040);   // every send on time

  options.open_loop = false;
  EXPECT_EQ(summarize(records, options).sustained_rate, 0);
}

// Why sends were late: a slot wait (the in-flight cap, held by the server) is not the client's
// lateness; what is left of the lag is.
TEST(Summarize, OpenLoopSplitsTheLagIntoSlotWaitAndClientLateness) {
  // Planned at 0, 10, 20, 30 ms. 0: on time. 10: waited 40 ms for a slot, sent 1 ms after it came
  // back (lag 41). 20: a slot was free, the worker sent it 3 ms late. 30: waited 20 ms, sent at
  // once (lag 20). Warm-up and closed-loop records count for nothing.
  std::vector<RequestRecord> records;
  const auto add = [&](int64_t planned_ms, int64_t slot_wait_ms, int64_t lag_ms) {
    RequestRecord r = stream_record(planned_ms + lag_ms, planned_ms + lag_ms + 5,
                                    {planned_ms + lag_ms + 10}, planned_ms + lag_ms + 20, 4, 1);
    r.planned_ns = planned_ms * kMs;
    r.slot_wait_ns = slot_wait_ms * kMs;
    records.push_back(r);
  };
  add(0, 0, 0);
  add(10, 40, 41);
  add(20, 0, 3);
  add(30, 20, 20);
  RequestRecord warm = records.back();
  warm.warmup = true;
  warm.slot_wait_ns = 500 * kMs;
  records.push_back(warm);
  MetricsOptions options;
  options.percentiles = {50, 99};
  options.open_loop = true;
  const RunSummary s = summarize(records, options);
  const OpenLoopSummary& o = s.open_loop;
  EXPECT_EQ(o.sends, 4);
  EXPECT_EQ(o.slot_waits, 2);
  EXPECT_EQ(o.slot_unknown, 0);
  EXPECT_DOUBLE_EQ(o.cap_reached_share(), 0.5);
  EXPECT_EQ(o.slot_wait_ns.count, 2U);
  EXPECT_DOUBLE_EQ(o.slot_wait_ns.max, 40.0 * kMs);
  EXPECT_DOUBLE_EQ(o.slot_wait_ns.min, 20.0 * kMs);
  EXPECT_EQ(o.client_lag_ns.count, 4U);  // 0, 1, 3, 0
  EXPECT_DOUBLE_EQ(o.client_lag_ns.max, 3.0 * kMs);
  EXPECT_DOUBLE_EQ(o.client_lag_ns.mean, 1.0 * kMs);
  EXPECT_DOUBLE_EQ(s.schedule_lag_ns.max, 41.0 * kMs);  // the whole lag is still reported

  // Records written before slot waits were recorded: their whole lag stays the client's.
  for (RequestRecord& r : records) r.slot_wait_ns = -1;
  const RunSummary old = summarize(records, options);
  EXPECT_EQ(old.open_loop.slot_waits, 0);
  EXPECT_EQ(old.open_loop.slot_unknown, 4);
  EXPECT_DOUBLE_EQ(old.open_loop.client_lag_ns.max, 41.0 * kMs);
}

TEST(Summarize, ZeroRecordsProduceZerosNotNan) {
  const RunSummary s = summarize({}, MetricsOptions{});
  EXPECT_EQ(s.total, 0);
  EXPECT_EQ(s.window_ns, 0);
  EXPECT_EQ(s.qps, 0);
  EXPECT_EQ(s.output_throughput, 0);
  EXPECT_EQ(s.total_throughput, 0);
  EXPECT_FALSE(s.streamed);
  EXPECT_TRUE(s.latency_ns.empty());
  EXPECT_EQ(s.latency_ns.percentiles.size(), MetricsOptions{}.percentiles.size());
  EXPECT_EQ(s.percentiles, MetricsOptions{}.percentiles);
  EXPECT_EQ(s.input_provenance.label(), "none");
  expect_all_finite(s);
}

TEST(Summarize, ZeroWindowProducesZeroThroughput) {
  // A request that starts and ends at the same nanosecond, plus a failure that never ended.
  RequestRecord r = stream_record(7, 7, {7}, 7, 3, 1);
  MetricsOptions options = p50_p90();
  options.open_loop = true;
  const RunSummary s =
      summarize({r, failed_record(7, -1, ErrorKind::kConnectRefused, 0, "refused")}, options);
  EXPECT_EQ(s.window_ns, 0);
  EXPECT_EQ(s.qps, 0);
  EXPECT_EQ(s.output_throughput, 0);
  EXPECT_EQ(s.total_throughput, 0);
  EXPECT_EQ(s.latency_ns.count, 1u);
  EXPECT_EQ(s.latency_ns.mean, 0);
  EXPECT_TRUE(s.output_tps_per_request.empty());  // latency 0: skipped, not inf
  EXPECT_TRUE(s.total_tps_per_request.empty());
  EXPECT_EQ(s.failures_by_kind.at("connect_refused"), 1);
  expect_all_finite(s);
}

TEST(SummaryBuilder, RecordsInAnyOrderGiveTheSameSummary) {
  // The engine hands records over in completion order; the summary must not depend on it.
  std::vector<RequestRecord> records = closed_loop_trace();
  records.push_back(failed_record(300, 400, ErrorKind::kHttp, 503, "busy"));
  SummaryBuilder builder(p50_p90());
  for (auto it = records.rbegin(); it != records.rend(); ++it) builder.add(*it);
  const RunSummary backwards = builder.finish();
  const RunSummary forwards = summarize(records, p50_p90());
  EXPECT_EQ(backwards.window_ns, forwards.window_ns);
  EXPECT_EQ(backwards.failures_by_kind, forwards.failures_by_kind);
  for (auto field : {&RunSummary::latency_ns, &RunSummary::ttft_ns, &RunSummary::tpot_ns,
                     &RunSummary::itl_ns, &RunSummary::output_tokens}) {
    EXPECT_EQ((backwards.*field).percentiles, (forwards.*field).percentiles);
    EXPECT_EQ((backwards.*field).count, (forwards.*field).count);
  }
}

TEST(SummaryBuilder, ItlPastItsExactLimitIsFlaggedAndStaysWithinTheBound) {
  // 50 requests with 41 chunks each: 2,000 gaps of 10..20 ms, past an exact limit of 500.
  std::vector<RequestRecord> records;
  for (int64_t i = 0; i < 50; ++i) {
    std::vector<int64_t> chunks;
    int64_t t = 1000 * i + 100;
    for (int64_t c = 0; c <= 40; ++c) chunks.push_back(t += 10 + (i * 7 + c * 3) % 11);
    records.push_back(stream_record(1000 * i, 1000 * i + 50, chunks, t + 5, 8, 41));
  }
  MetricsOptions options = p50_p90();
  const RunSummary exact = summarize(records, options);
  options.itl_exact_limit = 500;
  const RunSummary bucketed = summarize(records, options);
  EXPECT_FALSE(exact.itl_ns.percentiles_approximate);
  EXPECT_TRUE(bucketed.itl_ns.percentiles_approximate);
  EXPECT_EQ(bucketed.itl_ns.count, 2000u);
  EXPECT_EQ(bucketed.itl_ns.min, exact.itl_ns.min);
  EXPECT_EQ(bucketed.itl_ns.max, exact.itl_ns.max);
  EXPECT_NEAR(bucketed.itl_ns.mean, exact.itl_ns.mean, 1e-6);
  for (size_t i = 0; i < exact.itl_ns.percentiles.size(); ++i) {
    EXPECT_NEAR(bucketed.itl_ns.percentiles[i], exact.itl_ns.percentiles[i],
                PooledSamples::kRelativeError * exact.itl_ns.percentiles[i]);
  }
  // Per-request metrics stay exact whatever the ITL limit.
  EXPECT_FALSE(bucketed.tpot_ns.percentiles_approximate);
  EXPECT_EQ(bucketed.tpot_ns.percentiles, exact.tpot_ns.percentiles);
}

TEST(SummaryBuilder, TraceHoldsWhatTheChartsDraw) {
  std::vector<RequestRecord> records = closed_loop_trace();
  records.push_back(failed_record(300, 400, ErrorKind::kHttp, 503, "busy"));
  RequestRecord warm = stream_record(0, 10, {20}, 30, 1, 1);
  warm.warmup = true;
  records.push_back(warm);
  MetricsOptions options = p50_p90();
  RunTrace trace;
  summarize(records, options, &trace);

  ASSERT_EQ(trace.requests.size(), 4u);  // A, B, C and the failure; not the warm-up
  EXPECT_EQ(trace.requests[3].sent_ns, 300 * kMs);
  EXPECT_EQ(trace.requests[3].end_ns, 400 * kMs);
  EXPECT_FALSE(trace.requests[3].ok);
  // Output tokens by chunk read time (1 ms bins from origin 0): A's 5 chunks of 1 token at
  // 100..140 ms, B's 3 at 200..220, C's 4 at 250..310.
  const std::vector<double>& bins = trace.output_tokens.sums();
  EXPECT_EQ(trace.output_tokens.width_ns(), kMs);
  EXPECT_DOUBLE_EQ(bins[100], 1);
  EXPECT_DOUBLE_EQ(bins[310], 1);
  double tokens = 0;
  for (double b : bins) tokens += b;
  EXPECT_DOUBLE_EQ(tokens, 12);
  // CDF points: TTFT 50, 100, 100 ms -> 0 % at 50 ms, 100 % at 100 ms.
  ASSERT_EQ(trace.ttft_cdf_ns.size(), RunTrace::cdf_points().size());
  EXPECT_DOUBLE_EQ(trace.ttft_cdf_ns.front(), 50.0 * kMs);
  EXPECT_DOUBLE_EQ(trace.ttft_cdf_ns.back(), 100.0 * kMs);
  EXPECT_DOUBLE_EQ(trace.latency_cdf_ns.back(), 800.0 * kMs);
  EXPECT_DOUBLE_EQ(trace.itl_cdf_ns.front(), 10.0 * kMs);
}

TEST(FailureKindName, StableNames) {
  EXPECT_EQ(failure_kind_name(ErrorKind::kHttp, 429), "http_429");
  EXPECT_EQ(failure_kind_name(ErrorKind::kHttp, 0), "http_error");
  EXPECT_EQ(failure_kind_name(ErrorKind::kConnectRefused, 0), "connect_refused");
  EXPECT_EQ(failure_kind_name(ErrorKind::kConnectTimeout, 0), "connect_timeout");
  EXPECT_EQ(failure_kind_name(ErrorKind::kResolve, 0), "resolve");
  EXPECT_EQ(failure_kind_name(ErrorKind::kTimeoutRead, 0), "timeout_read");
  EXPECT_EQ(failure_kind_name(ErrorKind::kTimeoutTotal, 0), "timeout_total");
  EXPECT_EQ(failure_kind_name(ErrorKind::kStreamError, 200), "stream_error");
  EXPECT_EQ(failure_kind_name(ErrorKind::kStreamTruncated, 200), "stream_truncated");
  EXPECT_EQ(failure_kind_name(ErrorKind::kBadResponse, 200), "bad_response");
  EXPECT_EQ(failure_kind_name(ErrorKind::kNoOutput, 200), "no_output");
  EXPECT_EQ(failure_kind_name(ErrorKind::kTransport, 0), "transport");
  EXPECT_EQ(failure_kind_name(ErrorKind::kInterrupted, 0), "interrupted");  // Ctrl-C
  EXPECT_EQ(failure_kind_name(ErrorKind::kCancelled, 0), "cancelled");      // --cancel-rate
  EXPECT_EQ(failure_kind_name(ErrorKind::kNone, 200), "none");
  EXPECT_EQ(token_source_name(TokenSource::kNone), "none");
  EXPECT_EQ(token_source_name(TokenSource::kUsage), "usage");
  EXPECT_EQ(token_source_name(TokenSource::kChunkCount), "chunk_count");
  EXPECT_EQ(token_source_name(TokenSource::kCharCount), "char_count");
}

TEST(SummaryBuilder, PeakOutputThroughputAndPeakConcurrency) {
  // One-second bins from origin 10 s; successful requests only; in flight over [sent, end).
  // A: sent 10.0 s, 4 chunks at 10.1..10.4 s carrying 8 tokens (2 each), end 10.5 s.
  // B: sent 10.2 s, chunks at 10.9 and 11.1 s carrying 6 tokens (3 each), end 11.2 s.
  // C: sent 10.4 s, not streamed: 5 tokens at its end, 11.8 s.
  // E: sent 10.5 s (the instant A ends, so A and E never overlap), 1 token at 10.55 s, end 10.6 s.
  // Second 0 (10-11 s): 8 (A) + 3 (B) + 1 (E) = 12 tokens; second 1 (11-12 s): 3 (B) + 5 (C) = 8.
  // In flight: A, B, C at 10.4 s (3); at 10.5 s A ends as E starts: still 3.
  // The failure F (10.35-10.45 s, 100 tokens) and the warm-up W (10.4-10.45 s, 1000 tokens) would
  // make 4 in flight and 100+ tokens in second 0 if they counted.
  MetricsOptions options = p50_p90();
  options.origin_ns = 10'000 * kMs;
  SummaryBuilder builder(options);
  builder.add(stream_record(10'000, 10'050, {10'100, 10'200, 10'300, 10'400}, 10'500, 10, 8));
  builder.add(stream_record(10'200, 10'300, {10'900, 11'100}, 11'200, 10, 6));
  RequestRecord c = stream_record(10'400, 11'800, {}, 11'800, 10, 5);
  c.stream = false;
  builder.add(c);
  builder.add(stream_record(10'500, 10'520, {10'550}, 10'600, 10, 1));
  RequestRecord f = failed_record(10'350, 10'450, ErrorKind::kStreamTruncated, 200, "cut");
  f.chunk_ns = {10'360 * kMs, 10'370 * kMs};
  f.first_content_ns = f.chunk_ns.front();
  f.output_tokens = 100;
  builder.add(f);
  RequestRecord w = stream_record(10'400, 10'410, {10'420}, 10'450, 10, 1000);
  w.warmup = true;
  builder.add(w);
  const RunSummary s = builder.finish();
  EXPECT_DOUBLE_EQ(s.peak_output_throughput, 12);
  EXPECT_EQ(s.peak_concurrency, 3);
  EXPECT_EQ(s.succeeded, 4);
  EXPECT_EQ(s.failed, 1);
  EXPECT_EQ(s.warmup, 1);

  // With nothing but the failure and the warm-up, both peaks are 0.
  SummaryBuilder none(options);
  none.add(f);
  none.add(w);
  const RunSummary empty = none.finish();
  EXPECT_DOUBLE_EQ(empty.peak_output_throughput, 0);
  EXPECT_EQ(empty.peak_concurrency, 0);
}

// Several --url: each URL's summary is the one its records alone give (same computation), and
// the run's summary is unchanged by the breakdown.
TEST(SummaryByUrl, EachUrlGetsTheSummaryOfItsOwnRecords) {
  std::vector<RequestRecord> records = closed_loop_trace();
  for (size_t i = 0; i < records.size(); ++i) records[i].url_index = i == 2 ? 1 : 0;
  MetricsOptions options;
  const RunSummary whole = summarize(records, options);
  EXPECT_TRUE(whole.by_url.empty());  // url_count 0: no breakdown
  options.url_count = 2;
  const RunSummary split = summarize(records, options);
  ASSERT_EQ(split.by_url.size(), 2u);
  EXPECT_EQ(split.total, whole.total);
  EXPECT_EQ(split.ttft_ns.mean, whole.ttft_ns.mean);
  options.url_count = 0;
  const RunSummary first = summarize({records[0], records[1]}, options);
  const RunSummary second = summarize({records[2]}, options);
  EXPECT_EQ(split.by_url[0].total, 2);
  EXPECT_EQ(split.by_url[1].total, 1);
  EXPECT_EQ(split.by_url[0].ttft_ns.mean, first.ttft_ns.mean);
  EXPECT_EQ(split.by_url[0].qps, first.qps);
  EXPECT_EQ(split.by_url[1].latency_ns.percentiles, second.latency_ns.percentiles);
  EXPECT_TRUE(split.by_url[0].by_url.empty());
}

// Requests closed on purpose: counted apart, neither failed nor in the statistics, unless
// include_cancelled puts them in the statistics (not in succeeded or QPS).
TEST(SummaryCancelled, CountedApartAndOutOfTheStatisticsUnlessIncluded) {
  std::vector<RequestRecord> records = closed_loop_trace();
  records[2].error = ErrorKind::kCancelled;
  MetricsOptions options;
  const RunSummary out = summarize(records, options);
  EXPECT_EQ(out.total, 3);
  EXPECT_EQ(out.cancelled, 1);
  EXPECT_EQ(out.failed, 0);
  EXPECT_EQ(out.succeeded, 2);
  EXPECT_TRUE(out.failures_by_kind.empty());
  EXPECT_EQ(out.ttft_ns.count, 2u);
  options.include_cancelled = true;
  const RunSummary in = summarize(records, options);
  EXPECT_EQ(in.cancelled, 1);
  EXPECT_EQ(in.succeeded, 2);
  EXPECT_EQ(in.ttft_ns.count, 3u);
  EXPECT_EQ(in.latency_ns.count, 3u);
  EXPECT_EQ(in.total_output_tokens, 12);
}

}  // namespace
}  // namespace llmperf
