// Early stops on hand-made sequences: --max-errors counts measured failures only, --max-error-rate
// waits for a full window and slides, and --stop-on-saturation's test fires on a queue that grows
// with its TTFT, after its minimum duration, and not on noise around a steady state.
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "test_units.h"
#include "verdict/early_stop.h"

namespace llmperf {
namespace {

RequestRecord es_record(bool ok, bool warmup = false) {
  RequestRecord r;
  r.warmup = warmup;
  r.error = ok ? ErrorKind::kNone : ErrorKind::kHttp;
  r.planned_ns = r.sent_ns = 0;
  r.first_content_ns = ok ? 100 * kMs : -1;
  return r;
}

EarlyStopRules es_rules() {
  EarlyStopRules rules;
  rules.error_window = 10;
  return rules;
}

TEST(EarlyStop, NoRuleIsInactive) {
  EXPECT_FALSE(EarlyStopMonitor(EarlyStopRules{}, nullptr, 0).active());
}

TEST(EarlyStop, MaxErrorsCountsMeasuredFailuresOnly) {
  EarlyStopRules rules = es_rules();
  rules.max_errors = 3;
  EarlyStopMonitor monitor(rules, nullptr, 0);
  for (const bool ok : {true, false, true, false}) monitor.add(es_record(ok));
  monitor.add(es_record(false, /*warmup=*/true));
  EXPECT_FALSE(monitor.check(0));
  monitor.add(es_record(false));
  ASSERT_TRUE(monitor.decision());
  EXPECT_EQ(monitor.decision()->reason, "max_errors");
  EXPECT_EQ(monitor.decision()->after_requests, 5);
  EXPECT_NE(monitor.decision()->detail.find("3 of 5 measured requests failed"), std::string::npos);
  monitor.add(es_record(false));  // the first decision stays
  EXPECT_EQ(monitor.decision()->after_requests, 5);
}

TEST(EarlyStop, ErrorRateWaitsForAFullWindow) {
  EarlyStopRules rules = es_rules();
  rules.max_error_rate = 0.5;
  EarlyStopMonitor monitor(rules, nullptr, 0);
  for (int i = 0; i < 9; ++i) monitor.add(es_record(false));  // 9 of 9 failed: not judged yet
  EXPECT_FALSE(monitor.decision());
  monitor.add(es_record(true));
  ASSERT_TRUE(monitor.decision());
  EXPECT_EQ(monitor.decision()->reason, "max_error_rate");
  EXPECT_EQ(monitor.decision()->after_requests, 10);
  EXPECT_NE(monitor.decision()->detail.find("9 of the last 10"), std::string::npos);
}

TEST(EarlyStop, ErrorRateSlidesAndNeedsMoreThanTheLimit) {
  EarlyStopRules rules = es_rules();
  rules.max_error_rate = 0.2;
  EarlyStopMonitor monitor(rules, nullptr, 0);
  // Failures early on slide out of the window: 2 of the first 10, then 1 in 10 for long.
  for (int i = 0; i < 10; ++i) monitor.add(es_record(i >= 8 ? false : true));
  EXPECT_FALSE(monitor.decision());                                    // exactly 20 %: not above
  for (int i = 0; i < 1000; ++i) monitor.add(es_record(i % 10 != 9));  // last failure: #1010
  EXPECT_FALSE(monitor.decision());
  // Requests 1011 and 1013 fail too: three of the last ten (1004..1013), 30 %.
  for (const bool ok : {false, true, false, true, false}) monitor.add(es_record(ok));
  ASSERT_TRUE(monitor.decision());
  EXPECT_EQ(monitor.decision()->after_requests, 1013);
}

// Feeds `SaturationTest` one window at a time: TTFTs then the tick at the window's end.
struct EsWindowFeed {
  SaturationTest test{1'000'000'000};
  int64_t window = 0;
  std::optional<std::string> feed(int64_t outstanding, std::vector<double> ttfts_ms) {
    for (const double t : ttfts_ms) test.add_ttft(static_cast<int64_t>(t * kMs));
    ++window;
    return test.tick(window * 1'000'000'000 + 3 * kMs, outstanding);  // a little after the end
  }
};

TEST(SaturationRule, GrowingQueueAndTtftFireAfterTheMinimumDuration) {
  EsWindowFeed f;
  for (int w = 1; w <= SaturationTest::kWindows - 1; ++w) {
    EXPECT_FALSE(f.feed(20 * w, {100.0 * w, 110.0 * w, 90.0 * w})) << "window " << w;
  }
  const std::optional<std::string> seen = f.feed(20 * SaturationTest::kWindows, {600, 660, 540});
  ASSERT_TRUE(seen);
  EXPECT_NE(seen->find("requests outstanding grew from 20 to 120"), std::string::npos) << *seen;
  EXPECT_NE(seen->find("median TTFT from 100 ms to 600 ms"), std::string::npos) << *seen;
}

TEST(SaturationRule, NoisySteadyStateNeverFires) {
  EsWindowFeed f;
  std::mt19937 random(42);
  std::normal_distribution<double> queue(50, 10);
  std::normal_distribution<double> ttft(100, 20);
  for (int w = 0; w < 2000; ++w) {
    std::vector<double> ttfts;
    for (int i = 0; i < 20; ++i) ttfts.push_back(std::max(1.0, ttft(random)));
    const auto seen = f.feed(std::max<int64_t>(0, std::llround(queue(random))), ttfts);
    ASSERT_FALSE(seen) << "window " << w << ": " << *seen;
  }
}

TEST(SaturationRule, OneSeriesGrowingIsNotEnough) {
  EsWindowFeed queue_only;
  EsWindowFeed ttft_only;
  for (int w = 1; w <= 20; ++w) {
    EXPECT_FALSE(queue_only.feed(30 * w, {100, 101, 99}));
    EXPECT_FALSE(ttft_only.feed(40 + (w % 2), {50.0 * w}));
  }
}

TEST(SaturationRule, ASmallRiseIsNotSaturation) {
  // Significant but slight: 100 -> 105 outstanding and 200 -> 210 ms (5 %) over six windows.
  EsWindowFeed f;
  for (int w = 1; w <= 20; ++w) {
    EXPECT_FALSE(f.feed(100 + w, {200.0 + 2 * w}));
  }
}

TEST(SaturationRule, WindowsWithoutTtftCountOnlyWhenEnoughHaveOne) {
  EsWindowFeed f;
  for (int w = 1; w <= 12; ++w) {
    // Only every third window has a finished request: never 4 TTFT points in 6 windows.
    std::vector<double> ttfts;
    if (w % 3 == 0) ttfts.push_back(100.0 * w);
    EXPECT_FALSE(f.feed(20 * w, ttfts)) << "window " << w;
  }
}

TEST(SaturationRule, MonitorCountsPlannedRequestsNotFinishedAsOutstanding) {
  // 100 req/s planned for 30 s; the server finishes 40 req/s and each waits longer than the last.
  EarlyStopRules rules;
  rules.stop_on_saturation = true;
  rules.saturation_window_ns = 1'000'000'000;
  std::vector<int64_t> schedule;
  for (int64_t i = 0; i < 3000; ++i) schedule.push_back(i * 10 * kMs);
  EarlyStopMonitor monitor(rules, &schedule, 0);
  int64_t finished = 0;
  int64_t stopped_at_ms = -1;
  for (int64_t t_ms = 100; t_ms <= 30'000 && stopped_at_ms < 0; t_ms += 100) {
    for (; finished < t_ms * 40 / 1000; ++finished) {
      RequestRecord r = es_record(true);
      r.planned_ns = finished * 10 * kMs;  // sent on time, first token when the server got to it
      r.first_content_ns = t_ms * kMs;
      monitor.add(r);
    }
    if (monitor.check(t_ms * kMs)) stopped_at_ms = t_ms;
  }
  ASSERT_TRUE(monitor.decision());
  EXPECT_EQ(monitor.decision()->reason, "saturation");
  EXPECT_EQ(stopped_at_ms, 6000);  // the first moment six windows have closed
  EXPECT_EQ(monitor.decision()->after_requests, 240);
}

TEST(SaturationRule, MonitorLeavesAServerThatKeepsUpAlone) {
  EarlyStopRules rules;
  rules.stop_on_saturation = true;
  rules.saturation_window_ns = 1'000'000'000;
  std::vector<int64_t> schedule;
  for (int64_t i = 0; i < 3000; ++i) schedule.push_back(i * 10 * kMs);
  EarlyStopMonitor monitor(rules, &schedule, 0);
  int64_t finished = 0;
  std::mt19937 random(7);
  std::uniform_int_distribution<int64_t> latency_ms(80, 160);
  for (int64_t t_ms = 100; t_ms <= 30'000; t_ms += 100) {
    // Every request planned more than 200 ms ago has finished, after 80 to 160 ms.
    for (; finished * 10 < t_ms - 200; ++finished) {
      RequestRecord r = es_record(true);
      r.planned_ns = finished * 10 * kMs;
      r.first_content_ns = r.planned_ns + latency_ms(random) * kMs;
      monitor.add(r);
    }
    ASSERT_FALSE(monitor.check(t_ms * kMs)) << "at " << t_ms << " ms";
  }
}

}  // namespace
}  // namespace llmperf
