// LiveWindow: hand-made records counted by outcome (warm-up left out), tokens of successes only,
// and quantiles over the records added since the last take() while sum and count cover the run.
#include <gtest/gtest.h>

#include <cmath>

#include "metrics/live_figures.h"
#include "test_units.h"

namespace llmperf {
namespace {

// Sent at 0, first output at ttft_ms, two more chunks 10 ms apart, done 10 ms after the last.
RequestRecord live_record(int64_t ttft_ms) {
  RequestRecord r;
  r.stream = true;
  r.sent_ns = 0;
  r.first_content_ns = ttft_ms * kMs;
  r.chunk_ns = {ttft_ms * kMs, (ttft_ms + 10) * kMs, (ttft_ms + 20) * kMs};
  r.end_ns = (ttft_ms + 30) * kMs;
  r.input_tokens = 10;
  r.output_tokens = 3;
  return r;
}

TEST(LiveWindow, CountsOutcomesAndTokensWithoutWarmup) {
  LiveWindow w;
  RequestRecord warmup = live_record(100);
  warmup.warmup = true;
  RequestRecord failed = live_record(100);
  failed.error = ErrorKind::kHttp;
  RequestRecord cancelled = live_record(100);
  cancelled.error = ErrorKind::kCancelled;
  for (const RequestRecord& r : {warmup, live_record(100), live_record(300), failed, cancelled}) {
    w.add(r);
  }
  const LiveFigures f = w.take(4, false);
  EXPECT_EQ(f.succeeded, 2);
  EXPECT_EQ(f.failed, 1);
  EXPECT_EQ(f.cancelled, 1);
  EXPECT_EQ(f.in_flight, 4);
  EXPECT_EQ(f.input_tokens, 20);
  EXPECT_EQ(f.output_tokens, 6);
  EXPECT_FALSE(f.final);
  // TTFT 100 and 300 ms: numpy's median 200, p90 280, p99 298.
  EXPECT_DOUBLE_EQ(f.ttft.quantiles_ns[0], 200.0 * kMs);
  EXPECT_DOUBLE_EQ(f.ttft.quantiles_ns[1], 280.0 * kMs);
  EXPECT_DOUBLE_EQ(f.ttft.quantiles_ns[2], 298.0 * kMs);
  EXPECT_EQ(f.ttft.count, 2);
  EXPECT_DOUBLE_EQ(f.ttft.sum_ns, 400.0 * kMs);
  EXPECT_EQ(f.itl.count, 4);  // two gaps of 10 ms each
  EXPECT_DOUBLE_EQ(f.itl.quantiles_ns[2], 10.0 * kMs);
  EXPECT_EQ(f.latency.window, 2);
}

TEST(LiveWindow, QuantilesCoverTheLastWindowOnly) {
  LiveWindow w;
  w.add(live_record(100));
  (void)w.take(0, false);
  const LiveFigures empty = w.take(0, false);  // nothing ended since
  EXPECT_TRUE(std::isnan(empty.ttft.quantiles_ns[0]));
  EXPECT_EQ(empty.ttft.count, 1);  // the run's count stays
  EXPECT_EQ(empty.ttft.window, 0);
  w.add(live_record(500));
  const LiveFigures next = w.take(0, true);
  EXPECT_DOUBLE_EQ(next.ttft.quantiles_ns[0], 500.0 * kMs);  // not the 100 ms of the first window
  EXPECT_EQ(next.ttft.count, 2);
  EXPECT_EQ(next.succeeded, 2);
  EXPECT_TRUE(next.final);
}

}  // namespace
}  // namespace llmperf
