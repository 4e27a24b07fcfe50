// Repeated runs: each key metric's mean, 95 % interval and CV across repeats, computed by hand;
// the noisy flag; and the baseline verdict on intervals, against a single value and against an
// interval, overlapping and not.
#include <vector>

#include <gtest/gtest.h>

#include "verdict/repeats.h"

namespace llmperf {
namespace {

std::vector<KeyMetrics> rp_runs(std::vector<double> qps, std::vector<double> ttft_mean_ms) {
  std::vector<KeyMetrics> runs(qps.size());
  for (size_t i = 0; i < runs.size(); ++i) {
    runs[i].qps = qps[i];
    runs[i].ttft_mean_ms = ttft_mean_ms[i];
  }
  return runs;
}

const RepeatedMetric* rp_find(const std::vector<RepeatedMetric>& metrics, const std::string& key) {
  for (const RepeatedMetric& m : metrics) {
    if (m.key == key) return &m;
  }
  return nullptr;
}

const BaselineRow* rp_row(const BaselineComparison& c, const std::string& label) {
  for (const BaselineRow& row : c.rows) {
    if (row.metric == label) return &row;
  }
  return nullptr;
}

TEST(Repeats, MeansIntervalsAndNoiseByHand) {
  const std::vector<RepeatedMetric> metrics =
      repeated_metrics(rp_runs({10, 11, 12}, {100, 101, 99}));
  ASSERT_EQ(metrics.size(), 2u);  // the metrics no repeat had are left out
  const RepeatedMetric* qps = rp_find(metrics, "qps");
  ASSERT_NE(qps, nullptr);
  EXPECT_EQ(qps->label, "QPS (req/s)");
  EXPECT_EQ(qps->values, (std::vector<double>{10, 11, 12}));
  // mean 11, std 1, half-width 4.303 / sqrt(3) = 2.484338; CV 1/11 = 9.1 %: noisy
  EXPECT_DOUBLE_EQ(qps->interval.mean, 11);
  EXPECT_NEAR(qps->interval.ci95_low, 8.515662, 1e-6);
  EXPECT_NEAR(qps->interval.ci95_high, 13.484338, 1e-6);
  EXPECT_NEAR(qps->interval.cv, 1.0 / 11, 1e-12);
  EXPECT_TRUE(qps->noisy());
  const RepeatedMetric* ttft = rp_find(metrics, "ttft_mean_ms");
  ASSERT_NE(ttft, nullptr);
  EXPECT_NEAR(ttft->interval.cv, 0.01, 1e-12);  // std 1 over mean 100
  EXPECT_FALSE(ttft->noisy());
}

TEST(Repeats, ARegressionNeedsIntervalsThatDoNotOverlap) {
  BaselineSummary baseline;
  baseline.metrics.ttft_mean_ms = 100;  // one run: an interval of width 0
  baseline.metrics.qps = 11;

  // TTFT 30 % worse, tightly: [127.5, 132.5] lies above 100. QPS unchanged.
  const BaselineComparison worse = compare_repeats_to_baseline(
      baseline, repeated_metrics(rp_runs({10, 11, 12}, {130, 131, 129})), 0.1);
  EXPECT_EQ(rp_row(worse, "TTFT mean (ms)")->verdict, MetricVerdict::kRegression);
  EXPECT_EQ(rp_row(worse, "QPS (req/s)")->verdict, MetricVerdict::kOk);
  EXPECT_TRUE(worse.regressed());

  // The same mean 30 % worse, but so noisy that the interval [55.5, 204.5] holds 100: not judged a
  // regression (the single-run rule would have said one).
  const BaselineComparison noisy = compare_repeats_to_baseline(
      baseline, repeated_metrics(rp_runs({10, 11, 12}, {100, 160, 130})), 0.1);
  EXPECT_DOUBLE_EQ(*rp_row(noisy, "TTFT mean (ms)")->current, 130);
  EXPECT_EQ(rp_row(noisy, "TTFT mean (ms)")->verdict, MetricVerdict::kOk);
  EXPECT_FALSE(noisy.regressed());

  // A baseline with repeats of its own: its interval [95, 140] overlaps [127.5, 132.5].
  baseline.repeat_intervals["ttft_mean_ms"] = {95, 140};
  const BaselineComparison overlapping = compare_repeats_to_baseline(
      baseline, repeated_metrics(rp_runs({10, 11, 12}, {130, 131, 129})), 0.1);
  EXPECT_EQ(rp_row(overlapping, "TTFT mean (ms)")->verdict, MetricVerdict::kOk);
  // ...while [95, 120] does not.
  baseline.repeat_intervals["ttft_mean_ms"] = {95, 120};
  const BaselineComparison apart = compare_repeats_to_baseline(
      baseline, repeated_metrics(rp_runs({10, 11, 12}, {130, 131, 129})), 0.1);
  EXPECT_EQ(rp_row(apart, "TTFT mean (ms)")->verdict, MetricVerdict::kRegression);
}

TEST(Repeats, AnImprovementNeedsIntervalsApartToo) {
  BaselineSummary baseline;
  baseline.metrics.qps = 10;
  baseline.repeat_intervals["qps"] = {9.5, 10.5};
  const BaselineComparison better = compare_repeats_to_baseline(
      baseline, repeated_metrics(rp_runs({14, 15, 16}, {1, 1, 1})), 0.1);
  EXPECT_EQ(rp_row(better, "QPS (req/s)")->verdict, MetricVerdict::kImproved);
  baseline.repeat_intervals["qps"] = {9.5, 13};
  const BaselineComparison overlapping = compare_repeats_to_baseline(
      baseline, repeated_metrics(rp_runs({14, 15, 16}, {1, 1, 1})), 0.1);
  EXPECT_EQ(rp_row(overlapping, "QPS (req/s)")->verdict, MetricVerdict::kOk);
}

}  // namespace
}  // namespace llmperf
