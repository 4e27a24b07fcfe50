// Verdict text for stdout: the SLO block (PASS/FAIL per SLO and the run's verdict), the goodput
// line, and the baseline table, rendered from hand-made summaries.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "report/report.h"

namespace llmperf {
namespace {

Distribution dist(double mean, double p99) {
  Distribution d;
  d.count = 10;
  d.mean = mean;
  d.min = mean / 2;
  d.max = p99;
  d.percentiles = {mean, p99};
  return d;
}

// 200 requests, 2 failed (1 %); percentiles 50/99; TTFT p99 500 ms. Times in ns.
RunSummary summary() {
  RunSummary s;
  s.total = 200;
  s.succeeded = 198;
  s.failed = 2;
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

TEST(VerdictText, SloBlockShowsEachSloAndTheVerdict) {
  const std::vector<Slo> slos = {parse_slo("ttft.p99<=800ms"), parse_slo("error_rate<=0.5%")};
  RunSummary s = summary();
  const std::string text = render_verdicts_text(s, evaluate_slos("parallel_8_number_200", slos, s));
  EXPECT_NE(text.find("PASS  ttft.p99<=800ms"), std::string::npos) << text;
  EXPECT_NE(text.find("FAIL  error_rate<=0.5%"), std::string::npos) << text;
  EXPECT_NE(text.find("SLO verdict: FAIL (1 of 2 violated)"), std::string::npos) << text;

  s.failed = 1;
  s.succeeded = 199;
  EXPECT_NE(
      render_verdicts_text(s, evaluate_slos("run", slos, s)).find("SLO verdict: PASS (2 of 2 met)"),
      std::string::npos);
  EXPECT_EQ(render_verdicts_text(s, evaluate_slos("run", {}, s)), "");
}

TEST(VerdictText, GoodputLine) {
  RunSummary s = summary();
  EXPECT_EQ(render_goodput_text(s), "");
  s.goodput_enabled = true;
  s.goodput_spec.ttft_ns = 500'000'000;
  s.goodput_spec.e2el_ns = 2'000'000'000;
  s.good_requests = 90;
  s.goodput_rps = 9;
  s.good_fraction = 0.45;
  EXPECT_EQ(render_goodput_text(s),
            "Goodput (TTFT <= 500 ms, E2EL <= 2000 ms): 90 good of 200 requests (45%), 9 req/s\n");
}

TEST(VerdictText, BaselineTable) {
  BaselineSummary b;
  b.path = "old/summary.json";
  b.metrics = key_metrics(summary());
  RunSummary now = summary();
  now.ttft_ns.percentiles[1] = 600e6;  // +20 %
  const std::string table = render_baseline_table(compare_to_baseline(b, now, 0.1));
  EXPECT_EQ(table.rfind("Baseline: old/summary.json, tolerance 10%\n", 0), 0U) << table;
  EXPECT_NE(table.find("Metric                     Baseline  Current    Change  Verdict\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("TTFT p99 (ms)                   500      600    +20.0%  REGRESSION\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("Error rate (%)                    1        1  +0.00 pp  ok\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("Baseline verdict: FAIL (1 regression beyond 10%: TTFT p99 (ms))"),
            std::string::npos)
      << table;
  const std::string pass = render_baseline_table(compare_to_baseline(b, summary(), 0.1));
  EXPECT_NE(pass.find("Baseline verdict: PASS (no regression beyond 10%)"), std::string::npos);
}

}  // namespace
}  // namespace llmperf
