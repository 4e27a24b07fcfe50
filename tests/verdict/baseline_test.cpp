// Baseline comparison: reading a real summary.json (written by write_run_outputs from a hand-made
// summary), load errors naming the path, --tolerance parsing, verdicts at the tolerance boundary in
// both directions, the error rate in percentage points, and missing metrics. The
// table text is tested in tests/report/verdict_text_test.cpp. Links the report stage, whose
// write_run_outputs writes the summary.json read back here.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "plan/stage_options.h"
#include "report/report.h"
#include "verdict/baseline.h"

namespace llmperf {
namespace {

namespace fs = std::filesystem;

Distribution dist(double mean, double p99) {
  Distribution d;
  d.count = 10;
  d.mean = mean;
  d.min = mean / 2;
  d.max = p99;
  d.percentiles = {mean, p99};
  return d;
}

// 200 requests, 2 failed; percentiles 50/99. Times in ns.
RunSummary base_summary() {
  RunSummary s;
  s.total = 200;
  s.succeeded = 198;
  s.failed = 2;
  s.failures_by_kind = {{"http_503", 2}};
  s.window_ns = 20'000'000'000;
  s.qps = 9.9;
  s.output_throughput = 1000;
  s.total_throughput = 2000;
  s.streamed = true;
  s.percentiles = {50, 99};
  s.latency_ns = dist(2e9, 4e9);
  s.ttft_ns = dist(200e6, 500e6);
  s.ttfb_ns = dist(50e6, 90e6);
  s.tpot_ns = dist(20e6, 40e6);
  s.itl_ns = dist(20e6, 50e6);
  s.input_tokens = dist(100, 150);
  s.output_tokens = dist(100, 128);
  return s;
}

class BaselineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("llmperf_baseline_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Writes summary.json for `summary` with the real report writer; returns its path.
  std::string write_summary(const RunSummary& summary) {
    Config config;
    config.target.model = "qwen";
    config.output.percentiles = summary.percentiles;
    RunInfo info;
    info.parallel = 8;
    info.number = 200;
    info.output_dir = (dir_ / "run").string();
    info.started_at = "2026-11-21T12:48:33Z";
    write_run_outputs(report_options(config), info, summary, RunTrace{});
    return (dir_ / "run" / "summary.json").string();
  }

  std::string write_text(const std::string& name, const std::string& text) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }

  fs::path dir_;
};

void expect_load_error(const std::string& path, const std::string& fragment) {
  try {
    load_baseline(path);
    FAIL() << "no error for " << path;
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("--baseline '" + path + "': ", 0), 0U) << message;
    EXPECT_NE(message.find(fragment), std::string::npos) << message;
  }
}

const BaselineRow& row(const BaselineComparison& c, const std::string& metric) {
  for (const BaselineRow& r : c.rows) {
    if (r.metric == metric) return r;
  }
  throw std::runtime_error("no row " + metric);
}

TEST_F(BaselineTest, LoadsKeyMetricsFromARealSummary) {
  const std::string path = write_summary(base_summary());
  const BaselineSummary b = load_baseline(path);
  EXPECT_EQ(b.path, path);
  EXPECT_EQ(b.description, "parallel 8, number 200, 2026-11-21T12:48:33Z");
  EXPECT_DOUBLE_EQ(*b.metrics.qps, 9.9);
  EXPECT_DOUBLE_EQ(*b.metrics.output_throughput, 1000);
  EXPECT_DOUBLE_EQ(*b.metrics.latency_mean_s, 2);
  EXPECT_DOUBLE_EQ(*b.metrics.latency_p99_s, 4);
  EXPECT_DOUBLE_EQ(*b.metrics.ttft_mean_ms, 200);
  EXPECT_DOUBLE_EQ(*b.metrics.ttft_p99_ms, 500);
  EXPECT_DOUBLE_EQ(*b.metrics.tpot_mean_ms, 20);
  EXPECT_DOUBLE_EQ(*b.metrics.tpot_p99_ms, 40);
  EXPECT_DOUBLE_EQ(*b.metrics.itl_mean_ms, 20);
  EXPECT_DOUBLE_EQ(*b.metrics.itl_p99_ms, 50);
  EXPECT_DOUBLE_EQ(*b.metrics.error_rate_percent, 1);

  // The same run compared with itself: every row ok, no change.
  const BaselineComparison c = compare_to_baseline(b, base_summary(), 0.1);
  ASSERT_EQ(c.rows.size(), 11U);
  EXPECT_FALSE(c.regressed());
  for (const BaselineRow& r : c.rows) {
    EXPECT_EQ(r.verdict, MetricVerdict::kOk) << r.metric;
    ASSERT_TRUE(r.change) << r.metric;
    EXPECT_NEAR(*r.change, 0, 1e-9) << r.metric;
  }
}

