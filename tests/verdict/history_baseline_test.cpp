// --baseline db:'s judgement (verdict/history_baseline.h): median, scaled MAD and the noise band
// on issue 27's synthetic history (30 runs of p99 TTFT 200 ms ± 5 % seeded noise: 210 ms passes,
// 260 ms fails), with uniform and normal noise; an identical history (the floor), too few runs, a
// higher-is-better metric, only the last N runs used, the verdict text; and the --baseline
// argument's "db:" parser.
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "verdict/history_baseline.h"

namespace llmperf {
namespace {

// `count` runs of `center` ± `spread` (a fraction) uniform noise from a fixed seed. mt19937's
// output is fixed by the standard, so the history is the same on every platform.
std::vector<HistoryValue> hb_uniform_history(int count, double center, double spread) {
  std::mt19937 gen(27);
  std::vector<HistoryValue> history;
  for (int i = 0; i < count; ++i) {
    const double u = static_cast<double>(gen()) / 4294967296.0;  // [0, 1)
    history.push_back({"run" + std::to_string(i), "2026-11-" + std::to_string(10 + i % 20) + "T00:00:00Z",
                       center * (1 + spread * (2 * u - 1))});
  }
  return history;
}

// The same with normal noise of standard deviation `sigma` (Box-Muller over mt19937).
std::vector<HistoryValue> hb_normal_history(int count, double center, double sigma) {
  std::mt19937 gen(2027);
  std::vector<HistoryValue> history;
  for (int i = 0; i < count; ++i) {
    const double u1 = (static_cast<double>(gen()) + 1) / 4294967297.0;
    const double u2 = static_cast<double>(gen()) / 4294967296.0;
    const double z = std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
    history.push_back({"run" + std::to_string(i), "2026-11-27T00:00:00Z", center + sigma * z});
  }
  return history;
}

HistoryBaselineOptions hb_all_runs() {
  HistoryBaselineOptions options;
  options.runs = 30;
  return options;
}

TEST(HistoryBaseline, MedianAndScaledMad) {
  EXPECT_DOUBLE_EQ(median_of({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median_of({4, 1, 3, 2}), 2.5);
  EXPECT_TRUE(std::isnan(median_of({})));
  // deviations from 2: 1, 0, 1, 8 -> median 1
  EXPECT_DOUBLE_EQ(scaled_mad({1, 2, 3, 10}, 2), kMadScale * 1);
}

TEST(HistoryBaseline, IssueExampleUniformNoise) {
  const std::vector<HistoryValue> history = hb_uniform_history(30, 200, 0.05);
  const HistoryJudgement ok = judge_against_history("ttft.p99", "ms", history, 210, hb_all_runs());
  EXPECT_EQ(ok.verdict, MetricVerdict::kOk) << ok.text;
  EXPECT_EQ(ok.runs, 30u);
  EXPECT_NEAR(ok.median, 200, 5);
  EXPECT_GT(ok.half_width, 10);
  EXPECT_LT(ok.half_width, 40);
  const HistoryJudgement bad = judge_against_history("ttft.p99", "ms", history, 260, hb_all_runs());
  EXPECT_EQ(bad.verdict, MetricVerdict::kRegression) << bad.text;
  EXPECT_FALSE(bad.higher_is_better);
  // Faster than the band is no regression.
  const HistoryJudgement fast = judge_against_history("ttft.p99", "ms", history, 140, hb_all_runs());
  EXPECT_EQ(fast.verdict, MetricVerdict::kImproved) << fast.text;
}

TEST(HistoryBaseline, IssueExampleNormalNoise) {
  const std::vector<HistoryValue> history = hb_normal_history(30, 200, 10);  // 5 % of 200
  EXPECT_EQ(judge_against_history("ttft.p99", "ms", history, 210, hb_all_runs()).verdict,
            MetricVerdict::kOk);
  EXPECT_EQ(judge_against_history("ttft.p99", "ms", history, 260, hb_all_runs()).verdict,
            MetricVerdict::kRegression);
}

TEST(HistoryBaseline, DefaultUsesTheLastTenRuns) {
  std::vector<HistoryValue> history = hb_uniform_history(30, 200, 0.05);
  // An old regime far away: only the last 10 runs count by default.
  for (int i = 0; i < 20; ++i) history[static_cast<size_t>(i)].value = 1000;
  const HistoryJudgement j = judge_against_history("ttft.p99", "ms", history, 205, {});
  EXPECT_EQ(j.runs, 10u);
  EXPECT_EQ(j.first_run_id, "run20");
  EXPECT_EQ(j.last_run_id, "run29");
  EXPECT_EQ(j.verdict, MetricVerdict::kOk) << j.text;
}

TEST(HistoryBaseline, IdenticalHistoryHasAFloor) {
  const std::vector<HistoryValue> history(10, HistoryValue{"r", "2026-11-27T00:00:00Z", 100});
  const HistoryJudgement same = judge_against_history("tpot.p99", "ms", history, 100, {});
  EXPECT_EQ(same.mad, 0);
  EXPECT_DOUBLE_EQ(same.half_width, 2);  // 2 % of 100
  EXPECT_EQ(same.verdict, MetricVerdict::kOk);
  EXPECT_NE(same.text.find("at its floor"), std::string::npos) << same.text;
  EXPECT_EQ(judge_against_history("tpot.p99", "ms", history, 101.5, {}).verdict,
            MetricVerdict::kOk);
  EXPECT_EQ(judge_against_history("tpot.p99", "ms", history, 102, {}).verdict,
            MetricVerdict::kOk);  // exactly on the band
  EXPECT_EQ(judge_against_history("tpot.p99", "ms", history, 103, {}).verdict,
            MetricVerdict::kRegression);
  // An error rate of 0 in every run: the absolute floor (one point) tolerates a little.
  const std::vector<HistoryValue> clean(5, HistoryValue{"r", "t", 0});
  EXPECT_EQ(judge_against_history("error_rate", "", clean, 0.005, {}, 0.01).verdict,
            MetricVerdict::kOk);
  EXPECT_EQ(judge_against_history("error_rate", "", clean, 0.05, {}, 0.01).verdict,
            MetricVerdict::kRegression);
}

TEST(HistoryBaseline, TooFewRunsAreNotJudged) {
  const std::vector<HistoryValue> history = hb_uniform_history(kMinHistoryRuns - 1, 200, 0.05);
  const HistoryJudgement j = judge_against_history("ttft.p99", "ms", history, 900, {});
  EXPECT_EQ(j.verdict, MetricVerdict::kNotJudged);
  EXPECT_NE(j.text.find("not judged"), std::string::npos) << j.text;
  EXPECT_EQ(
      judge_against_history("ttft.p99", "ms", hb_uniform_history(3, 200, 0.05), 900, {}).verdict,
      MetricVerdict::kRegression);
  // No current value: not judged either.
  EXPECT_EQ(judge_against_history("ttft.p99", "ms", history, std::nullopt, {}).verdict,
            MetricVerdict::kNotJudged);
}

TEST(HistoryBaseline, HigherIsBetterMetric) {
  const std::vector<HistoryValue> history = hb_uniform_history(20, 5000, 0.05);
  const HistoryJudgement low = judge_against_history("output_throughput", "tok/s", history, 3000, {});
  EXPECT_TRUE(low.higher_is_better);
  EXPECT_EQ(low.verdict, MetricVerdict::kRegression) << low.text;
  EXPECT_EQ(judge_against_history("output_throughput", "tok/s", history, 8000, {}).verdict,
            MetricVerdict::kImproved);
  EXPECT_EQ(judge_against_history("output_throughput", "tok/s", history, 4950, {}).verdict,
            MetricVerdict::kOk);
}

TEST(HistoryBaseline, TextNamesMetricBandAndRuns) {
  const std::vector<HistoryValue> history = hb_uniform_history(12, 200, 0.05);
  HistoryBaselineOptions options;
  options.k = 4;
  const HistoryJudgement j = judge_against_history("ttft.p99", "ms", history, 260, options);
  EXPECT_NE(j.text.find("ttft.p99 = 260 ms: REGRESSION"), std::string::npos) << j.text;
  EXPECT_NE(j.text.find("median ± 4 × MAD"), std::string::npos) << j.text;
  EXPECT_NE(j.text.find("of 10 runs, run2 .. run11"), std::string::npos) << j.text;
  HistoryComparison comparison;
  comparison.rows.push_back(j);
  EXPECT_TRUE(comparison.regressed());
}

TEST(HistoryBaseline, ParsesTheBaselineArgument) {
  EXPECT_FALSE(parse_baseline_source("runs/summary.json").history);
  const BaselineSource db = parse_baseline_source("db:ci/history.db");
  EXPECT_TRUE(db.history);
  EXPECT_EQ(db.path, "ci/history.db");
  EXPECT_THROW(parse_baseline_source("db:"), std::invalid_argument);
  EXPECT_THROW(parse_baseline_source("db:a\nb"), std::invalid_argument);
}

}  // namespace
}  // namespace llmperf