TEST_F(BaselineTest, SummaryJsonCarriesGoodput) {
  RunSummary s = base_summary();
  s.goodput_enabled = true;
  s.goodput_spec.ttft_ns = 500'000'000;
  s.goodput_spec.e2el_ns = 2'500'000;
  s.good_requests = 150;
  s.goodput_rps = 7.5;
  s.good_fraction = 0.75;
  std::ifstream in(write_summary(s));
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j["goodput"], (nlohmann::json{{"ttft_ms", 500.0},
                                          {"ttfat_ms", nullptr},
                                          {"tpot_ms", nullptr},
                                          {"e2el_ms", 2.5},
                                          {"good_requests", 150},
                                          {"goodput_req_s", 7.5},
                                          {"good_fraction", 0.75}}));
}

TEST_F(BaselineTest, LoadErrorsNameThePath) {
  expect_load_error((dir_ / "missing.json").string(), "cannot open");
  expect_load_error(write_text("bad.json", "{not json"), "not valid JSON");
  expect_load_error(write_text("noschema.json", "{\"qps\": 1}"), "no \"schema\"");
  expect_load_error(write_text("array.json", "[1, 2]"), "no \"schema\"");
  expect_load_error(write_text("other.json", "{\"schema\": \"llmperf.summary/2\"}"),
                    "unsupported schema \"llmperf.summary/2\" (expected \"llmperf.summary/1\")");
}

TEST_F(BaselineTest, MissingMetricsAreNotJudged) {
  // A non-stream baseline without p99: TTFT/TPOT/ITL and every p99 are absent.
  RunSummary old = base_summary();
  old.streamed = false;
  old.ttft_ns = old.tpot_ns = old.itl_ns = Distribution{};
  old.percentiles = {50, 90};
  const BaselineSummary b = load_baseline(write_summary(old));
  EXPECT_FALSE(b.metrics.ttft_mean_ms);
  EXPECT_FALSE(b.metrics.latency_p99_s);
  EXPECT_TRUE(b.metrics.latency_mean_s);

  RunSummary now = base_summary();
  now.ttft_ns = dist(1e9, 5e9);  // far worse, but nothing to compare with
  const BaselineComparison c = compare_to_baseline(b, now, 0.1);
  EXPECT_FALSE(c.regressed());
  EXPECT_EQ(row(c, "TTFT mean (ms)").verdict, MetricVerdict::kNotJudged);
  EXPECT_FALSE(row(c, "TTFT mean (ms)").change);
  EXPECT_EQ(row(c, "Latency p99 (s)").verdict, MetricVerdict::kNotJudged);
  EXPECT_EQ(row(c, "Latency mean (s)").verdict, MetricVerdict::kOk);

  const std::string table = render_baseline_table(c);
  EXPECT_NE(table.find("TTFT mean (ms)                    -     1000         -  -\n"),
            std::string::npos)
      << table;
}

BaselineSummary baseline_of(const RunSummary& s) {
  BaselineSummary b;
  b.path = "old/summary.json";
  b.metrics = key_metrics(s);
  return b;
}

TEST(BaselineCompare, ToleranceBoundaryBothDirections) {
  const BaselineSummary b = baseline_of(base_summary());
  RunSummary now = base_summary();
  now.latency_ns.mean = 2.2e9;         // +10 %: at the tolerance, ok
  now.ttft_ns.percentiles[1] = 551e6;  // +10.2 %: regression
  now.tpot_ns.mean = 18e6;             // -10 %: ok
  now.tpot_ns.percentiles[1] = 35e6;   // -12.5 %: improved
  now.qps = 8.91;                      // -10 %: ok
  now.output_throughput = 899;         // -10.1 %: regression (higher is better)
  now.itl_ns.mean = 30e6;              // +50 %
  const BaselineComparison c = compare_to_baseline(b, now, 0.1);
  EXPECT_EQ(row(c, "Latency mean (s)").verdict, MetricVerdict::kOk);
  EXPECT_NEAR(*row(c, "Latency mean (s)").change, 10, 1e-9);
  EXPECT_EQ(row(c, "TTFT p99 (ms)").verdict, MetricVerdict::kRegression);
  EXPECT_EQ(row(c, "TPOT mean (ms)").verdict, MetricVerdict::kOk);
  EXPECT_EQ(row(c, "TPOT p99 (ms)").verdict, MetricVerdict::kImproved);
  EXPECT_EQ(row(c, "QPS (req/s)").verdict, MetricVerdict::kOk);
  EXPECT_EQ(row(c, "Output throughput (tok/s)").verdict, MetricVerdict::kRegression);
  EXPECT_NEAR(*row(c, "Output throughput (tok/s)").change, -10.1, 1e-9);
  EXPECT_EQ(row(c, "ITL mean (ms)").verdict, MetricVerdict::kRegression);
  EXPECT_TRUE(c.regressed());

  // With a 60 % tolerance nothing regresses; with 0 any worsening does.
  EXPECT_FALSE(compare_to_baseline(b, now, 0.6).regressed());
  EXPECT_EQ(row(compare_to_baseline(b, now, 0), "QPS (req/s)").verdict, MetricVerdict::kRegression);

  RunSummary faster = base_summary();
  faster.qps = 11;
  EXPECT_EQ(row(compare_to_baseline(b, faster, 0.1), "QPS (req/s)").verdict,
            MetricVerdict::kImproved);
}

TEST(BaselineCompare, ErrorRateInPercentagePoints) {
  const BaselineSummary b = baseline_of(base_summary());  // 1 %
  RunSummary now = base_summary();
  now.failed = 4;  // 2 %: +1 point, the allowance at 10 %
  now.succeeded = 196;
  BaselineRow r = row(compare_to_baseline(b, now, 0.1), "Error rate (%)");
  EXPECT_EQ(r.verdict, MetricVerdict::kOk);
  EXPECT_TRUE(r.change_in_points);
  EXPECT_DOUBLE_EQ(*r.change, 1);
  now.failed = 5;  // 2.5 %: +1.5 points
  EXPECT_EQ(row(compare_to_baseline(b, now, 0.1), "Error rate (%)").verdict,
            MetricVerdict::kRegression);
  EXPECT_EQ(row(compare_to_baseline(b, now, 0.2), "Error rate (%)").verdict, MetricVerdict::kOk);
  now.failed = 0;  // -1 point: at the allowance, ok
  EXPECT_EQ(row(compare_to_baseline(b, now, 0.1), "Error rate (%)").verdict, MetricVerdict::kOk);
  EXPECT_EQ(row(compare_to_baseline(b, now, 0.05), "Error rate (%)").verdict,
            MetricVerdict::kImproved);
}

TEST(BaselineCompare, ZeroBaselineHasNoRelativeChange) {
  BaselineSummary b;
  b.metrics.qps = 0;
  b.metrics.ttft_mean_ms = 0;
  RunSummary now = base_summary();
  const BaselineComparison c = compare_to_baseline(b, now, 0.1);
  EXPECT_EQ(row(c, "QPS (req/s)").verdict, MetricVerdict::kImproved);
  EXPECT_FALSE(row(c, "QPS (req/s)").change);
  EXPECT_EQ(row(c, "TTFT mean (ms)").verdict, MetricVerdict::kRegression);
}

TEST(BaselineTolerance, PercentOrFraction) {
  EXPECT_DOUBLE_EQ(parse_tolerance("10%"), 0.1);
  EXPECT_DOUBLE_EQ(parse_tolerance("0.1"), 0.1);
  EXPECT_DOUBLE_EQ(parse_tolerance("2.5%"), 0.025);
  EXPECT_DOUBLE_EQ(parse_tolerance("0"), 0);
  EXPECT_DOUBLE_EQ(parse_tolerance("150%"), 1.5);
  for (const std::string bad : {"", "%", "abc", "10 %", "-5%", "10", "0.1x"}) {
    try {
      parse_tolerance(bad);
      ADD_FAILURE() << "no error for '" << bad << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()).rfind("--tolerance '" + bad + "': ", 0), 0U) << e.what();
    }
  }
}

}  // namespace
}  // namespace llmperf
